/**
 * The kustomize base is equivalent to the Helm chart's defaults (release `cdn-operator` in
 * namespace `cdn-operator`): the same objects with the same specs and RBAC, differing only in
 * the labels that name the tool that manages them. Rendered offline with `kubectl kustomize`.
 */
import test from 'ava';
import { join } from 'node:path';
import {
  KUSTOMIZE,
  ROOT,
  objectsOf,
  parseObjects,
  renderChart,
  run,
  type KubeObject,
} from './tools.js';

const TOOL_LABELS = ['helm.sh/chart', 'app.kubernetes.io/managed-by'];

/** Drops the tool-specific labels (top level and pod template) so the rest can be compared. */
function normalize(o: KubeObject): KubeObject {
  const copy = structuredClone(o);
  const strip = (labels?: Record<string, string>): void => {
    for (const l of TOOL_LABELS) delete labels?.[l];
  };
  strip(copy.metadata.labels);
  const template = (
    copy as { spec?: { template?: { metadata?: { labels?: Record<string, string> } } } }
  ).spec?.template;
  strip(template?.metadata?.labels);
  return copy;
}

function key(o: KubeObject): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

async function renderKustomize(dir = KUSTOMIZE): Promise<KubeObject[]> {
  const r = await run('kubectl', ['kustomize', dir]);
  if (r.code !== 0) throw new Error(`cannot build the kustomize base: ${r.stderr}`);
  return parseObjects(r.stdout);
}

test('kustomize renders the chart defaults object for object (plus the Namespace and CRDs)', async (t) => {
  const [k, chart, chartCrds] = await Promise.all([
    renderKustomize(),
    renderChart([], { extra: ['--skip-tests'] }),
    renderChart([], { extra: ['--include-crds', '--skip-tests'] }),
  ]);
  const crdCount = objectsOf(chartCrds, 'CustomResourceDefinition').length;
  t.true(crdCount > 0);
  t.is(objectsOf(k, 'CustomResourceDefinition').length, crdCount, 'every chart CRD');
  t.is(objectsOf(k, 'Namespace').length, 1);
  const comparable = k.filter(
    (o) => o.kind !== 'Namespace' && o.kind !== 'CustomResourceDefinition',
  );
  const byKey = new Map(comparable.map((o) => [key(o), normalize(o)]));
  t.deepEqual([...byKey.keys()].sort(), chart.map(key).sort(), 'same objects');
  for (const o of chart) t.deepEqual(byKey.get(key(o)), normalize(o), key(o));
});

test('the DNS-01 solver overlay (base + component) renders the chart with dns01Solver.enabled object for object', async (t) => {
  const [k, chart] = await Promise.all([
    renderKustomize(join(ROOT, 'deploy/overlays/dns01-solver')),
    renderChart(['dns01Solver.enabled=true'], { extra: ['--skip-tests'] }),
  ]);
  const comparable = k.filter(
    (o) => o.kind !== 'Namespace' && o.kind !== 'CustomResourceDefinition',
  );
  const byKey = new Map(comparable.map((o) => [key(o), normalize(o)]));
  t.deepEqual([...byKey.keys()].sort(), chart.map(key).sort(), 'same objects');
  for (const o of chart) t.deepEqual(byKey.get(key(o)), normalize(o), key(o));
  t.truthy(byKey.get('RoleBinding/kube-system/cdn-operator-dns01-solver-auth-reader'));
});

test('kustomize CRDs are the chart CRDs', async (t) => {
  const [k, chart] = await Promise.all([
    renderKustomize(),
    renderChart([], { extra: ['--include-crds', '--skip-tests'] }),
  ]);
  const crds = (objs: KubeObject[]): KubeObject[] =>
    objectsOf(objs, 'CustomResourceDefinition').sort((a, b) => key(a).localeCompare(key(b)));
  t.deepEqual(crds(k), crds(chart));
});

test('kustomize labels still carry the selector labels and name kustomize as the manager', async (t) => {
  const deploy = objectsOf(await renderKustomize(), 'Deployment')[0]!;
  t.like(deploy.metadata.labels, {
    'app.kubernetes.io/name': 'cdn-operator',
    'app.kubernetes.io/instance': 'cdn-operator',
    'app.kubernetes.io/managed-by': 'kustomize',
  });
});
