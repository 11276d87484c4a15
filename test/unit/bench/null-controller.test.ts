import test from 'ava';
import { NullController, needsPass } from '../../../bench/lib/null-controller.js';
import type { TrackedObject } from '../../../bench/lib/ready-tracker.js';
import type { KubeClient, KubeRequest } from '../../../src/runtime/kube-client.js';
import { FINALIZER } from '../../../src/runtime/reasons.js';

const PATH = '/apis/pullzones.cdn.operator.io/v1beta1/namespaces/nb/pullzoneconfigs';

function obj(name: string, generation: number, observed?: number, fin = false): TrackedObject {
  return {
    metadata: {
      name,
      generation,
      resourceVersion: '1',
      uid: `uid-${name}`,
      ...(fin ? { finalizers: [FINALIZER] } : {}),
    },
    ...(observed !== undefined ? { status: { observedGeneration: observed } } : {}),
  };
}

test('needsPass: an object whose status has not observed its generation or lacks the finalizer', (t) => {
  t.true(needsPass(obj('a', 1)));
  t.true(needsPass(obj('a', 2, 1, true)));
  t.true(needsPass(obj('a', 1, 1, false)));
  t.false(needsPass(obj('a', 3, 3, true)));
});

/** A KubeClient that lists `items`, keeps the watch open until aborted and records writes. */
function fakeKube(items: TrackedObject[]): { kube: KubeClient; writes: KubeRequest[] } {
  const writes: KubeRequest[] = [];
  const kube = {
    request: (req: KubeRequest): Promise<unknown> => {
      if (req.method === 'GET')
        return Promise.resolve({ metadata: { resourceVersion: '1' }, items });
      writes.push(req);
      const name = req.path.split('/').filter(Boolean).slice(-1)[0];
      const o = items.find((i) => i.metadata.name === name);
      return Promise.resolve(
        o ? { ...o, metadata: { ...o.metadata, finalizers: [FINALIZER] } } : {},
      );
    },
    watch: (req: KubeRequest): Promise<void> =>
      new Promise((resolve) => req.signal?.addEventListener('abort', () => resolve())),
  } as unknown as KubeClient;
  return { kube, writes };
}

async function settle(until: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !until(); i++) await new Promise((r) => setTimeout(r, 5));
}

test('the null controller makes the operator writes per object and nothing for a synced one', async (t) => {
  const { kube, writes } = fakeKube([
    obj('new', 1),
    obj('updated', 2, 1, true),
    obj('synced', 4, 4, true),
  ]);
  const c = new NullController(kube, {
    path: PATH,
    workers: 8,
    statusTemplate: {
      pullZoneId: 7,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Available' }],
    },
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
  });
  c.start();
  await settle(() => writes.length >= 5);
  await c.stop();
  const seen = writes
    .map((w) => `${w.method} ${w.path.replace(/^.*\/namespaces\/nb\//, '')}`)
    .sort();
  t.deepEqual(seen, [
    'PATCH pullzoneconfigs/new',
    'PATCH pullzoneconfigs/new/status',
    'PATCH pullzoneconfigs/updated/status',
    'POST events',
    'POST events',
  ]);
  const status = writes.find((w) => w.path.endsWith('updated/status'))?.body as {
    status: {
      observedGeneration: number;
      pullZoneId: number;
      conditions: Array<{ observedGeneration: number }>;
    };
  };
  t.is(status.status.observedGeneration, 2);
  t.is(status.status.pullZoneId, 7);
  t.is(status.status.conditions[0]?.observedGeneration, 2);
  t.is(c.passes, 2);
});
