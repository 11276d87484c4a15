/**
 * One tenant's flood of changes must not starve another tenant's creates (issue 28, item 2).
 * Changes to existing objects keep their priority, but work waits in fair shares between
 * namespaces at every place it waits (queue lanes, platform slots), so every namespace makes
 * progress. Before: with tenant A changing its objects continuously (3,768 passes), tenant
 * B's creates stopped at 177 of 200 and stayed there for the 20 s probe, because a freed
 * platform slot always went to a high-lane waiter first.
 *
 * A real controller (informer, work queue, platform slots, reconciler) on a fake apiserver.
 */
import test from 'ava';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';
import { slowKube, startController } from './slow-kube.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function inNamespace(obj: ManagedObject, namespace: string): ManagedObject {
  return { ...obj, metadata: { ...obj.metadata, namespace } };
}

test("tenant B's creates all complete while tenant A changes its objects without pause", async (t) => {
  const env = new FakeEnv();
  env.createAvailable = true;
  const objects = new Map<string, ManagedObject>();
  const keysA: string[] = [];
  for (let i = 0; i < 40; i++) {
    // Tenant A's objects exist on the platform and are in sync: every change is a high-lane pass.
    const id = `a${i}`;
    env.things.set(id, { id, name: `team-a/a-${i}`, color: 'red' });
    const o = env.put(
      inNamespace(
        {
          ...thing(`a-${i}`),
          status: {
            thingId: id,
            conditions: [
              {
                type: 'Synced',
                status: 'True',
                reason: 'ReconcileSuccess',
                message: '',
                lastTransitionTime: '2025-01-01T00:00:00Z',
                observedGeneration: 1,
              },
            ],
          },
        },
        'team-a',
      ),
    );
    objects.set(o.metadata.name, o);
    keysA.push(`team-a/a-${i}`);
  }
  const CREATES = 40;
  for (let i = 0; i < CREATES; i++) {
    const o = env.put(inNamespace(thing(`b-${i}`), 'team-b'));
    objects.set(o.metadata.name, o);
  }
  const pending = { writes: 0 };
  const kube = await slowKube(objects, 5, pending);
  t.teardown(() => kube.close());
  const platform = async <T>(fn: () => Promise<T>): Promise<T> => {
    await sleep(5);
    return fn();
  };
  const kind = env.kindAround(platform);
  const { controller, stop } = await startController(kind, kube, 2);
  // Tenant A keeps changing every one of its objects (the watch would enqueue each change).
  const flooding = { on: true };
  let floods = 0;
  const flood = (async (): Promise<void> => {
    while (flooding.on) {
      for (const key of keysA) controller.enqueue(key, 'high');
      floods++;
      await sleep(1);
    }
  })();
  const createdB = (): number =>
    [...objects.values()].filter(
      (o) => o.metadata.namespace === 'team-b' && o.status?.thingId !== undefined,
    ).length;
  const deadline = Date.now() + 15_000;
  while (createdB() < CREATES && Date.now() < deadline) await sleep(50);
  const done = createdB();
  flooding.on = false;
  await flood;
  await stop();
  t.true(floods > 100, `tenant A kept flooding (${floods} rounds)`);
  t.is(done, CREATES, `tenant B's creates done while A flooded: ${done} of ${CREATES}`);
  const observesA = env.calls.filter((c) => c === 'observe').length;
  t.true(observesA > CREATES, `tenant A's changes kept being served too (${observesA} observes)`);
});
