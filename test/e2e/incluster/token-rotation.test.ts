/**
 * Service-account token rotation: the operator pod gets a projected token that expires after
 * 600 s (the shortest expirationSeconds the apiserver accepts); kubelet writes a new one at
 * 80 % of that. After the first token has expired, the operator must still read and write
 * Kubernetes (a change reaches the platform and its status) with no 401 from the apiserver.
 * Runs beside helm.test.ts (its own release, namespaces and cdn-sim) because it mostly waits.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { CHART, resolveHelm, run } from '../../unit/packaging/tools.js';
import {
  image,
  kubeconfig,
  kubectl,
  kubectlOk,
  nodeIp,
  operatorPods,
  requireNode,
  waitFor,
  type OperatorPod,
} from './support.js';

const suffix = randomBytes(3).toString('hex');
const release = `rotation-${suffix}`;
const releaseNs = `rotation-${suffix}`;
const workNs = `rotation-work-${suffix}`;
const API_KEY = `rotation-key-${suffix}`;
const EXPIRATION_SECONDS = 600;
const TOKEN_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

let sim: SimulatorHandle | undefined;

/** The pod spec patch: the default token volume replaced by one with a short expiry. */
function shortTokenPatch(): string {
  return JSON.stringify({
    spec: {
      template: {
        spec: {
          automountServiceAccountToken: false,
          volumes: [
            { name: 'tmp', emptyDir: { sizeLimit: '16Mi' } },
            {
              name: 'short-token',
              projected: {
                sources: [
                  { serviceAccountToken: { path: 'token', expirationSeconds: EXPIRATION_SECONDS } },
                  {
                    configMap: {
                      name: 'kube-root-ca.crt',
                      items: [{ key: 'ca.crt', path: 'ca.crt' }],
                    },
                  },
                  {
                    downwardAPI: {
                      items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }],
                    },
                  },
                ],
              },
            },
          ],
          containers: [
            {
              name: 'operator',
              volumeMounts: [
                { name: 'tmp', mountPath: '/tmp' },
                { name: 'short-token', mountPath: TOKEN_DIR, readOnly: true },
              ],
            },
          ],
        },
      },
    },
  });
}

/** iat and exp of the token file in the pod, read by the image's own node. */
async function tokenTimes(pod: OperatorPod): Promise<{ iat: number; exp: number } | undefined> {
  const r = await kubectl([
    'exec',
    '-n',
    releaseNs,
    pod.name,
    '--',
    'node',
    '-e',
    `const t = require('fs').readFileSync('${TOKEN_DIR}/token', 'utf8').split('.')[1];
     const c = JSON.parse(Buffer.from(t, 'base64url').toString());
     console.log(JSON.stringify({ iat: c.iat, exp: c.exp }));`,
  ]);
  return r.code === 0 ? (JSON.parse(r.stdout) as { iat: number; exp: number }) : undefined;
}

function simOriginUrl(name: string): string | undefined {
  const zone = [...(sim?.state.pullZones.values() ?? [])].find((z) => z.record.Name === name);
  return zone?.record.OriginUrl as string | undefined;
}

function zoneYaml(originUrl: string): string {
  return `apiVersion: pullzones.cdn.operator.io/v1beta1
kind: PullZoneConfig
metadata:
  name: rotation-zone
  namespace: ${workNs}
spec:
  settings:
    originUrl: ${originUrl}
`;
}

test.before(async () => {
  requireNode();
  sim = await startSimulator({ host: nodeIp, apiKeys: [{ key: API_KEY }] });
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
  await sim?.close();
});

test('the operator keeps working after its projected token expired and was rotated', async (t) => {
  const helm = await resolveHelm();
  const at = image.lastIndexOf(':');
  const installed = await run(
    helm,
    [
      '--kubeconfig',
      kubeconfig,
      'install',
      release,
      CHART,
      '-n',
      releaseNs,
      '--wait',
      '--timeout',
      '5m',
      ...[
        `image.repository=${image.slice(0, at)}`,
        `image.tag=${image.slice(at + 1)}`,
        'image.pullPolicy=Never',
        'replicas=1',
        `apiUrl=${sim!.url}`,
        // A CdnAccount of this release (cluster-scoped: its own name), open to workNs only.
        'defaultAccount.secretName=cdn-credentials',
        `defaultAccount.name=${release}`,
        `defaultAccount.namespaces={${workNs}}`,
        `watchNamespaces={${workNs}}`,
        'pollInterval=30s',
      ].flatMap((v) => ['--set', v]),
    ],
    { timeoutMs: 600_000 },
  );
  t.is(installed.code, 0, installed.stderr);
  const deploy = `deploy/${release}-cdn-operator`;
  await kubectlOk(['patch', deploy, '-n', releaseNs, '--type=strategic', '-p', shortTokenPatch()]);
  await kubectlOk(['rollout', 'status', deploy, '-n', releaseNs, '--timeout=300s']);
  const pod = await waitFor('one Ready pod with the short token', 120_000, async () => {
    const pods = (await operatorPods(releaseNs, release)).filter((p) => !p.deleting && p.ready);
    return pods.length === 1 ? pods[0] : undefined;
  });
  const first = await waitFor('the token file', 60_000, () => tokenTimes(pod));
  t.is(first.exp - first.iat, EXPIRATION_SECONDS, 'the pod runs with the short token');
  await kubectlOk(['apply', '-f', '-'], zoneYaml('https://before.rotation.example.com'));
  await kubectlOk([
    'wait',
    'pullzoneconfig.pullzones.cdn.operator.io/rotation-zone',
    '-n',
    workNs,
    '--for=condition=Ready',
    '--timeout=180s',
  ]);
  // kubelet replaces the token at 80 % of its lifetime; then wait out the first token.
  const rotated = await waitFor(
    'kubelet to rotate the token',
    EXPIRATION_SECONDS * 1000,
    async () => {
      const now = await tokenTimes(pod);
      return now && now.iat > first.iat ? now : undefined;
    },
  );
  t.true(rotated.exp > first.exp);
  const waitMs = first.exp * 1000 - Date.now() + 15_000;
  if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
  const url = 'https://after.rotation.example.com';
  await kubectlOk(['apply', '-f', '-'], zoneYaml(url));
  await waitFor('the change after expiry on the platform', 180_000, () =>
    Promise.resolve(simOriginUrl('rotation-zone') === url ? true : undefined),
  );
  // The status write-back went through too, with the rotated token.
  const observed = await waitFor('the status to catch up', 120_000, async () => {
    const out = await kubectlOk([
      'get',
      'pullzoneconfig.pullzones.cdn.operator.io/rotation-zone',
      '-n',
      workNs,
      '-o',
      'json',
    ]);
    const o = JSON.parse(out) as {
      metadata: { generation: number };
      status?: { observedGeneration?: number };
    };
    return o.status?.observedGeneration === o.metadata.generation ? o : undefined;
  });
  t.truthy(observed);
  const metrics = await fetch(`http://${pod.ip}:8080/metrics`).then((r) => r.text());
  t.notRegex(
    metrics,
    /cdn_operator_kube_api_requests_total\{[^}]*code="401"/,
    'no 401 from Kubernetes',
  );
  const restarts = await kubectlOk([
    'get',
    'pod',
    pod.name,
    '-n',
    releaseNs,
    '-o',
    'jsonpath={.status.containerStatuses[0].restartCount}',
  ]);
  t.is(restarts, '0', 'the same process, not a restart, survived the rotation');
});
