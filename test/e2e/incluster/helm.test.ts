/**
 * The Helm install really runs: on the local single-node cluster (hack/node/cluster.sh) the
 * chart deploys the image built here (hack/image/build.sh) as two pods that use in-cluster
 * credentials, pass their probes under a read-only root filesystem and elect one leader; the
 * leader reconciles every example kind against a cdn-sim the pods reach over the node's bridge.
 * Then: `helm test`, failover of the leader with a change made meanwhile, `helm upgrade` rolling
 * the pods without losing a change, and `helm uninstall` keeping CRDs, custom resources and the
 * platform's resources.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { CHART, ROOT, resolveHelm, run, type RunResult } from '../../unit/packaging/tools.js';
import {
  image,
  kubeconfig,
  kubectl,
  kubectlOk,
  leaseHolderPod,
  nodeIp,
  operatorPods,
  podGauge,
  requireNode,
  waitFor,
  type OperatorPod,
} from './support.js';
import { exampleObjects } from '../../support/examples.js';
import { freeCertificateHostnames } from '../../../hack/demo/example-hostnames.js';

const suffix = randomBytes(3).toString('hex');
const release = `incluster-${suffix}`;
const releaseNs = `incluster-${suffix}`;
const workNs = `incluster-work-${suffix}`;
const leaseName = 'cdn-operator.cdn.operator.io';
const API_KEY = `incluster-key-${suffix}`;
/** The example object of every kind that works with the chart's defaults. */
const KINDS = exampleObjects().map(({ kind, name }) => ({
  kind: kind.kind,
  resource: crdNameOf(kind),
  name,
}));

let helm = '';
let sim: SimulatorHandle | undefined;
/** Set by the install test: every later step needs the release, and waiting minutes for each to
 *  time out without it would only delay the red result. */
let installed = false;

/** Fails the calling test at once when the release was never installed. */
function requireInstalled(t: ExecutionContext): boolean {
  if (!installed) t.fail('cannot run: helm install failed (see the first test)');
  return installed;
}

function helmRun(args: string[]): Promise<RunResult> {
  return run(helm, ['--kubeconfig', kubeconfig, ...args], { timeoutMs: 600_000 });
}

/** `helm upgrade --install` with the values every step shares plus `extra`. */
function installArgs(extra: string[]): string[] {
  const at = image.lastIndexOf(':');
  const values = [
    `image.repository=${image.slice(0, at)}`,
    `image.tag=${image.slice(at + 1)}`,
    // The image exists only in the node's containerd.
    'image.pullPolicy=Never',
    `apiUrl=${sim?.url ?? ''}`,
    // A CdnAccount of this release (cluster-scoped: its own name), open to workNs only.
    'defaultAccount.secretName=cdn-credentials',
    `defaultAccount.name=${release}`,
    `defaultAccount.namespaces={${workNs}}`,
    'outputs.enabled=true',
    `watchNamespaces={${workNs}}`,
    'pollInterval=30s',
    ...extra,
  ];
  return [
    'upgrade',
    '--install',
    release,
    CHART,
    '-n',
    releaseNs,
    '--wait',
    '--timeout',
    '5m',
    ...values.flatMap((v) => ['--set', v]),
  ];
}

function simOriginUrl(): string | undefined {
  const zone = [...(sim?.state.pullZones.values() ?? [])].find((z) => z.record.Name === 'shop-cdn');
  return zone?.record.OriginUrl as string | undefined;
}

async function setOriginUrl(url: string): Promise<void> {
  await kubectlOk([
    'patch',
    'pullzoneconfig.pullzones.cdn.operator.io',
    'shop-cdn',
    '-n',
    workNs,
    '--type=merge',
    '-p',
    JSON.stringify({ spec: { settings: { originUrl: url } } }),
  ]);
}

/** Two Ready pods, not terminating, and exactly one of them reports itself leader. */
async function oneLeader(): Promise<{ pods: OperatorPod[]; leader: OperatorPod } | undefined> {
  const pods = (await operatorPods(releaseNs, release)).filter((p) => !p.deleting);
  if (pods.length !== 2 || !pods.every((p) => p.ready && p.phase === 'Running')) return undefined;
  const gauges = await Promise.all(pods.map((p) => podGauge(p, 'cdn_operator_leader')));
  if (gauges.some((g) => g === undefined)) return undefined;
  const leaders = pods.filter((_, i) => gauges[i] === 1);
  if (leaders.length !== 1) return undefined;
  const holder = await leaseHolderPod(releaseNs, leaseName);
  return holder === leaders[0]!.name ? { pods, leader: leaders[0]! } : undefined;
}

test.before(async () => {
  requireNode();
  helm = await resolveHelm();
  // Listens on the node address inside the namespace: reachable from pods, not from outside.
  sim = await startSimulator({
    host: nodeIp,
    apiKeys: [{ key: API_KEY }],
    externalDns: freeCertificateHostnames(),
  });
  for (const ns of [releaseNs, workNs]) await kubectlOk(['create', 'namespace', ns]);
  await kubectlOk([
    'create',
    'secret',
    'generic',
    'cdn-credentials',
    '-n',
    // The default CdnAccount's Secret lives in the release namespace.
    releaseNs,
    `--from-literal=apiKey=${API_KEY}`,
  ]);
});

test.after.always(async () => {
  // The cluster is private to this run and torn down by hack/node/cluster.sh.
  await sim?.close();
});

test.serial('helm install: two pods Running and Ready, exactly one leader', async (t) => {
  const install = await helmRun(installArgs([]));
  t.is(install.code, 0, install.stderr);
  installed = install.code === 0;
  const { pods, leader } = await waitFor('two Ready pods and one leader', 180_000, oneLeader);
  t.is(pods.length, 2);
  t.log(`leader ${leader.name}`);
  // The image runs non-root and the chart's read-only root filesystem holds.
  const probe = await kubectl([
    'exec',
    '-n',
    releaseNs,
    leader.name,
    '--',
    'node',
    '-e',
    "try { require('fs').writeFileSync('/app/x', '') } catch (e) { console.log(process.getuid(), e.code) }",
  ]);
  t.is(probe.code, 0, probe.stderr);
  t.is(probe.stdout.trim(), '1000 EROFS');
});

test.serial('the leader reconciles every example kind against cdn-sim', async (t) => {
  if (!requireInstalled(t)) return;
  const applied = await kubectl(['apply', '-n', workNs, '-f', join(ROOT, 'examples')]);
  t.is(applied.code, 0, applied.stderr);
  for (const { kind, resource, name } of KINDS) {
    const waited = await kubectl([
      'wait',
      `${resource}/${name}`,
      '-n',
      workNs,
      '--for=condition=Ready',
      '--timeout=180s',
    ]);
    const status = await kubectl([
      'get',
      `${resource}/${name}`,
      '-n',
      workNs,
      '-o',
      'jsonpath={.status}',
    ]);
    t.is(waited.code, 0, `${kind}/${name} not Ready: ${status.stdout}`);
  }
  t.is(simOriginUrl(), 'https://origin.shop.example.com');
  t.is(sim!.state.apps.size, 1);
  t.is(sim!.state.shieldZones.size, 1);
});

test.serial('helm test passes', async (t) => {
  if (!requireInstalled(t)) return;
  const tested = await helmRun(['test', release, '-n', releaseNs, '--timeout', '3m']);
  t.is(tested.code, 0, `${tested.stdout}\n${tested.stderr}`);
  t.regex(tested.stdout, /Phase:\s+Succeeded/);
});

test.serial(
  'deleting the leader pod: the other takes over and a change made meanwhile lands',
  async (t) => {
    if (!requireInstalled(t)) return;
    const before = await waitFor('one leader', 120_000, oneLeader);
    await kubectlOk(['delete', 'pod', before.leader.name, '-n', releaseNs, '--wait=false']);
    const url = 'https://failover.shop.example.com';
    await setOriginUrl(url);
    await waitFor('the change on the platform', 180_000, () =>
      Promise.resolve(simOriginUrl() === url ? true : undefined),
    );
    const after = await waitFor('a new leader and two Ready pods', 180_000, oneLeader);
    t.not(after.leader.name, before.leader.name);
    t.false(after.pods.some((p) => p.name === before.leader.name));
    t.is(simOriginUrl(), url);
  },
);

test.serial('helm upgrade rolls the pods without losing a change', async (t) => {
  if (!requireInstalled(t)) return;
  const old = new Set((await operatorPods(releaseNs, release)).map((p) => p.name));
  const upgrading = helmRun(installArgs(['logLevel=debug', 'pollInterval=45s']));
  // A change while the rollout replaces the pods.
  await waitFor('the rollout to start', 120_000, async () => {
    const pods = await operatorPods(releaseNs, release);
    return pods.some((p) => !old.has(p.name)) ? true : undefined;
  });
  const url = 'https://upgrade.shop.example.com';
  await setOriginUrl(url);
  const upgraded = await upgrading;
  t.is(upgraded.code, 0, upgraded.stderr);
  const after = await waitFor('two new Ready pods and one leader', 180_000, oneLeader);
  t.false(
    after.pods.some((p) => old.has(p.name)),
    'every pod was replaced',
  );
  const args = await kubectlOk([
    'get',
    'deploy',
    `${release}-cdn-operator`,
    '-n',
    releaseNs,
    '-o',
    'jsonpath={.spec.template.spec.containers[0].args}',
  ]);
  t.regex(args, /--log-level=debug/);
  await waitFor('the change on the platform', 180_000, () =>
    Promise.resolve(simOriginUrl() === url ? true : undefined),
  );
  t.pass();
});

test.serial('helm uninstall keeps CRDs, custom resources and platform resources', async (t) => {
  if (!requireInstalled(t)) return;
  const platform = JSON.stringify(sim!.state.snapshot());
  const removed = await helmRun([
    'uninstall',
    release,
    '-n',
    releaseNs,
    '--wait',
    '--timeout',
    '3m',
  ]);
  t.is(removed.code, 0, removed.stderr);
  await waitFor('the operator pods to go', 120_000, async () =>
    (await operatorPods(releaseNs, release)).length === 0 ? true : undefined,
  );
  const deploy = await kubectl(['get', 'deploy', '-n', releaseNs, '-o', 'name']);
  t.is(deploy.stdout.trim(), '');
  for (const { kind, resource, name } of KINDS) {
    t.is((await kubectl(['get', 'crd', resource, '-o', 'name'])).code, 0);
    const cr = await kubectl(['get', `${resource}/${name}`, '-n', workNs, '-o', 'name']);
    t.is(cr.code, 0, `${kind}/${name} kept: ${cr.stderr}`);
  }
  t.is(JSON.stringify(sim!.state.snapshot()), platform, 'the platform resources are untouched');
});
