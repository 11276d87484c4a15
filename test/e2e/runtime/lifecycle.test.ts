/**
 * Runtime e2e on the shared control plane: create → Ready, a spec change is applied within
 * one second, periodic resyncs and forced passes make no writes when nothing changed,
 * events are emitted once, delete removes the external resource and then the finalizer.
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  deleteObject,
  getObject,
  kubectl,
  patchObject,
  waitFor,
} from '../support/kube.js';
import { startWidgetApi, type WidgetApi } from './fixtures/widget-api.js';
import { WIDGETS, applyWidgetCrd, startHarness, widgetYaml, type Harness } from './harness.js';

const kubeconfig = process.env.KUBECONFIG ?? '';
let ns = '';
let api: WidgetApi;
let h: Harness;

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyWidgetCrd();
  ns = await createNamespace('rt-life');
  api = await startWidgetApi();
  h = await startHarness({ kubeconfig, namespace: ns, api });
});

test.after.always(async () => {
  await h?.stop();
  await api?.close();
  if (ns) await deleteNamespace(ns);
});

const ready = (name: string) => async () => {
  const o = await getObject(WIDGETS, ns, name);
  return conditionOf(o, 'Ready')?.status === 'True' && o ? o : undefined;
};

test.serial('create records the id with one create-pending write and reaches Ready', async (t) => {
  await apply(widgetYaml(ns, 'alpha', { color: 'red', size: 1 }));
  const obj = await waitFor(ready('alpha'), 20_000, 'alpha Ready');
  const id = obj.status?.widgetId as string;
  t.truthy(id, 'the external id is recorded in status');
  t.deepEqual(api.widgets.get(id), { id, name: `${ns}/alpha`, color: 'red', size: 1 });
  t.true(obj.metadata.finalizers?.includes('cdn.operator.io/finalizer'));
  t.is(
    obj.metadata.annotations?.['cdn.operator.io/external-create-pending'],
    undefined,
    'no tenant-writable marker',
  );
  t.like(obj.status?.ownership, { adopted: false, deletionPolicy: 'Delete' });
  t.is(
    (obj.status?.ownership as { createPendingTime?: string }).createPendingTime,
    undefined,
    'the status marker is cleared once the id is recorded',
  );
  t.is(api.count('create', `${ns}/alpha`), 1);
  t.is(
    await h.metric('cdn_operator_object_writes_total', { operation: 'create-pending' }),
    1,
    'one metadata write per create',
  );
  t.is(conditionOf(obj, 'Synced')?.reason, 'ReconcileSuccess');
  t.is(conditionOf(obj, 'Ready')?.observedGeneration, obj.metadata.generation);
  t.is(obj.status?.observedGeneration, obj.metadata.generation);
});

test.serial('a spec change is applied to the external resource within one second', async (t) => {
  const id = (await getObject(WIDGETS, ns, 'alpha'))!.status!.widgetId as string;
  const samples: number[] = [];
  for (const color of ['green', 'blue', 'yellow']) {
    // Patch through the API directly: the clock starts when the apiserver accepted the change
    // (a kubectl process start alone takes ~0.5 s on a busy 2-core machine).
    await h.manager.kube.request({
      method: 'PATCH',
      path: `/apis/test.cdn.operator.io/v1alpha1/namespaces/${ns}/widgets/alpha`,
      contentType: 'application/merge-patch+json',
      body: { spec: { color } },
    });
    const started = Date.now();
    await waitFor(() => api.widgets.get(id)?.color === color, 10_000, `color ${color}`, 5);
    samples.push(Date.now() - started);
  }
  t.log(`spec change accepted → external update applied (ms): ${samples.join(', ')}`);
  t.true(Math.max(...samples) < 1000, `latencies ${samples.join(', ')} ms`);
  const obj = await waitFor(
    async () => {
      const o = await getObject(WIDGETS, ns, 'alpha');
      return conditionOf(o, 'Synced')?.observedGeneration === o?.metadata.generation
        ? o
        : undefined;
    },
    5000,
    'observedGeneration',
  );
  t.is(obj.status?.plannedChanges, undefined, 'no pending drift after the update');
});

test.serial(
  'resyncs and forced passes make no status write and no API write when nothing changed',
  async (t) => {
    await patchObject(WIDGETS, ns, 'alpha', {
      metadata: { annotations: { 'cdn.operator.io/poll-interval': '5s' } },
    });
    // Let the pass triggered by the annotation change settle.
    await new Promise((r) => setTimeout(r, 1500));
    const before = {
      status: await h.metric('cdn_operator_status_writes_total'),
      object: await h.metric('cdn_operator_object_writes_total'),
      observe: await h.metric('cdn_operator_external_calls_total', { operation: 'observe' }),
      gets: api.count('get', `${ns}/alpha`),
      writes: api.calls.filter((c) => c.op !== 'get' && c.op !== 'find').length,
      rv: (await getObject(WIDGETS, ns, 'alpha'))!.metadata.resourceVersion,
    };
    await patchObject(WIDGETS, ns, 'alpha', {
      metadata: {
        annotations: { 'cdn.operator.io/reconcile-requested-at': new Date().toISOString() },
      },
    });
    await new Promise((r) => setTimeout(r, 11_500));
    const observes =
      (await h.metric('cdn_operator_external_calls_total', { operation: 'observe' })) -
      before.observe;
    t.log(`passes observed in 11.5 s with poll-interval 5s + one forced pass: ${observes}`);
    t.true(observes >= 3, `expected >= 3 observe passes, got ${observes}`);
    t.is(api.count('get', `${ns}/alpha`) - before.gets, observes, 'each pass is one read');
    t.is(await h.metric('cdn_operator_status_writes_total'), before.status, 'no status write');
    t.is(await h.metric('cdn_operator_object_writes_total'), before.object, 'no metadata write');
    t.is(
      api.calls.filter((c) => c.op !== 'get' && c.op !== 'find').length,
      before.writes,
      'no API write',
    );
    const after = await getObject(WIDGETS, ns, 'alpha');
    t.not(after!.metadata.resourceVersion, undefined);
  },
);

test.serial('events are emitted once per distinct reason and message', async (t) => {
  const out = await kubectl(['get', 'events.events.k8s.io', '-n', ns, '-o', 'json']);
  const events = (
    JSON.parse(out) as {
      items: Array<{ reason: string; regarding: { name: string }; reportingController: string }>;
    }
  ).items.filter((e) => e.regarding.name === 'alpha');
  const reasons = events.map((e) => e.reason);
  t.deepEqual(
    h.lines.filter((l) => l.msg === 'Cannot emit event'),
    [],
  );
  t.is(reasons.filter((r) => r === 'CreatedExternalResource').length, 1);
  t.is(reasons.filter((r) => r === 'UpdatedExternalResource').length, 3, 'three distinct updates');
  t.true(events.every((e) => e.reportingController === 'cdn.operator.io/cdn-operator'));
});

test.serial('delete removes the external resource, then the finalizer', async (t) => {
  const id = (await getObject(WIDGETS, ns, 'alpha'))!.status!.widgetId as string;
  await deleteObject(WIDGETS, ns, 'alpha');
  await waitFor(
    async () => (await getObject(WIDGETS, ns, 'alpha')) === undefined,
    20_000,
    'alpha gone',
  );
  t.false(api.widgets.has(id));
  t.is(api.count('delete'), 1);
});

test.serial('deletionPolicy Orphan leaves the external resource in place', async (t) => {
  await apply(widgetYaml(ns, 'orphan', { color: 'red', size: 2, deletionPolicy: 'Orphan' }));
  const obj = await waitFor(ready('orphan'), 20_000, 'orphan Ready');
  const id = obj.status?.widgetId as string;
  await deleteObject(WIDGETS, ns, 'orphan');
  await waitFor(
    async () => (await getObject(WIDGETS, ns, 'orphan')) === undefined,
    20_000,
    'orphan gone',
  );
  t.true(api.widgets.has(id));
  t.is(api.count('delete'), 1, 'no delete call for the orphan');
});
