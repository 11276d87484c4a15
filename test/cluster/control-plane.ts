/**
 * A real local Kubernetes control plane (etcd + kube-apiserver) for e2e tests and demos.
 *
 * `startControlPlane()` picks free loopback ports, generates certificates in a temp dir,
 * starts etcd and kube-apiserver (RBAC on, aggregation layer configured), waits for `/readyz` and writes an admin
 * kubeconfig. `stop()` kills exactly the processes it started and removes the temp dir.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveBinaries, type Binaries } from './binaries.js';
import { frontProxyClientName, generatePki, type Pki } from './certs.js';
import { httpsStatus } from './https-status.js';
import { findFreePorts } from './ports.js';
import {
  readLogTail,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './process.js';

/** Options for {@link startControlPlane}. */
export interface ControlPlaneOptions {
  /** Extra kube-apiserver flags, e.g. `--audit-log-path=...`. */
  apiserverArgs?: string[];
  /** Parent of the temp dir (default: the OS temp dir). */
  baseDir?: string;
  /** How long to wait for readiness (default 90 s; a cold apiserver on 2 cores takes ~10 s). */
  readyTimeoutMs?: number;
  /** Let the processes outlive this Node process (for `make cluster-up`). */
  detached?: boolean;
}

/** A running control plane. */
export interface ControlPlane {
  /** Admin kubeconfig (client certificate in system:masters). */
  kubeconfigPath: string;
  /** https://127.0.0.1:PORT */
  server: string;
  /** Temp dir holding certs, data and logs; removed by stop(). */
  dir: string;
  pki: Pki;
  /** Pids of the processes this control plane started (etcd first). */
  pids(): number[];
  /** Stops the apiserver only (etcd keeps its data), to simulate an outage. */
  stopApiserver(): Promise<void>;
  /** Starts the apiserver again on the same port with the same certs and etcd. */
  startApiserver(): Promise<void>;
  /** Stops everything and removes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

interface State {
  bins: Binaries;
  dir: string;
  pki: Pki;
  etcdPort: number;
  apiPort: number;
  extraArgs: string[];
  readyTimeoutMs: number;
  detached: boolean;
  etcd?: ServerProcess;
  apiserver?: ServerProcess;
}

function etcdArgs(s: State, peerPort: number): string[] {
  const client = `http://127.0.0.1:${s.etcdPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    `--data-dir=${join(s.dir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync',
    '--log-level=warn',
  ];
}

function apiserverArgs(s: State): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${s.etcdPort}`,
    `--secure-port=${s.apiPort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--cert-dir=${join(s.dir, 'apiserver-certs')}`,
    `--tls-cert-file=${s.pki.servingCert}`,
    `--tls-private-key-file=${s.pki.servingKey}`,
    `--client-ca-file=${s.pki.caCert}`,
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${s.pki.saPub}`,
    `--service-account-signing-key-file=${s.pki.saKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--allow-privileged=true',
    '--disable-admission-plugins=ServiceAccount',
    ...aggregationArgs(s.pki),
    '--v=0',
    ...s.extraArgs,
  ];
}

/**
 * The aggregation layer: the apiserver proxies an APIService's requests with the front-proxy
 * client certificate and says who the caller is in these headers (published in
 * kube-system/extension-apiserver-authentication for the aggregated servers). Aggregator routing
 * sends them to the Service's endpoints, not its cluster IP: this control plane has no kube-proxy.
 */
function aggregationArgs(pki: Pki): string[] {
  return [
    `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
    `--requestheader-allowed-names=${frontProxyClientName}`,
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--proxy-client-cert-file=${pki.frontProxyClientCert}`,
    `--proxy-client-key-file=${pki.frontProxyClientKey}`,
    '--enable-aggregator-routing=true',
  ];
}

function httpsGet(
  s: State,
  path: string,
  certs: { cert: Buffer; key: Buffer; ca: Buffer },
): Promise<number> {
  return httpsStatus({ host: '127.0.0.1', port: s.apiPort, path, method: 'GET', ...certs });
}

async function waitForReady(s: State): Promise<void> {
  const certs = {
    cert: await readFile(s.pki.adminCert),
    key: await readFile(s.pki.adminKey),
    ca: await readFile(s.pki.caCert),
  };
  const deadline = Date.now() + s.readyTimeoutMs;
  while (Date.now() < deadline) {
    if (s.apiserver && s.apiserver.child.exitCode !== null) {
      // CI keeps only the test output: the log's last lines say why (e.g. the port was taken).
      const tail = await readLogTail(s.apiserver.logFile, 5);
      throw new Error(
        `cannot start kube-apiserver: exited early, see ${s.apiserver.logFile}:\n${tail}`,
      );
    }
    // The default namespace is created by a bootstrap controller just after readyz.
    if (
      (await httpsGet(s, '/readyz', certs)) === 200 &&
      (await httpsGet(s, '/api/v1/namespaces/default', certs)) === 200
    ) {
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `cannot start kube-apiserver: not ready after ${s.readyTimeoutMs} ms, see ${s.apiserver?.logFile}`,
  );
}

async function waitForEtcd(s: State): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${s.etcdPort}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (s.etcd && s.etcd.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`cannot start etcd, see ${s.etcd?.logFile}`);
}

async function writeKubeconfig(s: State): Promise<string> {
  const b64 = async (p: string): Promise<string> => (await readFile(p)).toString('base64');
  const path = join(s.dir, 'kubeconfig');
  const config = `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:${s.apiPort}
    certificate-authority-data: ${await b64(s.pki.caCert)}
users:
- name: admin
  user:
    client-certificate-data: ${await b64(s.pki.adminCert)}
    client-key-data: ${await b64(s.pki.adminKey)}
contexts:
- name: local
  context:
    cluster: local
    user: admin
    namespace: default
current-context: local
`;
  await writeFile(path, config, { mode: 0o600 });
  return path;
}

async function startApiserverProcess(s: State): Promise<void> {
  s.apiserver = startServerProcess(
    'kube-apiserver',
    s.bins.kubeApiserver,
    apiserverArgs(s),
    join(s.dir, 'kube-apiserver.log'),
    s.detached,
  );
  await waitForReady(s);
}

/** Starts etcd and kube-apiserver; rejects (after cleaning up) if either fails to start. */
export async function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const bins = await resolveBinaries();
  const dir = await mkdtemp(join(options.baseDir ?? tmpdir(), 'cdn-operator-cp-'));
  await mkdir(join(dir, 'apiserver-certs'));
  const [etcdPort, peerPort, apiPort] = (await findFreePorts(3)) as [number, number, number];
  const s: State = {
    bins,
    dir,
    pki: await generatePki(dir),
    etcdPort,
    apiPort,
    extraArgs: options.apiserverArgs ?? [],
    readyTimeoutMs: options.readyTimeoutMs ?? 90_000,
    detached: options.detached ?? false,
  };
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (s.apiserver) await stopServerProcess(s.apiserver);
    if (s.etcd) await stopServerProcess(s.etcd);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    s.etcd = startServerProcess(
      'etcd',
      bins.etcd,
      etcdArgs(s, peerPort),
      join(dir, 'etcd.log'),
      s.detached,
    );
    await waitForEtcd(s);
    await startApiserverProcess(s);
    const kubeconfigPath = await writeKubeconfig(s);
    return {
      kubeconfigPath,
      server: `https://127.0.0.1:${apiPort}`,
      dir,
      pki: s.pki,
      pids: () => [s.etcd?.pid, s.apiserver?.pid].filter((p): p is number => p !== undefined),
      stopApiserver: async () => {
        if (s.apiserver) await stopServerProcess(s.apiserver);
      },
      startApiserver: () => startApiserverProcess(s),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
