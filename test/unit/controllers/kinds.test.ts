/**
 * The list of kinds (src/controllers/kinds.ts) is the one place a kind is named. A throwaway
 * kind, Gadget (its folder: fixtures/gadget/, a real kind on the resource kit whose platform is
 * the gadget routes a test installs in cdn-sim, test/support/sim-gadgets.ts), is added by one
 * line, `WITH_GADGET` below, and every tool picks it up from the list alone: the operator's controllers, CRD generation (a
 * described CRD that agrees with its TypeScript types), the chart's and the kustomize base's
 * RBAC and the Argo CD keys (derived from crds/), cdnctl diff, export and help, the bench and
 * the demo. The real list is checked for what the tools rely on.
 */
import test from 'ava';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { parse } from 'yaml';
import { renderCrd } from '../../../hack/generate-crds.js';
import { CdnClient } from '../../../src/cdn/client.js';
import { diffManifests } from '../../../src/cli/diff/diff-manifests.js';
import type { Manifest } from '../../../src/cli/diff/manifests.js';
import { exportAccount, exportableKinds } from '../../../src/cli/export/export-account.js';
import { parseExportOptions } from '../../../src/cli/export/options.js';
import { helpText } from '../../../src/cli/run.js';
import { collectionPathOf, crdFileOf } from '../../../src/controllers/kind-names.js';
import { exampleKinds, findKind, KINDS } from '../../../src/controllers/kinds.js';
import { createClusterKinds, createManagedKinds } from '../../../src/controllers/registry.js';
import { sampleFleet } from '../../../bench/lib/objects.js';
import { builtCrd, rootSchema, undescribed, type Json } from '../../support/crds.js';
import { startTestSim, TEST_KEY } from '../../support/sim-client.js';
import { gadgetRoutes } from '../../support/sim-gadgets.js';
import { compareTypeWithSchema, TypeReader } from '../../support/type-schema.js';
import { CHART, ROOT, renderChart, run, type KubeObject } from '../packaging/tools.js';
import { gadgetsOf } from './fixtures/gadget/index.js';
import { GADGET } from './fixtures/gadget/kind.js';

/** The one line that adds the kind. */
const WITH_GADGET = [...KINDS, GADGET];

const deps = { apiBaseUrl: 'http://127.0.0.1:1', log: pino({ level: 'silent' }) };

test('the list names each kind once, and each kind lives in its own folder', (t) => {
  const names = KINDS.map((k) => k.kind);
  t.deepEqual([...new Set(names)], names);
  t.deepEqual([...new Set(KINDS.map((k) => k.plural))].length, KINDS.length);
  for (const k of KINDS) t.is(findKind(k.kind), k);
});

test('export order: a kind comes after the kinds it needs', (t) => {
  KINDS.forEach((k, i) => {
    for (const need of k.exportNeeds ?? []) {
      const at = KINDS.findIndex((o) => o.kind === need);
      t.true(at >= 0 && at < i, `${k.kind} needs ${need} first`);
    }
  });
});

/** The added kind's `apiVersion`: a family of its own. */
const GADGET_VERSION = 'gadgets.cdn.operator.io/v1beta1';

test('the operator runs a controller for the added kind', async (t) => {
  const kinds = await createManagedKinds(deps, WITH_GADGET);
  const gadget = kinds.find((k) => k.kind === 'Gadget');
  t.like(gadget, {
    name: 'gadget',
    group: 'gadgets.cdn.operator.io',
    plural: 'gadgets',
    idStatusField: 'gadgetId',
  });
  t.deepEqual(
    kinds.map((k) => k.kind),
    WITH_GADGET.filter((k) => k.controller).map((k) => k.kind),
    'one controller per kind with one, in list order',
  );
});

test('the operator watches the cluster-scoped kinds of the list, each once', async (t) => {
  const ops = { operatorNamespace: 'ops' };
  const names = (kinds: { plural: string; group: string }[]): string[] =>
    kinds.map((k) => `${k.plural}.${k.group}`);
  t.deepEqual(names(await createClusterKinds(ops)), [
    'cdnaccounts.accounts.cdn.operator.io',
    'namespaces.',
  ]);
  const twice = [...KINDS, findKind('CdnAccount')!];
  t.deepEqual(names(await createClusterKinds(ops, twice)), [
    'cdnaccounts.accounts.cdn.operator.io',
    'namespaces.',
  ]);
  const without = KINDS.filter((k) => k.kind !== 'CdnAccount');
  t.deepEqual(await createClusterKinds(ops, without), [], 'without the line: not watched');
});

test('CRD generation writes the added kind: named, described, agreeing with its types', async (t) => {
  const { path, text } = await renderCrd(GADGET);
  t.is(path, crdFileOf(GADGET));
  t.is(path, 'crds/gadgets.cdn.operator.io_gadgets.yaml');
  const crd = parse(text, { version: '1.1' }) as Json;
  t.is(crd.metadata.name, 'gadgets.gadgets.cdn.operator.io');
  t.deepEqual(crd.spec.names.shortNames, ['gdg']);
  t.deepEqual(undescribed(rootSchema(crd)), [], 'every field described');
  const spec = rootSchema(crd).properties.spec as Json;
  t.truthy(spec.properties.accountRef, 'shared account fragment');
  t.truthy(spec.properties.adoption, 'shared adoption fragment');
  const file = join(ROOT, 'test/unit/controllers/fixtures/gadget/fields.ts');
  const reader = new TypeReader([file]);
  const built = rootSchema(await builtCrd(GADGET)).properties as Json;
  for (const [part, type] of [
    ['spec', 'GadgetSpec'],
    ['status', 'GadgetStatus'],
  ] as const) {
    const agreement = compareTypeWithSchema(
      reader,
      reader.exportedType(file, type)!,
      built[part] as Json,
      part,
      part === 'spec',
    );
    t.deepEqual(agreement, { mismatches: [], opaque: [] }, type);
  }
});

/** A copy of the chart, crds/ and deploy/sync.sh with the Gadget's CRD added. */
async function packagingWithGadget(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kinds-gadget-'));
  await cp(join(ROOT, 'crds'), join(dir, 'crds'), { recursive: true });
  await cp(CHART, join(dir, 'deploy/helm/cdn-operator'), { recursive: true });
  await cp(join(ROOT, 'deploy/sync.sh'), join(dir, 'deploy/sync.sh'));
  await cp(join(ROOT, 'deploy/argocd/health.lua'), join(dir, 'deploy/argocd/health.lua'));
  const { path, text } = await renderCrd(GADGET);
  await writeFile(join(dir, path), text);
  const synced = await run('bash', [join(dir, 'deploy/sync.sh')], { cwd: dir });
  if (synced.code !== 0) throw new Error(`cannot sync: ${synced.stderr}`);
  return dir;
}

function rulesOf(objects: KubeObject[], name: string): { resources: string[] }[] {
  const role = objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === name);
  return (role as unknown as { rules: { resources: string[] }[] }).rules;
}

test('RBAC (chart and kustomize) and the Argo CD keys cover the added kind from crds/', async (t) => {
  const dir = await packagingWithGadget();
  try {
    const objects = await renderChart([], { chart: join(dir, 'deploy/helm/cdn-operator') });
    const resources = rulesOf(objects, 'cdn-operator').flatMap((r) => r.resources);
    for (const r of ['gadgets', 'gadgets/status', 'gadgets/finalizers'])
      t.true(resources.includes(r), `chart ClusterRole: ${r}`);
    const kustomize = await readFile(join(dir, 'deploy/kustomize/rbac.yaml'), 'utf8');
    for (const r of ['gadgets', 'gadgets/status', 'gadgets/finalizers'])
      t.regex(kustomize, new RegExp(`\\n  - ${r}\\n`), `kustomize ClusterRole: ${r}`);
    const cm = parse(await readFile(join(dir, 'deploy/argocd/argocd-cm.yaml'), 'utf8')) as Json;
    t.truthy(cm.data['resource.customizations.health.gadgets.cdn.operator.io_Gadget']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('cdnctl compares, exports and lists the added kind', async (t) => {
  const sim = await startTestSim({ testRoutes: gadgetRoutes(), logger: pino({ level: 'silent' }) });
  const client = new CdnClient({ baseUrl: sim.url, credentials: TEST_KEY });
  t.teardown(async () => {
    client.close();
    await sim.close();
  });
  const { id } = await gadgetsOf(client).create({ name: 'gadget-one', size: 1 });
  const manifest = (name: string, spec: Record<string, unknown>): Manifest => ({
    apiVersion: GADGET_VERSION,
    kind: 'Gadget',
    metadata: { name, namespace: 'ns' },
    spec,
    source: 'test',
  });
  const manifests = [
    manifest('g', { size: 3 }),
    manifest('h', { adoption: { policy: 'ById', id }, name: 'gadget-one', size: 3 }),
  ];
  const report = await diffManifests(client, manifests, WITH_GADGET);
  t.deepEqual(
    report.entries.map((e) => [e.name, e.plan]),
    [
      ['g', { action: 'create', diffs: [] }],
      [
        'h',
        { action: 'update', id: String(id), diffs: [{ field: 'size', live: '1', desired: '3' }] },
      ],
    ],
  );
  t.is(report.exitCode, 1);
  const without = await diffManifests(client, manifests, KINDS);
  t.is(without.entries[0]?.plan?.action, 'skipped', 'without the line: not compared');

  const opts = parseExportOptions({ kinds: 'gadgets', namespace: 'ns' }, WITH_GADGET);
  t.deepEqual([...opts.kinds], ['Gadget']);
  const exported = await exportAccount(client, opts, WITH_GADGET);
  t.deepEqual(
    exported.objects.map((o) => [
      o.kind,
      o.name,
      (o.manifest.spec as { adoption?: { id?: number } }).adoption?.id,
    ]),
    [['Gadget', 'gadget-one', id]],
  );
  t.throws(() => parseExportOptions({ kinds: 'gadget' }, KINDS), { message: /unknown kind/ });
  t.true(exportableKinds(WITH_GADGET).includes(GADGET));
  t.regex(helpText(undefined, WITH_GADGET), /--kinds K1,K2 .*StorageZone,(\w+,)*Gadget /);
});

test('the bench creates the added kind; the demo applies its example', (t) => {
  const fleet = sampleFleet(
    WITH_GADGET.filter((k) => k.sample),
    'ns',
    2,
  );
  t.deepEqual(
    fleet.get('Gadget')?.map((m) => [m.apiVersion, m.kind, m.metadata.name, m.spec]),
    [
      [GADGET_VERSION, 'Gadget', 'gdg-00000', { size: 1 }],
      [GADGET_VERSION, 'Gadget', 'gdg-00001', { size: 1 }],
    ],
  );
  t.is(
    collectionPathOf(GADGET, 'ns'),
    '/apis/gadgets.cdn.operator.io/v1beta1/namespaces/ns/gadgets',
  );
  const shields = fleet.get('ShieldPolicy') ?? [];
  t.is<string | undefined, string | undefined>(
    (shields[1]?.spec.pullZoneRef as { name: string }).name,
    fleet.get('PullZoneConfig')?.[1]?.metadata.name,
    'a sample refers to the sample of the same index of the kind it needs',
  );
  t.true(exampleKinds(WITH_GADGET).includes(GADGET));
  t.false(exampleKinds(KINDS).includes(GADGET));
});
