import test from 'ava';
import { ItemBackoff } from '../../../src/runtime/backoff.js';
import { TokenBucket } from '../../../src/runtime/rate-limiter.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';

test('adds of a waiting key collapse into one entry', async (t) => {
  const q = new WorkQueue();
  q.add('ns/a');
  q.add('ns/a');
  q.add('ns/b');
  t.is(q.len(), 2);
  t.is(await q.get(), 'ns/a');
  t.is(await q.get(), 'ns/b');
});

test('a key is never handed out twice concurrently; an add while processing requeues it after done', async (t) => {
  const q = new WorkQueue();
  q.add('ns/a');
  const k = await q.get();
  q.add('ns/a');
  t.is(q.len(), 0, 'not queued while processing');
  q.done(k!);
  t.is(q.len(), 1, 'queued again after done');
  t.is(await q.get(), 'ns/a');
});

test('the high lane is served before the low lane, and a high add promotes a waiting key', async (t) => {
  const q = new WorkQueue();
  q.add('ns/resync-1', 'low');
  q.add('ns/resync-2', 'low');
  q.add('ns/user', 'high');
  q.add('ns/resync-2', 'high');
  t.deepEqual(
    [await q.get(), await q.get(), await q.get()],
    ['ns/user', 'ns/resync-2', 'ns/resync-1'],
  );
});

test('schedule keeps one timer per key and taking the key cancels it', async (t) => {
  const q = new WorkQueue();
  q.schedule('ns/a', 30);
  q.schedule('ns/a', 10_000);
  t.true(q.isScheduled('ns/a'));
  q.add('ns/a');
  await q.get();
  t.false(q.isScheduled('ns/a'), 'timer cancelled when processing starts');
  q.done('ns/a');
  q.schedule('ns/b', 20);
  await new Promise((r) => setTimeout(r, 60));
  t.true(q.isQueued('ns/b'));
});

test('addRateLimited grows the delay per key and forget resets it', (t) => {
  const q = new WorkQueue({
    backoff: new ItemBackoff({ baseMs: 1000, maxMs: 300_000, jitter: 0 }),
  });
  t.deepEqual(
    [q.addRateLimited('k'), q.addRateLimited('k'), q.addRateLimited('k')],
    [1000, 2000, 4000],
  );
  t.is(q.addRateLimited('k', 60_000), 60_000, 'Retry-After is a floor');
  q.forget('k');
  t.is(q.addRateLimited('k'), 1000);
  q.shutdown();
});

test('shutdown releases blocked workers and drain waits for in-flight keys', async (t) => {
  const q = new WorkQueue();
  q.add('ns/a');
  const k = await q.get();
  const waiting = q.get();
  let drained = false;
  const drain = q.drain(5000).then((d) => (drained = d));
  q.shutdown();
  t.is(await waiting, undefined);
  q.add('ns/x');
  t.is(q.len(), 0, 'no adds after shutdown');
  t.false(drained);
  q.done(k!);
  await drain;
  t.true(drained);
});

test('drain gives up after its deadline', async (t) => {
  const q = new WorkQueue();
  q.add('ns/a');
  await q.get();
  q.shutdown();
  t.false(await q.drain(20));
});

test('the global rate limit spaces out keys', (t) => {
  let now = 0;
  const bucket = new TokenBucket(10, 1, () => now);
  t.is(bucket.reserve(), 0, 'burst token');
  t.is(bucket.reserve(), 100, 'next token in 100 ms at 10 qps');
  now = 1000;
  t.is(bucket.reserve(), 0, 'refilled');
  t.is(new TokenBucket(0, 1).reserve(), 0, 'qps 0 disables limiting');
});

test('hooks report adds, depth, latency and retries', async (t) => {
  const seen = { adds: 0, depth: [] as number[], latency: 0, retries: 0 };
  const q = new WorkQueue({
    hooks: {
      onAdd: () => seen.adds++,
      onDepth: (d) => seen.depth.push(d),
      onLatency: () => seen.latency++,
      onRetry: () => seen.retries++,
    },
  });
  q.add('a');
  q.add('a');
  await q.get();
  q.addRateLimited('a');
  q.shutdown();
  t.is(seen.adds, 1, 'collapsed add not counted');
  t.deepEqual(seen.depth, [1, 0]);
  t.is(seen.latency, 1);
  t.is(seen.retries, 1);
});
