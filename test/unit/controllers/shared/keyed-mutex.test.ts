import test from 'ava';
import { withKeyedLock } from '../../../../src/controllers/shared/keyed-mutex.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('calls with the same key never overlap and run in call order', async (t) => {
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const job = (name: string) => async (): Promise<string> => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    events.push(`start ${name}`);
    await sleep(5);
    events.push(`end ${name}`);
    inFlight--;
    return name;
  };
  const results = await Promise.all(['a', 'b', 'c'].map((n) => withKeyedLock('zone-1', job(n))));
  t.deepEqual(results, ['a', 'b', 'c']);
  t.is(maxInFlight, 1);
  t.deepEqual(events, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

test('different keys run concurrently', async (t) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const job = async (): Promise<void> => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await sleep(10);
    inFlight--;
  };
  await Promise.all([withKeyedLock('a', job), withKeyedLock('b', job)]);
  t.is(maxInFlight, 2);
});

test('a failure does not block later callers with the same key', async (t) => {
  await t.throwsAsync(
    withKeyedLock('k', () => Promise.reject(new Error('first fails'))),
    { message: 'first fails' },
  );
  t.is(await withKeyedLock('k', () => Promise.resolve(42)), 42);
});
