/**
 * The global rate limit measured through the work queue with several workers (not only the
 * token bucket on its own): keys handed out per second never exceed qps × time + burst.
 */
import test from 'ava';
import { TokenBucket } from '../../../src/runtime/rate-limiter.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';

test('four workers draining 200 keys get at most qps × t + burst of them', async (t) => {
  const qps = 20;
  const burst = 5;
  const queue = new WorkQueue({ limiter: new TokenBucket(qps, burst) });
  for (let i = 0; i < 200; i++) queue.add(`ns/k${i}`, i % 2 ? 'high' : 'low');
  const taken: number[] = [];
  const started = Date.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      taken.push(Date.now() - started);
      queue.done(key);
    }
  };
  const workers = Array.from({ length: 4 }, () => worker());
  await new Promise((r) => setTimeout(r, 1500));
  queue.shutdown();
  await Promise.all(workers);
  const elapsed = (Date.now() - started) / 1000;
  t.log(`${taken.length} keys in ${elapsed.toFixed(2)} s`);
  t.true(taken.length <= Math.ceil(qps * elapsed + burst), String(taken.length));
  t.true(taken.length >= qps * 1.5 * 0.5, 'the limiter lets keys through');
  // No window of one second holds more than qps + burst keys.
  for (const at of taken) {
    const inWindow = taken.filter((x) => x >= at && x < at + 1000).length;
    t.true(inWindow <= qps + burst, `window at ${at} ms: ${inWindow}`);
  }
});
