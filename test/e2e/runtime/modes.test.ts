/**
 * Runtime e2e on the shared control plane: paused, dry-run, terminal and retryable errors,
 * and the duplicate-create guard when the create's answer is lost.
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  getObject,
  patchObject,
  waitFor,
  type KubeJson,
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
  ns = await createNamespace('rt-modes');
  api = await startWidgetApi();
  h = await startHarness({ kubeconfig, namespace: ns, api });
});

test.after.always(async () => {
  await h?.stop();
  await api?.close();
  if (ns) await deleteNamespace(ns);
});

const condition =
  (name: string, type: string, pred: (c: NonNullable<ReturnType<typeof conditionOf>>) => boolean) =>
  async (): Promise<KubeJson | undefined> => {
    const o = await getObject(WIDGETS, ns, name);
    const c = conditionOf(o, type);
    return c && pred(c) ? o : undefined;
  };

test('paused objects are not reconciled until unpaused', async (t) => {
  await apply(widgetYaml(ns, 'paused', { color: 'red', size: 1 }));
  const obj = await waitFor(
    condition('paused', 'Ready', (c) => c.status === 'True'),
    20_000,
    'Ready',
  );
  const id = obj.status!.widgetId as string;
  await patchObject(WIDGETS, ns, 'paused', {
    metadata: { annotations: { 'cdn.operator.io/paused': 'true' } },
    spec: { color: 'blue' },
  });
  await waitFor(
    condition('paused', 'Synced', (c) => c.reason === 'ReconcilePaused'),
    10_000,
    'ReconcilePaused',
  );
  await new Promise((r) => setTimeout(r, 1000));
  t.is(api.widgets.get(id)?.color, 'red', 'no update while paused');
  await patchObject(WIDGETS, ns, 'paused', {
    metadata: { annotations: { 'cdn.operator.io/paused': null } },
  });
  await waitFor(() => api.widgets.get(id)?.color === 'blue', 10_000, 'update after unpause');
  t.pass();
});

test('dry-run plans a create and an update without calling the API', async (t) => {
  await apply(
    widgetYaml(ns, 'dry', { color: 'red', size: 1 }, { 'cdn.operator.io/dry-run': 'true' }),
  );
  const planned = await waitFor(
    condition('dry', 'Synced', (c) => c.reason === 'DryRun'),
    10_000,
    'DryRun',
  );
  t.deepEqual(planned.status?.plannedChanges, [
    { field: '(resource)', live: '<absent>', desired: '<created>' },
  ]);
  t.is(conditionOf(planned, 'Ready')?.reason, 'NotFound');
  t.is(api.count('create', `${ns}/dry`), 0);
  t.falsy(planned.metadata.finalizers?.length, 'no finalizer in dry-run');
  await patchObject(WIDGETS, ns, 'dry', {
    metadata: { annotations: { 'cdn.operator.io/dry-run': null } },
  });
  const created = await waitFor(
    condition('dry', 'Ready', (c) => c.status === 'True'),
    20_000,
    'created',
  );
  const id = created.status!.widgetId as string;
  t.is(created.status?.plannedChanges, undefined);
  await patchObject(WIDGETS, ns, 'dry', {
    metadata: { annotations: { 'cdn.operator.io/dry-run': 'true' } },
    spec: { size: 5 },
  });
  const plan = await waitFor(
    async () => {
      const o = await getObject(WIDGETS, ns, 'dry');
      return (o?.status?.plannedChanges as unknown[] | undefined)?.length ? o : undefined;
    },
    10_000,
    'plan',
  );
  t.deepEqual(plan.status?.plannedChanges, [{ field: 'size', live: '1', desired: '5' }]);
  t.is(conditionOf(plan, 'Synced')?.status, 'False');
  t.is(api.widgets.get(id)?.size, 1, 'dry-run never updates');
  t.is(api.count('update', `${ns}/dry`), 0);
});

test('an invalid spec is terminal: Synced=False, no retries until the spec changes', async (t) => {
  await apply(widgetYaml(ns, 'invalid', { color: 'red', size: 1, invalid: true }));
  const obj = await waitFor(
    condition('invalid', 'Synced', (c) => c.reason === 'InvalidSpec'),
    10_000,
    'InvalidSpec',
  );
  t.is(conditionOf(obj, 'Synced')?.status, 'False');
  const passes = await h.metric('cdn_operator_reconcile_errors_total', { class: 'terminal' });
  await new Promise((r) => setTimeout(r, 3000));
  t.is(
    await h.metric('cdn_operator_reconcile_errors_total', { class: 'terminal' }),
    passes,
    'no requeue of a terminal error',
  );
  await patchObject(WIDGETS, ns, 'invalid', { spec: { invalid: false } });
  await waitFor(
    condition('invalid', 'Ready', (c) => c.status === 'True'),
    20_000,
    'Ready after fix',
  );
  const fixed = await getObject(WIDGETS, ns, 'invalid');
  t.is(conditionOf(fixed, 'Synced')?.reason, 'ReconcileSuccess');
});

test('retryable API errors are retried with backoff and then succeed', async (t) => {
  api.failNext('create', 503, 2, `${ns}/flaky`);
  await apply(widgetYaml(ns, 'flaky', { color: 'red', size: 1 }));
  const obj = await waitFor(
    condition('flaky', 'Ready', (c) => c.status === 'True'),
    30_000,
    'Ready after retries',
  );
  t.truthy(obj.status?.widgetId);
  t.is(
    api.calls.filter((c) => c.op === 'create' && c.name === `${ns}/flaky` && c.status === 503)
      .length,
    2,
  );
});

test('duplicate-create guard: a create whose answer is lost is adopted by name, never repeated', async (t) => {
  api.loseNextCreateAnswer(`${ns}/lost`);
  await apply(widgetYaml(ns, 'lost', { color: 'red', size: 1 }));
  const obj = await waitFor(
    condition('lost', 'Ready', (c) => c.status === 'True'),
    30_000,
    'Ready after adoption',
  );
  const sameName = [...api.widgets.values()].filter((w) => w.name === `${ns}/lost`);
  t.is(sameName.length, 1, 'exactly one external widget');
  t.is(obj.status?.widgetId, sameName[0]!.id);
  t.is(api.count('create', `${ns}/lost`), 1, 'create was called once');
  t.true(api.count('find', `${ns}/lost`) >= 1, 'looked up by name');
});

test('unauthorized is reported with its own reason', async (t) => {
  api.failNext('create', 401, 1, `${ns}/unauth`);
  await apply(widgetYaml(ns, 'unauth', { color: 'red', size: 1 }));
  const obj = await waitFor(
    condition('unauth', 'Synced', (c) => c.reason === 'Unauthorized'),
    30_000,
    'Unauthorized',
  );
  t.is(conditionOf(obj, 'Synced')?.status, 'False');
  t.false(
    [...api.widgets.values()].some((w) => w.name === `${ns}/unauth`),
    'the rejected create stored nothing',
  );
  await new Promise((r) => setTimeout(r, 2000));
  t.is(api.count('create', `${ns}/unauth`), 1, 'no immediate retry: rechecked periodically');
});
