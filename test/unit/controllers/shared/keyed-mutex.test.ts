import test from 'ava';
import { waitOutside } from '../../../../src/common/pass-context.js';
import { withKeyedLock } from '../../../../src/controllers/shared/keyed-mutex.js';
import { PlatformSlots } from '../../../../src/runtime/platform-slots.js';

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

test('a call waiting for the lock gives its platform slot back, so the holder can take one again', async (t) => {
  // One platform slot. A holds the create lock and its request waits for the account (the
  // limiter's waitOutside gives the slot back), B takes the free slot and queues for the lock.
  // When A's wait ends it needs a slot again: B must not sit on it while waiting for A.
  const slots = new PlatformSlots(1);
  const accountWait = (): Promise<void> => waitOutside(() => sleep(20));
  const create = (name: string): Promise<string> =>
    slots.run('low', () =>
      withKeyedLock('create:account', async () => {
        await accountWait();
        return name;
      }),
    );
  const outcome = await Promise.race([
    Promise.all([create('a'), create('b'), create('c')]),
    sleep(3000).then(() => 'deadlock'),
  ]);
  t.deepEqual(outcome, ['a', 'b', 'c']);
  t.is(slots.inUse, 0);
});

test('outside a pass the lock is waited for as before', async (t) => {
  const order: string[] = [];
  await Promise.all(
    ['x', 'y'].map((n) =>
      withKeyedLock('plain', async () => {
        order.push(n);
        await sleep(5);
      }),
    ),
  );
  t.deepEqual(order, ['x', 'y']);
});
