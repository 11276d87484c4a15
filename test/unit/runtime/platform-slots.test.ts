/**
 * Platform slots (platform-slots.ts): at most `workers` platform calls of a kind at a time,
 * high-priority passes first, and — the reason they exist — a pass's Kubernetes round trips
 * no longer idle a worker: while creates wait for the apiserver, other passes keep every
 * platform slot busy (issue 17: creates bound by workers ÷ L, not by the apiserver's latency).
 */
import test from 'ava';
import { PlatformSlots } from '../../../src/runtime/platform-slots.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';
import { slowKube, startController } from './slow-kube.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('never more than size calls run; a freed slot goes to a waiting high call first', async (t) => {
  const slots = new PlatformSlots(2);
  const order: string[] = [];
  let running = 0;
  let most = 0;
  const call = (name: string, ms: number) => async (): Promise<string> => {
    running++;
    most = Math.max(most, running);
    order.push(name);
    await sleep(ms);
    running--;
    return name;
  };
  const all = [
    slots.run('low', call('l1', 30)),
    slots.run('low', call('l2', 30)),
    slots.run('low', call('l3', 5)),
    slots.run('low', call('l4', 5)),
    slots.run('high', call('h1', 5)),
  ];
  t.is(slots.inUse, 2);
  t.is(slots.waiting, 3);
  t.deepEqual(await Promise.all(all), ['l1', 'l2', 'l3', 'l4', 'h1']);
  t.is(most, 2);
  t.deepEqual(order.slice(0, 3), ['l1', 'l2', 'h1'], 'the high call overtook the waiting lows');
  t.is(slots.inUse, 0);
});

test('a call still waiting when the signal aborts is rejected and never runs', async (t) => {
  const slots = new PlatformSlots(1);
  const abort = new AbortController();
  let ran = false;
  const first = slots.run('low', () => sleep(30));
  const second = slots.run(
    'low',
    () => {
      ran = true;
      return Promise.resolve();
    },
    abort.signal,
  );
  abort.abort();
  await t.throwsAsync(second, { name: 'AbortError', message: /cannot wait for a platform slot/ });
  await first;
  t.false(ran);
  t.is(slots.inUse, 0);
  t.is(slots.waiting, 0);
});

test('sizes below 1 are refused with a clear error', (t) => {
  t.throws(() => new PlatformSlots(0), { message: /cannot size platform slots: 0/ });
});

test('creates keep every platform slot busy while other passes wait for the apiserver', async (t) => {
  const env = new FakeEnv();
  env.createAvailable = true;
  const objects = new Map<string, ManagedObject>();
  for (let i = 0; i < 12; i++) {
    const o = env.put(thing(`o${i}`));
    objects.set(o.metadata.name, o);
  }
  const pending = { writes: 0 };
  const kube = await slowKube(objects, 40, pending);
  t.teardown(() => kube.close());
  let inFlight = 0;
  let most = 0;
  let fullWhileWriting = 0;
  const platform = async <T>(fn: () => Promise<T>): Promise<T> => {
    inFlight++;
    most = Math.max(most, inFlight);
    if (inFlight === 2 && pending.writes > 0) fullWhileWriting++;
    try {
      await sleep(20);
      return await fn();
    } finally {
      inFlight--;
    }
  };
  const kind = env.kindAround(platform);
  const { stop } = await startController(kind, kube, 2);
  const created = async (): Promise<boolean> => {
    for (let i = 0; i < 200; i++) {
      if ([...objects.values()].every((o) => o.status?.thingId !== undefined)) return true;
      await sleep(20);
    }
    return false;
  };
  t.true(await created(), 'every object got its id');
  await stop();
  t.is(env.things.size, 12, 'one platform resource per object');
  t.true(most <= 2, `at most --workers platform calls at a time (saw ${most})`);
  // With one worker per slot (the old loop), a worker writing to the apiserver leaves its
  // slot idle: two calls in flight while a write is pending never happens.
  t.true(fullWhileWriting > 0, 'both slots were busy while a pass waited for the apiserver');
});
