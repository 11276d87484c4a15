/**
 * Runtime e2e on a private control plane (this file stops the apiserver): after an apiserver
 * outage the informer reconnects and the next spec change is still reconciled; a watch
 * forced to resume from a compacted resourceVersion gets a real 410 Gone from the apiserver
 * and the informer relists exactly once.
 */
import test from 'ava';
import { startControlPlane, type ControlPlane } from '../../cluster/control-plane.js';
import {
  apply,
  conditionOf,
  createNamespace,
  getObject,
  patchObject,
  waitFor,
} from '../support/kube.js';
import { startWidgetApi, type WidgetApi } from './fixtures/widget-api.js';
import { WIDGETS, applyWidgetCrd, startHarness, widgetYaml, type Harness } from './harness.js';

let cp: ControlPlane;
let api: WidgetApi;
let h: Harness;
let ns = '';
let kube: { kubeconfig: string };

test.before(async () => {
  // Compact etcd every second and serve watches from etcd (no watch cache), so an old
  // resourceVersion really expires and the apiserver answers 410 Gone.
  cp = await startControlPlane({
    apiserverArgs: ['--etcd-compaction-interval=1s', '--watch-cache=false'],
  });
  kube = { kubeconfig: cp.kubeconfigPath };
  await applyWidgetCrd(cp.kubeconfigPath);
  ns = await createNamespace('rt-outage', kube);
  api = await startWidgetApi();
  h = await startHarness({ kubeconfig: cp.kubeconfigPath, namespace: ns, api });
  await apply(widgetYaml(ns, 'w', { color: 'red', size: 1 }), kube);
  await waitFor(
    async () => conditionOf(await getObject(WIDGETS, ns, 'w', kube), 'Ready')?.status === 'True',
    30_000,
    'Ready',
  );
});

test.after.always(async () => {
  await h?.stop();
  await api?.close();
  await cp?.stop();
});

async function idOf(): Promise<string> {
  return (await getObject(WIDGETS, ns, 'w', kube))!.status!.widgetId as string;
}

test.serial('after an apiserver outage the next spec change is still reconciled', async (t) => {
  const id = await idOf();
  await cp.stopApiserver();
  await new Promise((r) => setTimeout(r, 5000));
  await cp.startApiserver();
  const restarted = Date.now();
  await patchObject(WIDGETS, ns, 'w', { spec: { color: 'after-outage' } }, 'merge', kube);
  await waitFor(
    () => api.widgets.get(id)?.color === 'after-outage',
    60_000,
    'update after outage',
    20,
  );
  t.log(`apiserver back → change applied in ${Date.now() - restarted} ms (incl. kubectl)`);
  t.true((await h.metric('cdn_operator_informer_watch_restarts_total', { reason: 'error' })) >= 1);
  t.true(
    await waitFor(
      async () => (await getObject(WIDGETS, ns, 'w', kube))?.status?.observedGeneration === 2,
      10_000,
      'status',
    ),
  );
});

test.serial(
  'a watch resumed from a compacted resourceVersion gets 410 and relists once',
  async (t) => {
    const id = await idOf();
    const informer = [...h.manager.controllers.values()][0]!.informerList()[0]!;
    const staleRv = informer.resourceVersion!;
    // Move etcd on and let compaction pass the stale revision.
    for (let i = 0; i < 5; i++)
      await patchObject(
        WIDGETS,
        ns,
        'w',
        { metadata: { labels: { bump: String(i) } } },
        'merge',
        kube,
      );
    await new Promise((r) => setTimeout(r, 3000));
    // The outage test may already have produced a 410 (its resume point was compacted).
    const relistsBefore = await h.metric('cdn_operator_informer_relists_total', { reason: 'gone' });
    const goneBefore = await h.metric('cdn_operator_informer_watch_restarts_total', {
      reason: 'gone',
    });
    informer.restartWatch(staleRv);
    await waitFor(
      async () =>
        (await h.metric('cdn_operator_informer_relists_total', { reason: 'gone' })) > relistsBefore,
      30_000,
      'relist',
    );
    await new Promise((r) => setTimeout(r, 3000));
    t.is(
      await h.metric('cdn_operator_informer_relists_total', { reason: 'gone' }),
      relistsBefore + 1,
      'exactly one relist',
    );
    t.is(
      await h.metric('cdn_operator_informer_watch_restarts_total', { reason: 'gone' }),
      goneBefore + 1,
      'one 410',
    );
    await patchObject(WIDGETS, ns, 'w', { spec: { color: 'after-410' } }, 'merge', kube);
    await waitFor(
      () => api.widgets.get(id)?.color === 'after-410',
      10_000,
      'update after relist',
      20,
    );
    t.pass();
  },
);
