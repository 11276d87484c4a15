/**
 * Export of ShieldPolicy custom pages end to end (issue 34): a zone with two custom pages whose
 * HTML is hard to write as YAML (test/support/tricky-html.ts) is exported by the real cdnctl,
 * and the output is applied with the real kubectl (go-yaml, YAML 1.1) into a fresh namespace.
 * The policy applied before its ConfigMaps waits (ReferenceNotReady, nothing written); once the
 * whole output is applied it becomes Ready with zero platform writes — the pages reached the
 * cluster byte for byte, or their SHA-256 would differ and be uploaded — and without a request
 * the official documents reject. `cdnctl diff` of the output then reports no changes.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CdnClient } from '../../../src/cdn/client.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../../../src/controllers/pullzoneconfig/types.js';
import { SHIELD_POLICY_NAMES } from '../../../src/controllers/shieldpolicy/types.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyNamespaceAccount, defaultAccountArgs, deleteAccount } from '../support/account.js';
import { runCdnctl } from '../support/cdnctl.js';
import { applyAllCrds } from '../support/crds.js';
import {
  conditionOf,
  createNamespace,
  deleteNamespace,
  getObject,
  kubectl,
  kubectlRaw,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { TRICKY_PAGES } from '../../support/tricky-html.js';

const API_KEY = 'e2e-export-pages-key';
const SHP = crdNameOf(SHIELD_POLICY_NAMES);
const KINDS = [PULL_ZONE_CONFIG_NAMES, SHIELD_POLICY_NAMES].map(crdNameOf).join(',');

/** Platform writes so far, by route: every call the simulator counted that is not a GET. */
function writeRoutes(sim: SimulatorHandle): Record<string, number> {
  const { routes } = sim.calls.snapshot();
  return Object.fromEntries(
    Object.entries(routes)
      .filter(([route]) => !route.startsWith('GET '))
      .map(([route, c]) => [route, c.count]),
  );
}

const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

test('exported custom pages applied with kubectl: the policy waits for its ConfigMaps, then Ready with zero writes', async (t) => {
  t.timeout(6 * 60_000);
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  const ns = await createNamespace('e2e-export-pages');
  const dir = mkdtempSync(join(tmpdir(), 'cdnctl-export-pages-'));
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

  // A zone with two custom pages (Advanced plan), and one without any.
  const shop = await cdn.addPullZone({ Name: 'shop', OriginUrl: 'https://origin.example' });
  const zone = await cdn.createShieldZone({
    pullZoneId: Number(shop.Id),
    shieldZone: { planType: 1, wafEnabled: true },
  });
  for (const [type, html] of Object.entries(TRICKY_PAGES))
    await cdn.putCustomPage(Number(zone.shieldZoneId), type, html);
  const plain = await cdn.addPullZone({ Name: 'plain', OriginUrl: 'https://origin.example' });
  await cdn.createShieldZone({ pullZoneId: Number(plain.Id), shieldZone: { planType: 0 } });

  const exported = await runCdnctl(sim.url, API_KEY, [
    'export',
    '-n',
    ns,
    '--account-ref',
    ns,
    '--kinds',
    'PullZoneConfig,ShieldPolicy',
    '-o',
    dir,
  ]);
  t.is(exported.code, 0, exported.stderr);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  t.deepEqual(files.filter((f) => f.startsWith('configmap-')).sort(), [
    'configmap-shop-block-page.yaml',
    'configmap-shop-challenge-page.yaml',
  ]);
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    t.deepEqual(parse(text, { version: '1.1' }), parse(text), `${f} reads differently in YAML 1.1`);
  }

  const writesBefore = writeRoutes(sim);
  running.operator = await startOperator({
    kubeconfig,
    args: ['--namespace', ns, '--api-url', sim.url, ...defaultAccountArgs(ns)],
  });
  // The policy alone (its ConfigMaps not there yet) waits and writes nothing.
  await kubectl(['apply', '-f', join(dir, 'pullzoneconfig-shop.yaml')]);
  await kubectl(['apply', '-f', join(dir, 'shieldpolicy-shop.yaml')]);
  const waiting = await waitFor(
    async () => {
      const p = await getObject(SHP, ns, 'shop');
      const ready = conditionOf(p, 'Ready');
      const forMap = ready?.reason === 'ReferenceNotReady' && ready.message.includes('ConfigMap');
      return forMap ? ready : undefined;
    },
    60_000,
    'the policy waiting for its ConfigMap',
    500,
  );
  t.is(waiting.status, 'False');
  t.regex(waiting.message, new RegExp(`ConfigMap ${ns}/shop-block-page`));
  t.deepEqual(writeRoutes(sim), writesBefore, 'a waiting policy wrote to the platform');

  // The whole output: the ConfigMaps arrive, every object becomes Ready, nothing is written.
  await kubectl(['apply', '-f', dir]);
  const items = await waitFor(
    async () => {
      const list = JSON.parse(await kubectl(['get', KINDS, '-n', ns, '-o', 'json'])) as {
        items: KubeJson[];
      };
      if (list.items.length !== 4) return undefined;
      const ready = list.items.every((o) => {
        const c = conditionOf(o, 'Ready');
        return c?.status === 'True' && c.observedGeneration === o.metadata.generation;
      });
      return ready ? list.items : undefined;
    },
    3 * 60_000,
    'every exported object Ready',
    1000,
  );
  const policy = items.find((o) => o.kind === 'ShieldPolicy' && o.metadata.name === 'shop')!;
  t.deepEqual(
    policy.status?.customPages,
    Object.entries(TRICKY_PAGES).map(([pageType, html]) => ({ pageType, sha256: sha256(html) })),
  );
  for (const [type, html] of Object.entries(TRICKY_PAGES)) {
    const map = JSON.parse(
      await kubectl(['get', 'configmap', `shop-${type}-page`, '-n', ns, '-o', 'json']),
    ) as { data: Record<string, string> };
    t.is(map.data['page.html'], html, `${type} page in the cluster byte for byte`);
  }
  const plainPolicy = items.find((o) => o.kind === 'ShieldPolicy' && o.metadata.name === 'plain');
  t.is(plainPolicy?.spec?.customPages, undefined, 'a zone without pages manages none');
  t.deepEqual(writeRoutes(sim), writesBefore, 'the operator wrote to the platform');
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));

  const diff = await runCdnctl(sim.url, API_KEY, ['diff', '-f', dir]);
  t.is(diff.code, 0, diff.stdout + diff.stderr);
  t.regex(diff.stdout, /ShieldPolicy \S+\/shop \(id \d+\): no changes/);
  t.regex(diff.stdout, /4 object\(s\): 4 unchanged/);
});
