/**
 * Runtime e2e with real operator processes (test/e2e/runtime/fixtures/widget-operator.ts)
 * on the shared control plane: leader election fails over within 25 s after the leader is
 * killed, two processes never act on the external API at the same time, and SIGTERM drains
 * an in-flight reconcile, releases the lease (a standby takes over at once) and exits 0.
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
} from '../support/kube.js';
import { metricValue, startOperator, type OperatorProcess } from '../support/operator.js';
import { startWidgetApi, type WidgetApi } from './fixtures/widget-api.js';
import { WIDGETS, applyWidgetCrd, widgetYaml } from './harness.js';

const kubeconfig = process.env.KUBECONFIG ?? '';
let ns = '';
let api: WidgetApi;
const procs: OperatorProcess[] = [];

function start(): Promise<OperatorProcess> {
  return startOperator({
    kubeconfig,
    entry: 'test/e2e/runtime/fixtures/widget-operator.ts',
    args: [
      '--namespace',
      ns,
      '--leader-elect',
      '--leader-election-namespace',
      ns,
      '--leader-election-id',
      'widget-operator',
      '--log-level',
      'debug',
      '--workers',
      '2',
    ],
    env: { WIDGET_API_URL: api.url },
  }).then((p) => {
    procs.push(p);
    return p;
  });
}

async function isLeader(p: OperatorProcess): Promise<boolean> {
  return metricValue(await p.metrics(), 'cdn_operator_leader') === 1;
}

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyWidgetCrd();
  ns = await createNamespace('rt-leader');
  api = await startWidgetApi();
});

test.after.always(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  await api?.close();
  if (ns) await deleteNamespace(ns);
});

const readyWidget = (name: string) => async () => {
  const o = await getObject(WIDGETS, ns, name);
  return conditionOf(o, 'Ready')?.status === 'True' ? o : undefined;
};

test.serial(
  'killing the leader: the standby takes over within 25 s, never both at once',
  async (t) => {
    const a = await start();
    await waitFor(() => isLeader(a), 30_000, 'first process leads');
    const b = await start();
    t.false(await isLeader(b), 'second process is a standby');
    t.is(await b.readyz(), 200, 'a healthy standby is ready');
    await apply(widgetYaml(ns, 'fo', { color: 'red', size: 1 }));
    const obj = await waitFor(readyWidget('fo'), 20_000, 'Ready');
    const id = obj.status!.widgetId as string;
    t.true(
      api.calls.every((c) => c.caller === String(a.pid)),
      'only the leader called the API',
    );

    const killedAt = Date.now();
    await a.kill();
    await waitFor(() => isLeader(b), 30_000, 'standby leads', 200);
    const failoverMs = Date.now() - killedAt;
    t.log(`failover after SIGKILL of the leader: ${failoverMs} ms`);
    t.true(failoverMs < 25_000, `failover took ${failoverMs} ms`);

    await patchObject(WIDGETS, ns, 'fo', { spec: { color: 'blue' } });
    await waitFor(() => api.widgets.get(id)?.color === 'blue', 15_000, 'new leader reconciles');
    const fromA = api.calls.filter((c) => c.caller === String(a.pid));
    const fromB = api.calls.filter((c) => c.caller === String(b.pid));
    t.true(fromB.length > 0);
    t.true(
      Math.max(...fromA.map((c) => c.end)) <= Math.min(...fromB.map((c) => c.start)),
      'no overlap between the two processes',
    );
  },
);

test.serial('SIGTERM drains the in-flight reconcile, releases the lease and exits 0', async (t) => {
  const leader = procs[1]!;
  // The one process left leads (under load it may be renewing or re-acquiring the lease).
  await waitFor(() => isLeader(leader), 30_000, 'the remaining process leads', 200);
  const standby = await start();
  t.false(await isLeader(standby));
  await apply(widgetYaml(ns, 'slow-w', { color: 'red', size: 1 }));
  const obj = await waitFor(readyWidget('slow-w'), 20_000, 'Ready');
  const id = obj.status!.widgetId as string;
  api.delays.set('slow', 3000);
  await patchObject(WIDGETS, ns, 'slow-w', { spec: { color: 'green' } });
  // Wait until the slow update is in flight, then terminate.
  await waitFor(() => api.inFlight('update') > 0, 30_000, 'update in flight', 20).catch(
    (err: Error) => {
      const lease = (p: OperatorProcess): unknown[] =>
        p.logs().filter((l) => /lease|Reconcile failed|Updated/i.test(String(l.msg)));
      t.log(
        JSON.stringify({
          calls: api.calls.slice(-5),
          leader: lease(leader),
          standby: lease(standby),
        }),
      );
      throw err;
    },
  );
  const termAt = Date.now();
  const code = await leader.stop();
  t.is(code, 0, 'clean exit');
  t.is(api.widgets.get(id)?.color, 'green', 'the in-flight update finished');
  const update = api.calls.find(
    (c) => c.op === 'update' && c.id === id && c.caller === String(leader.pid),
  );
  t.truthy(update);
  t.true(update!.end > termAt, 'the update was still running when SIGTERM arrived');
  const msgs = leader.logs().map((l) => l.msg);
  t.true(
    msgs.includes('Released leader lease'),
    `the lease was released; lease logs: ${JSON.stringify(
      leader.logs().filter((l) => /lease/i.test(String(l.msg))),
    )}`,
  );
  t.truthy(leader.logs().find((l) => l.msg === 'Shutdown complete' && l.drained === true));
  await waitFor(() => isLeader(standby), 10_000, 'standby leads after release', 100);
  t.log(
    `in-flight update finished ${update!.end - termAt} ms after SIGTERM; standby led ${Date.now() - termAt} ms after SIGTERM`,
  );
});
