import test from 'ava';
import { DelayHeap } from '../../../src/runtime/delay-heap.js';
import { WorkQueue } from '../../../src/runtime/workqueue.js';
import { MAX_TIMER_MS } from '../../../src/common/timers.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` and counts the timers it left pending (setTimeout calls minus clearTimeout calls). */
function pendingTimersAfter(fn: () => void): number {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<unknown>();
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    const timer = realSet(...args);
    live.add(timer);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = (timer: Parameters<typeof clearTimeout>[0]) => {
    live.delete(timer);
    realClear(timer);
  };
  try {
    fn();
  } finally {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  }
  return live.size;
}

test('keys fire in due order with the value they were scheduled with', async (t) => {
  const fired: string[] = [];
  const h = new DelayHeap<string>((key, v) => fired.push(`${key}:${v}`));
  h.set('c', 60, 'z');
  h.set('a', 10, 'x');
  h.set('b', 30, 'y');
  await sleep(120);
  t.deepEqual(fired, ['a:x', 'b:y', 'c:z']);
  t.is(h.size, 0);
});

test('the latest schedule of a key wins and delete cancels', async (t) => {
  const fired: string[] = [];
  const h = new DelayHeap<number>((key, v) => fired.push(`${key}:${v}`));
  h.set('a', 10, 1);
  h.set('a', 400, 2);
  h.set('b', 10, 1);
  t.true(h.delete('b'));
  t.false(h.delete('b'));
  // Past the earlier due time of a and b; on a loaded machine the later one may be due too,
  // so what is checked is that neither earlier schedule ever fires (no exact timing).
  await sleep(60);
  t.deepEqual(
    fired.filter((f) => f !== 'a:2'),
    [],
    'the earlier schedule of a and the cancelled b never fire',
  );
  for (let i = 0; i < 100 && fired.length === 0; i++) await sleep(50);
  await sleep(50);
  t.deepEqual(fired, ['a:2']);
});

test('re-scheduling one key forever keeps the heap bounded', (t) => {
  const h = new DelayHeap<number>(() => undefined);
  for (let i = 0; i < 100_000; i++) h.set(`k${i % 10}`, 60_000 + i, i);
  t.is(h.size, 10);
  t.true(h.heapSize <= 2 * h.size + 64, `heap holds ${h.heapSize} entries for 10 keys`);
  h.clear();
  t.is(h.heapSize, 0);
});

test('a callback that schedules again with no delay waits for the next timer, not a loop', async (t) => {
  let calls = 0;
  const h: DelayHeap<number> = new DelayHeap<number>((key) => {
    calls++;
    if (calls < 1000) h.set(key, 0, 0);
  });
  h.set('a', 1, 0);
  // Polls instead of one fixed sleep: on a loaded machine 50 ms may not see a second timer turn.
  for (let waited = 0; calls <= 1 && waited < 5000; waited += 10) await sleep(10);
  t.true(calls > 1 && calls < 1000, `${calls} calls by the second timer turn: one per turn`);
  h.clear();
});

test('delays beyond the timer range are clamped instead of firing at once', async (t) => {
  const fired: string[] = [];
  const h = new DelayHeap<number>((key) => fired.push(key));
  h.set('far', 10 * MAX_TIMER_MS, 0);
  h.set('nan', Number.NaN, 0);
  await sleep(30);
  t.deepEqual(fired, ['nan'], 'NaN is no delay; a delay of years is the longest timer');
  t.true(h.has('far'));
  h.clear();
});

test('the work queue holds one timer for all scheduled keys, not one per key', (t) => {
  // Per-key timers cost several hundred bytes per managed object (issue 17, heap per object).
  const q = new WorkQueue();
  const pending = pendingTimersAfter(() => {
    for (let i = 0; i < 1000; i++) q.schedule(`ns/o-${i}`, 600_000 + i);
  });
  t.true(pending <= 1, `${pending} timers for 1000 scheduled keys`);
  t.true(q.isScheduled('ns/o-999'));
  q.shutdown();
  t.false(q.isScheduled('ns/o-999'));
});
