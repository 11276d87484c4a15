/**
 * Issue 13 item 7: no timer beyond 2^31-1 ms anywhere, the poll interval clamped and
 * reported, Retry-After capped so one answer cannot freeze an account.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { CdnClient } from '../../../src/cdn/client.js';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { clampDelay, MAX_TIMER_MS } from '../../../src/common/timers.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';
import { FakeEnv, thing } from './fake-env.js';
import { json, startLocal } from '../cdn/local-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;

test('clampDelay keeps every delay a timer can hold', (t) => {
  t.is(clampDelay(3_600_000_000), MAX_TIMER_MS);
  t.is(clampDelay(-5), 0);
  t.is(clampDelay(Number.NaN), 0);
  t.is(clampDelay(Number.POSITIVE_INFINITY), MAX_TIMER_MS);
  t.is(clampDelay(1500.4), 1500);
});

test('poll-interval 1000h: clamped to 24 h, reported once as a Warning event, no hot loop', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a', { color: 'red' }, { 'cdn.operator.io/poll-interval': '1000h' }));
  const rec = env.reconciler();
  await rec.reconcile('ns/a'); // create
  const r = await rec.reconcile('ns/a'); // confirm: in sync, next pass at the poll interval
  t.is(r.outcome, 'success');
  t.true(
    r.requeueAfterMs! <= DAY * 1.1 && r.requeueAfterMs! >= DAY * 0.9,
    String(r.requeueAfterMs),
  );
  t.true(env.events.some((e) => e.type === 'Warning' && e.reason === 'InvalidPollInterval'));
  // Through the queue: the documented rate is one pass per day, so none within a second.
  const queue = new WorkQueue();
  let adds = 0;
  const q2 = new WorkQueue({ hooks: { onAdd: () => adds++ } });
  q2.schedule('ns/a', 1000 * 3_600_000); // what the old code handed the queue for 1000h
  queue.schedule('ns/a', r.requeueAfterMs!);
  await sleep(500);
  t.is(adds, 0, 'a delay beyond 2^31-1 ms must not fire after 1 ms');
  t.false(queue.isQueued('ns/a'));
  queue.shutdown();
  q2.shutdown();
});

test('poll-interval 1s is raised to 5 s and reported', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a', { color: 'red' }, { 'cdn.operator.io/poll-interval': '1s' }));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  const r = await rec.reconcile('ns/a');
  t.true(r.requeueAfterMs! >= 4_500, String(r.requeueAfterMs));
  t.true(env.events.some((e) => e.reason === 'InvalidPollInterval'));
});

test('a 429 with Retry-After 3000000 does not freeze the account beyond the cap', async (t) => {
  const server = await startLocal((req, res, i) =>
    i === 0
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '3000000' })
      : json(res, 200, { Id: 1 }),
  );
  t.teardown(() => server.close());
  const c = new CdnClient({
    baseUrl: server.url,
    credentials: `key-${randomUUID()}`,
    retry: { maxAttempts: 1 },
  });
  const err = await t.throwsAsync(() => c.getPullZone(1));
  t.true(err instanceof CdnApiError);
  t.is((err as CdnApiError).retryAfterMs, undefined, 'beyond the cap: ordinary backoff');
  const started = Date.now();
  const zone = await Promise.race([c.getPullZone(1), sleep(3000).then(() => 'frozen' as const)]);
  t.not(zone, 'frozen', 'the account must not be paused for 34 days');
  t.true(Date.now() - started < 2000);
});

test('a Retry-After within the cap still pauses the account', async (t) => {
  const server = await startLocal((req, res, i) =>
    i === 0
      ? json(res, 429, { Message: 'slow down' }, { 'Retry-After': '1' })
      : json(res, 200, { Id: 1 }),
  );
  t.teardown(() => server.close());
  const c = new CdnClient({
    baseUrl: server.url,
    credentials: `key-${randomUUID()}`,
    retry: { maxAttempts: 1 },
  });
  const err = await t.throwsAsync(() => c.getPullZone(1));
  t.is((err as CdnApiError).retryAfterMs, 1000);
  const started = Date.now();
  await c.getPullZone(1);
  t.true(Date.now() - started >= 900, String(Date.now() - started));
});
