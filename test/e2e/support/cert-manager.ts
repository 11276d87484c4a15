/**
 * cert-manager's controllers for the certificates e2e (hack/build-binaries.sh cert-manager), out
 * of cluster: its CRDs and its chart's RBAC installed, and an identity of its own, the
 * `cert-manager/cert-manager` ServiceAccount (a token from the TokenRequest API), so what it may
 * do is what the chart grants it and the solver's SubjectAccessReview asks about a real,
 * unprivileged caller. DNS-01 self checks ask only `dnsServer` (cdn-sim's DNS listener), every
 * second; one instance, no leader election.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildBinaries } from '../../cluster/binaries.js';
import {
  readLogTail,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../cluster/process.js';
import { apply, kubectl } from './kube.js';

/** The namespace and ServiceAccount cert-manager runs as (the chart's names). */
export const certManagerNamespace = 'cert-manager';
/** The user cert-manager's requests carry. */
export const certManagerUser = `system:serviceaccount:${certManagerNamespace}:cert-manager`;

/** A running cert-manager controller. */
export interface CertManager {
  logFile: string;
  /** The last lines of its log (for a failed test's message). */
  logTail(lines?: number): Promise<string>;
  stop(): Promise<void>;
}

const certManagerCrds = [
  'challenges.acme.cert-manager.io',
  'orders.acme.cert-manager.io',
  'certificaterequests.cert-manager.io',
  'certificates.cert-manager.io',
  'issuers.cert-manager.io',
  'clusterissuers.cert-manager.io',
];

interface AdminKubeconfig {
  clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>;
}

/** Applies cert-manager's CRDs (server-side: they are too large for the last-applied annotation). */
async function installCrds(crdsFile: string): Promise<void> {
  await kubectl(['apply', '--server-side', '--force-conflicts', '-f', crdsFile]);
  await kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=60s',
    ...certManagerCrds.map((name) => `crd/${name}`),
  ]);
}

async function writeServiceAccountKubeconfig(dir: string): Promise<string> {
  const admin = parse(await readFile(process.env.KUBECONFIG ?? '', 'utf8')) as AdminKubeconfig;
  const cluster = admin.clusters[0]?.cluster;
  if (!cluster) throw new Error('cannot start cert-manager: the admin kubeconfig has no cluster');
  const token = (
    await kubectl(['create', 'token', 'cert-manager', '-n', certManagerNamespace, '--duration=6h'])
  ).trim();
  const path = join(dir, 'cert-manager.kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster }],
    users: [{ name: 'cert-manager', user: { token } }],
    contexts: [{ name: 'local', context: { cluster: 'local', user: 'cert-manager' } }],
    'current-context': 'local',
  };
  await writeFile(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}

/** Installs cert-manager's CRDs and RBAC and starts its controllers, log in `dir`. */
export async function startCertManager(dir: string, dnsServer: string): Promise<CertManager> {
  const [bin, manifests] = (await buildBinaries(['cert-manager', 'cert-manager-manifests'])) as [
    string,
    string,
  ];
  await installCrds(join(manifests, 'crds.yaml'));
  await apply(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: certManagerNamespace } },
        {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: 'cert-manager', namespace: certManagerNamespace },
        },
      ],
    }),
  );
  await kubectl(['apply', '-f', join(manifests, 'rbac.yaml')]);
  const kubeconfig = await writeServiceAccountKubeconfig(dir);
  const proc: ServerProcess = startServerProcess(
    'cert-manager',
    bin,
    [
      `--kubeconfig=${kubeconfig}`,
      `--cluster-resource-namespace=${certManagerNamespace}`,
      `--dns01-recursive-nameservers=${dnsServer}`,
      '--dns01-recursive-nameservers-only',
      '--dns01-check-retry-period=1s',
      '--leader-elect=false',
    ],
    join(dir, 'cert-manager.log'),
  );
  return {
    logFile: proc.logFile,
    logTail: (lines = 20) => readLogTail(proc.logFile, lines),
    stop: () => stopServerProcess(proc),
  };
}
