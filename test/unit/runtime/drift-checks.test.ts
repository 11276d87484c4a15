/**
 * A sweep's drift checks (src/runtime/drift-checks.ts): queued ahead of the polls, still
 * periodic (they may read the swept records); any other reason to queue the key makes the pass
 * a change again; the marks go with the object.
 */
import test from 'ava';
import type { KubeObject } from '../../../src/runtime/cache.js';
import { Controller } from '../../../src/runtime/controller.js';
import { DriftChecks } from '../../../src/runtime/drift-checks.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import type { Priority } from '../../../src/runtime/workqueue.js';
import { FakeEnv, thing } from './fake-env.js';
import { unconnectedController } from './unconnected-controller.js';
import { startFakeKube } from './kube-fake-server.js';

const PERIODIC: Array<[string, boolean, boolean, Priority | undefined, boolean]> = [
  // [why, marked, cleared after, lane taken from, periodic]
  ['a poll from the low lane', false, false, 'low', true],
  ['a sweep’s drift check from the high lane', true, false, 'high', true],
  ['a change from the high lane', false, false, 'high', false],
  ['a drift check queued again by a change', true, true, 'high', false],
  ['a marked key taken from the normal lane (a create)', true, false, 'normal', false],
];
for (const [why, marked, cleared, lane, periodic] of PERIODIC)
  test(`periodic pass: ${why}`, (t) => {
    const d = new DriftChecks();
    if (marked) d.mark('ns/a');
    if (cleared) d.clear('ns/a');
    t.is(d.takePeriodic('ns/a', lane), periodic);
    t.is(d.size(), 0, 'the mark is consumed by the pass');
  });

async function controllerWith(
  names: string[],
): Promise<{ controller: Controller; close: () => Promise<void> }> {
  const env = new FakeEnv();
  const kube = await startFakeKube({ watch: (_q, res) => res.end() });
  const controller = unconnectedController(env, kube.client);
  const store = controller.informerList()[0]!.store;
  for (const n of names) store.set(env.put(thing(n)) as ManagedObject & KubeObject);
  return { controller, close: () => kube.close() };
}

test('a sweep’s drift check is taken ahead of a wave of waiting polls, and its pass is periodic', async (t) => {
  const { controller, close } = await controllerWith(['a', 'b', 'c', 'd']);
  t.teardown(close);
  for (const n of ['b', 'c', 'd']) controller.queue.add(`ns/${n}`, 'low');
  controller.enqueueDriftCheck('ns/a');
  const first = (await controller.queue.get()) as string;
  t.is(first, 'ns/a', 'not behind the polls');
  t.is(controller.queue.takenFrom(first), 'high');
  t.true(controller.driftChecks.takePeriodic(first, controller.queue.takenFrom(first)));
  controller.queue.shutdown();
});

test('a drift check queued again for a change reads by id; a deleted object leaves no mark', async (t) => {
  const { controller, close } = await controllerWith(['a', 'b']);
  t.teardown(close);
  controller.enqueueDriftCheck('ns/a');
  controller.enqueue('ns/a'); // a reference trigger, a watch event: a change
  t.false(controller.driftChecks.takePeriodic('ns/a', 'high'));
  controller.enqueueDriftCheck('ns/b');
  t.is(controller.driftChecks.size(), 1);
  const gone = controller.get('ns/b')!;
  // The informer's delete event.
  (controller as unknown as { changed(o: ManagedObject, e: string, p: undefined): void }).changed(
    gone,
    'delete',
    undefined,
  );
  t.is(controller.driftChecks.size(), 0, 'cleaned on delete');
  controller.enqueueDriftCheck('ns/zzz');
  t.is(controller.driftChecks.size(), 0, 'an object not cached is not marked');
  controller.queue.shutdown();
});
