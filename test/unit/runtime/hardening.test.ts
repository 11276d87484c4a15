/**
 * Issue 14 items 5–8: per-object state cleaned on delete, conflicts through the per-item
 * backoff, only validation 4xx terminal, a cache that never goes backwards.
 */
import test from 'ava';
import { pino } from 'pino';
import { classifyKubeError } from '../../../src/runtime/classify.js';
import type { KubeObject } from '../../../src/runtime/cache.js';
import { Informer } from '../../../src/runtime/informer.js';
import { KubeApiError } from '../../../src/runtime/kube-client.js';
import type { ManagedReconciler } from '../../../src/runtime/reconciler.js';
import type { StatusPatchFn, StatusWriter } from '../../../src/runtime/status-writer.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { SECRETS } from '../../../src/runtime/resource.js';
import { FakeEnv, thing } from './fake-env.js';
import { unconnectedController } from './unconnected-controller.js';
import { eventLine, startFakeKube } from './kube-fake-server.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const statusOf = (r: ManagedReconciler): StatusWriter =>
  (r as unknown as { deps: { status: StatusWriter } }).deps.status;

for (const [what, annotations] of [
  ['dry-run', { 'cdn.operator.io/dry-run': 'true' }],
  ['paused', { 'cdn.operator.io/paused': 'true' }],
] as const) {
  test(`a deleted ${what} object leaves no status-writer memo behind`, async (t) => {
    const env = new FakeEnv();
    const rec = env.reconciler();
    // The writer keeps an entry only when the server stores something other than what was
    // asked for: this server adds a defaulted field, so every write leaves one.
    const w = statusOf(rec) as unknown as { patchStatus: StatusPatchFn };
    const patchStatus = w.patchStatus;
    w.patchStatus = async (o, p) => {
      const stored = await patchStatus(o, p);
      return { ...stored, status: { ...stored.status, serverDefault: 'x' } };
    };
    for (let i = 0; i < 50; i++) {
      env.put(thing(`o${i}`, { color: 'red' }, { ...annotations }));
      await rec.reconcile(`ns/o${i}`);
    }
    t.is(statusOf(rec).size, 50);
    for (let i = 0; i < 50; i++) {
      env.objects.delete(`ns/o${i}`);
      await rec.reconcile(`ns/o${i}`);
    }
    t.is(statusOf(rec).size, 0);
  });
}

test('a conflict (409) goes through the per-item backoff, not a fixed 0.5 s requeue', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const stale = env.get('a');
  env.put({ ...stale, spec: { color: 'blue' } });
  const r = await env.reconciler({ getCached: () => structuredClone(stale) }).reconcile('ns/a');
  t.is(r.outcome, 'conflict');
  t.is(r.requeueAfterMs, undefined);
  t.is(r.retryMinDelayMs, 0);
});

test('a 404 on the operator own write of an object the API server no longer has: gone, not retried', async (t) => {
  // The CRD-without-/status case (the object exists) stays a conflict: cache-deleted.test.ts.
  const env = new FakeEnv();
  env.put(thing('a'));
  const ghost = { ...env.get('a'), metadata: { ...env.get('a').metadata, name: 'ghost' } };
  const r = await env.reconciler({ getCached: () => structuredClone(ghost) }).reconcile('ns/ghost');
  t.is(r.outcome, 'gone');
  t.is(r.retryMinDelayMs, undefined);
  t.is(r.requeueAfterMs, undefined);
});

const kubeCases: Array<[number, ReturnType<typeof classifyKubeError>['class']]> = [
  [400, 'terminal'],
  [422, 'terminal'],
  [408, 'retryable'],
  [425, 'retryable'],
  [413, 'retryable'],
  [429, 'retryable'],
  [401, 'unauthorized'],
  [409, 'conflict'],
];
for (const [status, cls] of kubeCases) {
  test(`Kubernetes ${status} is ${cls}`, (t) => {
    t.is(classifyKubeError(new KubeApiError('x', status)).class, cls);
  });
}

test('a late watch event never replaces a newer object the runtime wrote', async (t) => {
  const base = { metadata: { name: 's', namespace: 'ns', uid: 'u1' } };
  const kube = await startFakeKube({
    list: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          metadata: { resourceVersion: '5' },
          items: [{ ...base, metadata: { ...base.metadata, resourceVersion: '5' } }],
        }),
      );
    },
    watch: (_req, res, n) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (n === 0)
        setTimeout(
          () =>
            res.write(
              eventLine('MODIFIED', {
                ...base,
                metadata: { ...base.metadata, resourceVersion: '7' },
              }),
            ),
          300,
        );
    },
  });
  const updates: string[] = [];
  const informer = new Informer({
    client: kube.client,
    type: SECRETS,
    namespace: 'ns',
    log,
    handlers: { onUpdate: (_o, obj) => updates.push(obj.metadata.resourceVersion!) },
  });
  try {
    informer.start();
    await informer.waitForSync();
    informer.store.setIfNewer({ ...base, metadata: { ...base.metadata, resourceVersion: '9' } });
    await sleep(700);
    t.is(informer.store.get('ns/s')?.metadata.resourceVersion, '9');
    t.deepEqual(updates, []);
  } finally {
    await informer.stop();
    await kube.close();
  }
});

test('a write answered with a newer generation (spec changed during the pass) enqueues the key', async (t) => {
  const env = new FakeEnv();
  const kube = await startFakeKube({ watch: (_q, res) => res.end() });
  t.teardown(() => kube.close());
  const controller = unconnectedController(env, kube.client);
  const cached = env.put(thing('a'));
  controller.informerList()[0]!.store.set(cached as ManagedObject & KubeObject);
  t.false(controller.queue.isQueued('ns/a'));
  // Our own status write: same generation → no pass.
  controller.storeWritten({
    ...cached,
    status: { thingId: 't1' },
    metadata: {
      ...cached.metadata,
      resourceVersion: String(Number(cached.metadata.resourceVersion) + 1),
    },
  });
  t.false(controller.queue.isQueued('ns/a'));
  // A write whose answer carries generation 2: the user changed the spec meanwhile.
  controller.storeWritten({
    ...cached,
    spec: { color: 'blue' },
    metadata: {
      ...cached.metadata,
      generation: 2,
      resourceVersion: String(Number(cached.metadata.resourceVersion) + 3),
    },
  });
  t.true(controller.queue.isQueued('ns/a'));
  controller.queue.shutdown();
});
