/**
 * The dispatcher starts passes in event-loop turns of at most DISPATCH_SLICE_MS (issue 32,
 * the first window of a mass create): a pass runs synchronously up to its first I/O, and
 * before the fix a burst of ready keys started every pass (32 here) in one run of microtasks,
 * so timers, watch data and /metrics scrapes waited for all of them.
 */
import test from 'ava';
import { DISPATCH_SLICE_MS } from '../../../src/runtime/controller.js';
import { TurnSlicer } from '../../../src/runtime/turn-slicer.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';
import { slowKube, startController } from './slow-kube.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Burns `ms` of CPU synchronously, like a pass's work before its first I/O. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

test('a burst of ready keys gives the event loop a turn every slice, not after every pass', async (t) => {
  const env = new FakeEnv();
  env.createAvailable = true;
  const objects = new Map<string, ManagedObject>();
  for (let i = 0; i < 64; i++) {
    const o = env.put(thing(`o${i}`));
    objects.set(o.metadata.name, o);
  }
  const kube = await slowKube(objects, 5, { writes: 0 });
  t.teardown(() => kube.close());
  const base = env.kindAround((call) => call());
  let connects = 0;
  const kind = {
    ...base,
    connect: (...args: Parameters<typeof base.connect>): ReturnType<typeof base.connect> => {
      connects++;
      busy(3);
      return base.connect(...args);
    },
  };
  let beforeFirstTurn = -1;
  let beforeTimer = -1;
  const { stop } = await startController(kind, kube, 8, () => {
    setImmediate(() => (beforeFirstTurn = connects));
    setTimeout(() => (beforeTimer = connects), 0);
  });
  for (let i = 0; i < 100 && connects < 64; i++) await sleep(20);
  await stop();
  t.is(connects >= 64, true, `every object got a pass (saw ${connects})`);
  const most = Math.ceil(DISPATCH_SLICE_MS / 3) + 1;
  t.true(
    beforeFirstTurn >= 1 && beforeFirstTurn <= most,
    `passes started before the event loop's next turn: ${beforeFirstTurn} (at most ${most}; 32 without slices)`,
  );
  // Counted in passes, not milliseconds, so a loaded machine cannot fail it: a timer due at
  // once fires within the next slices, not after the whole burst.
  t.true(
    beforeTimer >= 1 && beforeTimer <= 3 * most,
    `passes started before a timer due at once fired: ${beforeTimer} (at most ${3 * most})`,
  );
});

test('the slicer yields only once a slice is used up, then starts a new one', async (t) => {
  let clock = 0;
  const slicer = new TurnSlicer(5, () => clock);
  const turns: string[] = [];
  const yielded = async (): Promise<boolean> => {
    let turn = false;
    setImmediate(() => (turn = true));
    await slicer.maybeYield();
    turns.push(turn ? 'yield' : 'run');
    return turn;
  };
  t.false(await yielded(), 'fresh slice: no yield');
  clock = 4.9;
  t.false(await yielded(), 'still inside the slice');
  clock = 5;
  t.true(await yielded(), 'slice used up: one turn');
  clock = 9;
  t.false(await yielded(), 'a new slice started at the yield');
  clock = 10;
  t.true(await yielded());
  t.deepEqual(turns, ['run', 'run', 'yield', 'run', 'yield']);
});
