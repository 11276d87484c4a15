/**
 * A watch response's lines are handled in event-loop slices (issue 32, the first window): one
 * socket read after a burst of creates holds dozens of events, and before the fix every one of
 * them was handled inside the `data` callback, so timers and other responses waited 50–120 ms.
 */
import { PassThrough } from 'node:stream';
import test from 'ava';
import { pino } from 'pino';
import { Informer } from '../../../src/runtime/informer.js';
import { SECRETS } from '../../../src/runtime/resource.js';
import { KubeApiError } from '../../../src/runtime/kube-client.js';
import { streamLines } from '../../../src/runtime/watch-lines.js';
import { eventLine, startFakeKube } from './kube-fake-server.js';

/** Burns `ms` of CPU synchronously, like handling one watch event. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

/** A response stand-in: a stream with `complete` as an IncomingMessage has it. */
function response(): PassThrough & { complete: boolean } {
  return Object.assign(new PassThrough(), { complete: false });
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * A stream whose lines each cost 2 ms and are collected, in 1 ms slices; `afterLine` sees the
 * lines collected so far after each one.
 */
function collecting(
  signal?: AbortSignal,
  afterLine?: (seen: string[]) => void,
): {
  res: ReturnType<typeof response>;
  seen: string[];
  done: Promise<void>;
} {
  const res = response();
  const seen: string[] = [];
  const done = streamLines(
    res,
    (line) => {
      busy(2);
      seen.push(line);
      afterLine?.(seen);
    },
    signal,
    1,
  );
  return { res, seen, done };
}

function lines(n: number, from = 0): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ n: from + i })).join('\n') + '\n';
}

test('a read holding many events gives the event loop turns between slices', async (t) => {
  const res = response();
  const seen: number[] = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  t.teardown(() => clearInterval(timer));
  let ticksAtLine20 = -1;
  const done = streamLines(
    res,
    (line) => {
      const { n } = JSON.parse(line) as { n: number };
      busy(1);
      seen.push(n);
      if (n === 0) ticks = 0;
      if (n === 20) ticksAtLine20 = ticks;
    },
    undefined,
    5,
  );
  res.write(lines(40)); // one chunk: 40 events of 1 ms each
  res.complete = true;
  res.end();
  await done;
  t.deepEqual(
    seen,
    Array.from({ length: 40 }, (_, i) => i),
  );
  // On the old stream all 40 ran in the `data` callback: no timer could fire before line 20.
  t.true(ticksAtLine20 > 0, `a 1 ms timer fired ${ticksAtLine20} times by line 20`);
});

test('a line cut across reads arrives whole, in order, and the promise waits for the queue', async (t) => {
  const { res, seen, done } = collecting();
  res.write('{"a":');
  await turn();
  res.write('1}\n{"b":2}\n\n{"c"');
  res.write(':3}\n' + lines(5));
  res.complete = true;
  res.end();
  await done;
  t.deepEqual(seen.slice(0, 3), ['{"a":1}', '{"b":2}', '{"c":3}']);
  t.is(seen.length, 8, 'every line was handled before the stream resolved');
});

test('a connection closed early rejects after the lines it delivered', async (t) => {
  const { res, seen, done } = collecting();
  res.write(lines(6));
  res.destroy();
  const err = await t.throwsAsync(done, { instanceOf: KubeApiError });
  t.regex(err?.message ?? '', /connection closed/);
  t.is(seen.length, 6);
});

test('an abort stops handling at once and resolves', async (t) => {
  const ctrl = new AbortController();
  const { res, seen, done } = collecting(ctrl.signal, (so) => {
    if (so.length === 3) ctrl.abort();
  });
  res.write(lines(20));
  await done;
  t.true(seen.length <= 3, `${seen.length} lines handled after the abort`);
});

test('a paused stream resumes once the queue is drained, so later reads still arrive', async (t) => {
  const res = response();
  let count = 0;
  const done = streamLines(
    res,
    () => {
      busy(1);
      count++;
    },
    undefined,
    2,
  );
  for (let i = 0; i < 10; i++) {
    res.write(lines(10, i * 10));
    await turn();
  }
  res.complete = true;
  res.end();
  await done;
  t.is(count, 100);
});

test.serial(
  'a relist of many objects gives the event loop turns between its handlers',
  async (t) => {
    const items = Array.from({ length: 60 }, (_, i) => ({
      metadata: { name: `o${i}`, namespace: 'ns', uid: `u${i}`, resourceVersion: '7' },
    }));
    const kube = await startFakeKube({
      list: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ metadata: { resourceVersion: '9' }, items }));
      },
      watch: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '10' } }));
      },
    });
    let ticks = 0;
    let ticksAt30 = -1;
    let added = 0;
    const timer = setInterval(() => ticks++, 1);
    const informer = new Informer({
      client: kube.client,
      type: SECRETS,
      namespace: 'ns',
      log: pino({ level: 'silent' }),
      handlers: {
        onAdd: () => {
          busy(1);
          if (added === 0) ticks = 0;
          if (++added === 30) ticksAt30 = ticks;
        },
      },
    });
    try {
      informer.start();
      await informer.waitForSync();
      t.is(added, 60);
      // Before, replace() ran all 60 handlers in one turn: no timer fired by the 30th.
      t.true(ticksAt30 > 0, `a 1 ms timer fired ${ticksAt30} times by the 30th add`);
    } finally {
      clearInterval(timer);
      await informer.stop();
      await kube.close();
    }
  },
);
