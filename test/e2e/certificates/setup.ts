/**
 * The certificates e2e's test bed: cdn-sim with its DNS listener; the operator watching
 * namespace `shop` (DnsZone `shop.example.com`) and a second tenant namespace (no zone), with
 * its DNS-01 solver on this host's non-loopback address behind an APIService; Pebble validating
 * over cdn-sim's DNS; cert-manager's controllers (their own ServiceAccount, allowed to use the
 * solver as the docs tell an admin to allow it) checking over cdn-sim's DNS too; and an Issuer
 * per namespace with the solver.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCa, signServingCert } from '../../cluster/certs.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { accountJson, deleteAccount, namespacesSelector } from '../support/account.js';
import { registerAggregatedApi } from '../support/aggregated-api.js';
import { certManagerUser, startCertManager, type CertManager } from '../support/cert-manager.js';
import { applyAllCrds } from '../support/crds.js';
import { pickHostAddress } from '../support/host-address.js';
import {
  apply,
  createNamespace,
  deleteNamespace,
  kubectlRaw,
  waitFor,
  waitForCondition,
} from '../support/kube.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { secretYaml } from '../support/operator-env.js';
import { startPebble, type Pebble } from '../support/pebble.js';

export const API_KEY = 'e2e-certificates-key';
export const SHOP = 'shop';
export const DOMAIN = 'shop.example.com';
export const SOLVER_GROUP = 'acme.cdn.operator.io';
export const SOLVER_NAME = 'cdn-operator';
const SOLVER_NAMESPACE = 'cdn-operator-dns01';
const SOLVER_SERVICE = 'cdn-operator-dns01';
const SOLVER_ROLE = 'e2e-cert-manager-uses-cdn-operator-solver';

/** The running test bed. */
export interface CertificatesEnv {
  sim: SimulatorHandle;
  operator: OperatorProcess;
  pebble: Pebble;
  certManager: CertManager;
  /** The second tenant namespace: no DnsZone, the same account. */
  other: string;
  /** cdn-sim's id of the zone of DnsZone shop/shop-example-com. */
  zoneId: number;
  stop(): Promise<void>;
}

/** JSON of an Issuer of `ns` for Pebble whose only solver is the operator's DNS-01 webhook. */
export function issuerJson(ns: string, pebble: Pebble): string {
  return JSON.stringify({
    apiVersion: 'cert-manager.io/v1',
    kind: 'Issuer',
    metadata: { name: 'pebble', namespace: ns },
    spec: {
      acme: {
        server: pebble.directoryUrl,
        caBundle: Buffer.from(pebble.tlsCa).toString('base64'),
        privateKeySecretRef: { name: 'pebble-account' },
        solvers: [{ dns01: { webhook: { groupName: SOLVER_GROUP, solverName: SOLVER_NAME } } }],
      },
    },
  });
}

/** What an admin grants cert-manager so it may call the solver (docs/certificates.md). */
function solverAccessJson(): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: SOLVER_ROLE },
        rules: [{ apiGroups: [SOLVER_GROUP], resources: [SOLVER_NAME], verbs: ['create'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: SOLVER_ROLE },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: SOLVER_ROLE },
        subjects: [
          {
            kind: 'ServiceAccount',
            name: 'cert-manager',
            namespace: certManagerUser.split(':')[2],
          },
        ],
      },
    ],
  });
}

function zoneJson(): string {
  return JSON.stringify({
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name: 'shop-example-com', namespace: SHOP },
    spec: { domain: DOMAIN, records: [{ type: 'A', name: 'origin', value: '192.0.2.10' }] },
  });
}

/** The solver's port, from the operator's `DNS-01 solver listening` line. */
function solverPort(operator: OperatorProcess): Promise<number> {
  return waitFor(
    () => {
      const line = operator.logs().find((l) => l.msg === 'DNS-01 solver listening');
      return typeof line?.port === 'number' ? line.port : undefined;
    },
    30_000,
    'the operator’s DNS-01 solver to listen',
  );
}

async function startSolverOperator(
  dir: string,
  sim: SimulatorHandle,
  other: string,
): Promise<OperatorProcess> {
  const address = pickHostAddress();
  const ca = await createCa(dir, 'solver-ca', 'cdn-operator-e2e-solver-ca');
  // tls.crt and tls.key, the names --dns01-solver-tls-dir reads.
  const tlsDir = join(dir, 'solver-tls');
  await mkdir(tlsDir);
  await signServingCert(tlsDir, 'tls', [`${SOLVER_SERVICE}.${SOLVER_NAMESPACE}.svc`], ca);
  const operator = await startOperator({
    kubeconfig: process.env.KUBECONFIG ?? '',
    args: [
      ...['--namespace', `${SHOP},${other}`, '--api-url', sim.url],
      ...['--operator-namespace', SHOP, '--default-account', SHOP],
      ...['--dns01-solver', '--dns01-solver-listen', `${address}:0`],
      ...['--dns01-solver-tls-dir', tlsDir],
    ],
  });
  await registerAggregatedApi({
    group: SOLVER_GROUP,
    version: 'v1alpha1',
    namespace: SOLVER_NAMESPACE,
    service: SOLVER_SERVICE,
    address,
    port: await solverPort(operator),
    caBundle: await readFile(ca.caCert, 'utf8'),
  });
  return operator;
}

async function createTenants(): Promise<string> {
  await kubectlRaw(['create', 'namespace', SHOP]);
  const other = await createNamespace('cert-other');
  await apply(secretYaml(SHOP, 'cdn-credentials', { apiKey: API_KEY }));
  await apply(accountJson(SHOP, 'cdn-credentials', namespacesSelector(SHOP, other)));
  return other;
}

/** Starts everything; see the module comment. */
export async function startCertificatesEnv(): Promise<CertificatesEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'cdn-e2e-certificates-'));
  await applyAllCrds();
  const other = await createTenants();
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }], dns: {} });
  const dnsServer = sim.dnsAddress ?? '';
  const operator = await startSolverOperator(dir, sim, other);
  await apply(zoneJson());
  const zone = await waitForCondition(
    'dnszones.dns.cdn.operator.io',
    SHOP,
    'shop-example-com',
    'Ready',
    'True',
  );
  const pebble = await startPebble(dir, dnsServer);
  const certManager = await startCertManager(dir, dnsServer);
  await apply(solverAccessJson());
  for (const ns of [SHOP, other]) {
    await apply(issuerJson(ns, pebble));
    await waitForCondition(
      'issuers.cert-manager.io',
      ns,
      'pebble',
      'Ready',
      'True',
      undefined,
      90_000,
    );
  }
  return {
    sim,
    operator,
    pebble,
    certManager,
    other,
    zoneId: Number(zone.status?.dnsZoneId),
    async stop() {
      await certManager.stop();
      await pebble.stop();
      await operator.stop();
      await sim.close();
      await kubectlRaw([
        'delete',
        'clusterrolebinding,clusterrole',
        SOLVER_ROLE,
        '--ignore-not-found',
      ]);
      await kubectlRaw(['delete', 'apiservice', `v1alpha1.${SOLVER_GROUP}`, '--ignore-not-found']);
      await deleteNamespace(other);
      await deleteNamespace(SHOP);
      await deleteNamespace(SOLVER_NAMESPACE);
      await deleteAccount(SHOP);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
