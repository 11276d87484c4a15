/**
 * CdnAccounts and Namespaces are watched (issue 27 item 4, issue 28 item 5), on a real
 * apiserver with cdn-sim and real operator processes:
 * - in steady state a reconcile pass makes no uncached GET of a CdnAccount, a Namespace or the
 *   account's Secret (counted by the operator's own `kube_api_requests_total`);
 * - labelling a namespace re-enqueues the objects refused AccountNotAllowed at once, not at
 *   their next backoff retry;
 * - a CdnAccount's Ready condition follows a spec change and its Secret's creation within
 *   seconds (no 60 s list loop);
 * - a standby replica (leader election) writes no CdnAccount status.
 */
import test from 'ava';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { accountJson, deleteAccount, namespacesSelector } from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  kubectl,
  kubectlRaw,
  patchObject,
  waitFor,
  waitForCondition,
  type KubeJson,
} from '../support/kube.js';
import { secretYaml } from '../support/operator-env.js';
import { metricValue, startOperator, type OperatorProcess } from '../support/operator.js';

const API_KEY = 'e2e-account-watch-key-4b2e';
const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
const ACCOUNTS = 'cdnaccounts.accounts.cdn.operator.io';
const LEASE = 'cdn-operator-account-watch';

let opNs = '';
let team = '';
let closed = '';
let account = '';
let openLabel = '';
let sim: SimulatorHandle;
let leader: OperatorProcess;
const kubeconfig = process.env.KUBECONFIG ?? '';
const extraAccounts: string[] = [];

function operatorArgs(operatorNamespace: string): string[] {
  return [
    '--namespace',
    `${team},${closed}`,
    '--secret-namespace',
    `${team},${closed},${operatorNamespace}`,
    '--api-url',
    sim.url,
    '--operator-namespace',
    operatorNamespace,
    '--default-account',
    account,
    '--leader-elect',
    '--leader-election-namespace',
    opNs,
    '--leader-election-id',
    LEASE,
  ];
}

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  opNs = await createNamespace('e2e-aw-op');
  team = await createNamespace('e2e-aw-team');
  closed = await createNamespace('e2e-aw-closed');
  account = `e2e-${opNs}`;
  openLabel = `e2e.cdn.operator.io/${opNs}`;
  await kubectl(['label', 'namespace', team, `${openLabel}=open`]);
  await apply(secretYaml(opNs, 'bunny', { apiKey: API_KEY }));
  // Served only by operators of opNs: operators of other e2e files leave it alone.
  await apply(accountJson(account, 'bunny', { matchLabels: { [openLabel]: 'open' } }, opNs));
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  leader = await startOperator({ kubeconfig, args: operatorArgs(opNs) });
  await waitFor(
    async () => metricValue(await leader.metrics(), 'cdn_operator_leader') === 1,
    60_000,
    'leader',
  );
});

test.after.always(async () => {
  for (const ns of [team, closed])
    if (ns) await kubectlRaw(['delete', PZC, '--all', '-n', ns, '--wait=false']);
  await leader?.stop();
  await sim?.close();
  for (const a of [account, ...extraAccounts]) if (a) await deleteAccount(a);
  for (const ns of [opNs, team, closed]) if (ns) await deleteNamespace(ns);
});

function pzcJson(ns: string, name: string, annotations: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: ns, annotations },
    spec: { deletionPolicy: 'Delete', settings: { originUrl: 'https://o.example.com' } },
  });
}

async function getAccount(name: string): Promise<KubeJson | undefined> {
  const r = await kubectlRaw(['get', ACCOUNTS, name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as KubeJson) : undefined;
}

/** GETs (uncached reads) the operator made of a resource so far. */
async function gets(op: OperatorProcess, resource: string): Promise<number> {
  return (
    metricValue(await op.metrics(), 'cdn_operator_kube_api_requests_total', {
      verb: 'GET',
      resource,
    }) ?? 0
  );
}

function observesOf(zoneId: number): number {
  return sim.calls
    .snapshot()
    .log.filter((c) => c.method === 'GET' && c.path === `/pullzone/${zoneId}`).length;
}

test.serial(
  'steady state: a pass makes no uncached GET of account, namespace or Secret',
  async (t) => {
    const name = `${team}-steady`;
    await apply(pzcJson(team, name));
    const ready = await waitForCondition(PZC, team, name, 'Ready', 'True', undefined, 60_000);
    const zoneId = Number(ready.status?.pullZoneId);
    await new Promise((r) => setTimeout(r, 1_000));
    const before = {
      accounts: await gets(leader, 'cdnaccounts'),
      namespaces: await gets(leader, 'namespaces'),
      secrets: await gets(leader, 'secrets'),
    };
    const passes = 5;
    for (let i = 0; i < passes; i++) {
      const seen = observesOf(zoneId);
      await patchObject(PZC, team, name, {
        metadata: { annotations: { 'cdn.operator.io/reconcile-requested-at': `pass-${i}` } },
      });
      await waitFor(() => observesOf(zoneId) > seen, 30_000, `pass ${i}`);
    }
    await new Promise((r) => setTimeout(r, 500));
    const after = {
      accounts: await gets(leader, 'cdnaccounts'),
      namespaces: await gets(leader, 'namespaces'),
      secrets: await gets(leader, 'secrets'),
    };
    t.deepEqual(
      {
        accounts: after.accounts - before.accounts,
        namespaces: after.namespaces - before.namespaces,
        secrets: after.secrets - before.secrets,
      },
      { accounts: 0, namespaces: 0, secrets: 0 },
      `uncached GETs during ${passes} passes`,
    );
  },
);

test.serial('labelling a namespace re-enqueues its refused objects at once', async (t) => {
  const name = `${closed}-web`;
  await apply(pzcJson(closed, name));
  await waitForCondition(PZC, closed, name, 'Synced', 'False', 'AccountNotAllowed', 60_000);
  // Let the per-item backoff grow (1, 2, 4, 8, 16 s...): the next retry is far away now.
  await new Promise((r) => setTimeout(r, 35_000));
  const labelled = Date.now();
  await kubectl(['label', 'namespace', closed, `${openLabel}=open`]);
  await waitForCondition(PZC, closed, name, 'Ready', 'True', undefined, 60_000);
  const tookMs = Date.now() - labelled;
  t.true(tookMs < 10_000, `Ready ${tookMs} ms after the label (not at the next retry)`);
});

test.serial(
  'a CdnAccount follows its spec and its Secret within seconds, not at a 60 s tick',
  async (t) => {
    const name = `${account}-moving`;
    extraAccounts.push(name);
    await apply(accountJson(name, 'later', namespacesSelector(team), opNs));
    const ours = (reason: string) => async () => {
      const c = conditionOf(await getAccount(name), 'Ready');
      return c?.reason === reason && c.message.includes(`${opNs}/`) ? c : undefined;
    };
    let since = Date.now();
    await waitFor(ours('SecretNotFound'), 60_000, 'SecretNotFound', 200);
    const first = Date.now() - since;
    since = Date.now();
    await apply(secretYaml(opNs, 'later', { apiKey: API_KEY }));
    await waitFor(ours('SecretResolved'), 60_000, 'SecretResolved after the Secret', 200);
    const second = Date.now() - since;
    since = Date.now();
    await kubectl([
      'patch',
      ACCOUNTS,
      name,
      '--type',
      'merge',
      '-p',
      JSON.stringify({ spec: { secretRef: { key: 'missing' } } }),
    ]);
    await waitFor(ours('KeyMissing'), 60_000, 'KeyMissing after the spec change', 200);
    const third = Date.now() - since;
    for (const [what, ms] of [
      ['created', first],
      ['Secret created', second],
      ['spec changed', third],
    ] as const)
      t.true(ms < 15_000, `${what}: ${ms} ms`);
  },
);

test.serial('a standby replica writes no CdnAccount status', async (t) => {
  // Served by every operator (no secretRef.namespace): a standby with another
  // --operator-namespace would report "Secret <its namespace>/bunny not found" if it wrote.
  const name = `${account}-standby`;
  extraAccounts.push(name);
  const otherNs = `${opNs}-standby`;
  await apply(accountJson(name, 'bunny', namespacesSelector(team)));
  const standby = await startOperator({ kubeconfig, args: operatorArgs(otherNs) });
  try {
    t.is(metricValue(await standby.metrics(), 'cdn_operator_leader'), 0, 'a standby');
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline) {
      const c = conditionOf(await getAccount(name), 'Ready');
      t.false(c?.message.includes(otherNs) ?? false, `standby wrote: ${JSON.stringify(c)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await standby.stop();
  }
});
