/**
 * Accounts and tenancy end to end (issue 13 items 5, 9, 10; issue 16 item 7), on a real
 * apiserver with cdn-sim and a real operator process watching two tenant namespaces:
 * - an object in a namespace outside its CdnAccount's namespaceSelector gets Synced=False
 *   AccountNotAllowed naming account and namespace, and the platform sees ZERO calls;
 *   labelling the namespace opens it and the object becomes Ready;
 * - prototype keys (`__proto__`, `constructor`) in credentialsRef/secretKeyRef are ordinary
 *   missing keys, and a missing Secret is told apart from a missing key;
 * - with cdn-sim echoing request bodies in a 400, no Secret-sourced value (AWS signing key and
 *   secret, log forwarding token, app env from a Secret) appears in the log, events,
 *   conditions or metrics.
 */
import test, { type ExecutionContext } from 'ava';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { accountJson, deleteAccount, namespacesSelector } from '../support/account.js';
import { applyAllCrds } from '../support/crds.js';
import {
  apply,
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

const API_KEY = 'e2e-accounts-api-key-7c1d';
const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
const CAPP = 'containerapps.containers.cdn.operator.io';

let opNs = '';
let teamA = '';
let teamB = '';
let account = '';
let openLabel = '';
let sim: SimulatorHandle;
let op: OperatorProcess;

test.before(async () => {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  opNs = await createNamespace('e2e-acct-op');
  teamA = await createNamespace('e2e-acct-a');
  teamB = await createNamespace('e2e-acct-b');
  account = `e2e-${opNs}`;
  openLabel = `e2e.cdn.operator.io/${opNs}`;
  await apply(secretYaml(opNs, 'bunny', { apiKey: API_KEY }));
  await apply(accountJson(account, 'bunny', { matchLabels: { [openLabel]: 'open' } }));
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  op = await startOperator({
    kubeconfig,
    args: [
      '--namespace',
      `${teamA},${teamB}`,
      '--api-url',
      sim.url,
      '--operator-namespace',
      opNs,
      '--default-account',
      account,
      '--poll-interval',
      '30s',
    ],
  });
});

test.after.always(async () => {
  for (const ns of [teamA, teamB]) {
    if (!ns) continue;
    await kubectlRaw(['delete', PZC, '--all', '-n', ns, '--wait=false']);
    await kubectlRaw(['delete', CAPP, '--all', '-n', ns, '--wait=false']);
  }
  await op?.stop();
  await sim?.close();
  for (const ns of [opNs, teamA, teamB]) if (ns) await deleteNamespace(ns);
  if (account) await deleteAccount(account);
});

function pzcJson(ns: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: ns },
    spec: { deletionPolicy: 'Delete', ...spec },
  });
}

function cappJson(ns: string, name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerApp',
    metadata: { name, namespace: ns },
    spec,
  });
}

function container(env: Record<string, unknown>[]): Record<string, unknown> {
  return {
    name: 'web',
    imageName: 'nginx',
    imageNamespace: 'library',
    imageTag: '1.25',
    imageRegistryId: 'dockerhub',
    environmentVariables: env,
  };
}

async function waitCondition(
  resource: string,
  ns: string,
  name: string,
  type: string,
  check: (c: { status: string; reason?: string; message?: string }) => boolean,
  timeoutMs = 60_000,
): Promise<KubeJson> {
  let last: unknown;
  try {
    return await waitFor(
      async () => {
        const obj = await getObject(resource, ns, name);
        last = obj?.status?.conditions;
        const c = conditionOf(obj, type);
        return c && check(c) ? obj : undefined;
      },
      timeoutMs,
      `${resource} ${ns}/${name} ${type}`,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last conditions: ${JSON.stringify(last)}`, {
      cause: err,
    });
  }
}

function platformCalls(): number {
  return sim.calls.snapshot().log.length;
}

async function getAccount(name: string): Promise<KubeJson | undefined> {
  const r = await kubectlRaw(['get', 'cdnaccounts.accounts.cdn.operator.io', name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as KubeJson) : undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** AccountNotAllowed naming account and namespace, and how to open the account to it. */
function checkRefusal(
  t: ExecutionContext,
  synced: { reason?: string; message?: string } | undefined,
  ns: string,
): void {
  t.is(synced?.reason, 'AccountNotAllowed', JSON.stringify(synced));
  const message = synced?.message ?? '';
  t.true(message.includes(`CdnAccount ${account}`), message);
  t.true(message.includes(`namespace ${ns}`), message);
  // How to open it: the label its selector wants, on this very namespace.
  t.true(message.includes(`kubectl label namespace ${ns} ${openLabel}=open`), message);
}

// Runs first: no other object exists yet, so every platform call would be the refused one's.
test.serial(
  'a namespace outside the account selector: AccountNotAllowed, zero platform calls; a label opens it',
  async (t) => {
    await apply(
      pzcJson(teamA, `${teamA}-web`, { settings: { originUrl: 'https://a.example.com' } }),
    );
    await apply(
      pzcJson(teamB, `${teamB}-web`, {
        accountRef: { name: account },
        settings: { originUrl: 'https://b.example.com' },
      }),
    );
    for (const [ns, name] of [
      [teamA, `${teamA}-web`],
      [teamB, `${teamB}-web`],
    ] as const) {
      const obj = await waitCondition(PZC, ns, name, 'Synced', (c) => c.status === 'False');
      checkRefusal(t, conditionOf(obj, 'Synced'), ns);
    }
    // A few retries later, still nothing reached the platform.
    await sleep(5_000);
    t.is(platformCalls(), 0, JSON.stringify(sim.calls.snapshot().log.slice(0, 5)));

    await kubectl(['label', 'namespace', teamA, `${openLabel}=open`]);
    const ready = await waitCondition(
      PZC,
      teamA,
      `${teamA}-web`,
      'Ready',
      (c) => c.status === 'True',
      120_000,
    );
    t.truthy(ready.status?.pullZoneId);
    t.true(platformCalls() > 0);
    // teamB stays closed.
    const b = await getObject(PZC, teamB, `${teamB}-web`);
    t.is(conditionOf(b, 'Synced')?.reason, 'AccountNotAllowed');
    t.falsy(b?.status?.pullZoneId);
  },
);

test.serial(
  'a missing credentials Secret is reported by the first pass: READY and SYNCED are never blank for the 30 s recheck',
  async (t) => {
    const name = `${teamA}-nocreds`;
    await apply(
      pzcJson(teamA, name, {
        credentialsRef: { name: 'never-created' },
        settings: { originUrl: 'https://n.example.com' },
      }),
    );
    const obj = await waitCondition(PZC, teamA, name, 'Ready', (c) => c.status === 'False');
    const ready = conditionOf(obj, 'Ready') as { reason?: string; lastTransitionTime?: string };
    t.is(ready.reason, 'CredentialsNotFound');
    t.truthy(conditionOf(obj, 'Synced')?.status, 'SYNCED is filled too');
    // The first pass wrote it: well before the 30 s recheck that used to be the first report.
    const created = Date.parse(
      String((obj.metadata as { creationTimestamp?: string }).creationTimestamp),
    );
    const reported = Date.parse(String(ready.lastTransitionTime));
    t.true(reported - created < 20_000, `reported ${reported - created} ms after creation`);
  },
);

test.serial(
  'prototype keys are ordinary missing keys; a missing Secret is not a missing key',
  async (t) => {
    await apply(secretYaml(teamA, 'tenant-creds', { apiKey: API_KEY }));
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'proto',
        { name: 'tenant-creds', key: '__proto__' },
        /key "__proto__" missing in Secret .*\/tenant-creds/,
      ],
      [
        'ctor',
        { name: 'tenant-creds', key: 'constructor' },
        /key "constructor" missing in Secret .*\/tenant-creds/,
      ],
      ['nosecret', { name: 'absent-creds' }, /Secret .*\/absent-creds not found/],
    ];
    for (const [suffix, credentialsRef] of cases) {
      await apply(
        pzcJson(teamA, `${teamA}-${suffix}`, {
          credentialsRef,
          settings: { originUrl: 'https://p.example.com' },
        }),
      );
    }
    for (const [suffix, , message] of cases) {
      const obj = await waitCondition(
        PZC,
        teamA,
        `${teamA}-${suffix}`,
        'Ready',
        (c) => c.reason === 'CredentialsNotFound',
      );
      const ready = conditionOf(obj, 'Ready');
      t.regex(ready?.message ?? '', message);
      t.notRegex(ready?.message ?? '', /is not a function/);
    }

    // A secretKeyRef key `constructor` waits for the key instead of writing every poll.
    await apply(secretYaml(teamA, 'app-env', { token: 'not-used-value-1234' }));
    await apply(
      cappJson(teamA, 'ctor-app', {
        name: `${teamA}-ctor-app`,
        autoScaling: { min: 1, max: 1 },
        containerTemplates: [
          container([
            { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-env', key: 'constructor' } } },
          ]),
        ],
      }),
    );
    const app = await waitCondition(
      CAPP,
      teamA,
      'ctor-app',
      'Ready',
      (c) => c.reason === 'ReferenceNotReady',
    );
    t.regex(conditionOf(app, 'Ready')?.message ?? '', /key "constructor"/);
    t.falsy(app.status?.appId);
  },
);

const AWS_KEY = 'AKIA-E2E-SIGNING-KEY-93af';
const AWS_SECRET = 'aws-e2e-signing-secret-5be27c';
const LOG_TOKEN = 'log-forwarding-token-e2e-61d0';
const APP_SECRET = 'app-env-secret-value-e2e-2f8a';

test.serial(
  'echoed request bodies: no Secret-sourced value in log, events, conditions or metrics',
  async (t) => {
    await apply(
      secretYaml(teamA, 'origin-signing', { key: AWS_KEY, secret: AWS_SECRET, token: LOG_TOKEN }),
    );
    await apply(secretYaml(teamA, 'app-secrets', { token: APP_SECRET }));
    await kubectl(['label', '--overwrite', 'namespace', teamA, `${openLabel}=open`]);
    sim.faults.set({ echoBodyRoutes: ['POST /pullzone', 'POST /pullzone/{id}', 'POST /mc/apps'] });
    const zone = `${teamA}-signed`;
    await apply(
      pzcJson(teamA, zone, {
        settings: {
          originUrl: 'https://s.example.com',
          awsSigningEnabled: true,
          awsSigningRegionName: 'us-east-1',
          awsSigningAccessKeyIdSecretRef: { name: 'origin-signing', key: 'key' },
          awsSigningSecretAccessKeySecretRef: { name: 'origin-signing', key: 'secret' },
          logForwardingEnabled: true,
          logForwardingHostname: 'logs.example.com',
          logForwardingPort: 514,
          logForwardingTokenSecretRef: { name: 'origin-signing', key: 'token' },
        },
      }),
    );
    await apply(
      cappJson(teamA, 'echo-app', {
        name: `${teamA}-echo-app`,
        autoScaling: { min: 1, max: 1 },
        containerTemplates: [
          container([
            { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'app-secrets', key: 'token' } } },
          ]),
        ],
      }),
    );
    const pzc = await waitCondition(
      PZC,
      teamA,
      zone,
      'Synced',
      (c) => c.status === 'False' && c.reason === 'InvalidSpec',
    );
    const capp = await waitCondition(
      CAPP,
      teamA,
      'echo-app',
      'Synced',
      (c) => c.status === 'False' && c.reason === 'InvalidSpec',
    );
    // The platform did echo the bodies (the check can fail), and the echo reached the condition.
    const echoed = sim.calls.snapshot().log.filter((c) => c.status === 400);
    t.true(echoed.some((c) => c.route.startsWith('POST /pullzone')));
    t.true(echoed.some((c) => c.route === 'POST /mc/apps'));
    t.regex(conditionOf(pzc, 'Synced')?.message ?? '', /could not be processed/);
    t.regex(conditionOf(capp, 'Synced')?.message ?? '', /could not be processed/);
    // Let a retry or two and the events happen.
    await sleep(3_000);
    const places: Array<[string, string]> = [
      ['operator log', op.output()],
      ['events', await kubectl(['get', 'events', '-n', teamA, '-o', 'json'])],
      ['objects', await kubectl(['get', `${PZC},${CAPP}`, '-n', teamA, '-o', 'json'])],
      ['metrics', await op.metrics()],
    ];
    for (const [where, text] of places) {
      for (const value of [AWS_KEY, AWS_SECRET, LOG_TOKEN, APP_SECRET, API_KEY]) {
        t.false(text.includes(value), `${value} appears in the ${where}`);
      }
    }
    t.true(op.output().includes('[REDACTED]'), 'the echoed values were masked, not absent');
    sim.faults.set({});
  },
);

test.serial(
  'an account served by another operator namespace (secretRef.namespace) is refused, naming both',
  async (t) => {
    // The Secret exists in this operator's namespace: without the rule this operator would use
    // another release's account with its own Secret.
    const elsewhere = `${account}-elsewhere`;
    const other = `${opNs}-other-release`;
    await apply(accountJson(elsewhere, 'bunny', namespacesSelector(teamA), other));
    t.teardown(() => deleteAccount(elsewhere));
    const name = `${teamA}-elsewhere`;
    await apply(
      pzcJson(teamA, name, {
        accountRef: { name: elsewhere },
        settings: { originUrl: 'https://elsewhere.example.com' },
      }),
    );
    const obj = await waitCondition(PZC, teamA, name, 'Synced', (c) => c.status === 'False');
    const synced = conditionOf(obj, 'Synced');
    t.is(synced?.reason, 'AccountNotAllowed', JSON.stringify(synced));
    t.true(synced?.message?.includes(`namespace ${other}`), synced?.message);
    t.true(synced?.message?.includes(`in ${opNs}`), synced?.message);
    t.falsy(obj.status?.pullZoneId);
    await kubectlRaw(['delete', PZC, name, '-n', teamA, '--wait=false']);
  },
);

test.serial('CdnAccount Ready follows its Secret: SecretResolved, SecretNotFound', async (t) => {
  const ready = await waitFor(
    async () => {
      const a = await getAccount(account);
      const c = conditionOf(a, 'Ready');
      return c?.status === 'True' ? c : undefined;
    },
    90_000,
    'account Ready',
  );
  t.is(ready.reason, 'SecretResolved');
  const broken = `${account}-broken`;
  await apply(accountJson(broken, 'no-such-secret', {}));
  t.teardown(() => deleteAccount(broken));
  // Other e2e files run operators of their own (other --operator-namespace) that also see this
  // cluster-scoped account and report the Secret missing in their namespace: wait for ours.
  const ours = new RegExp(`Secret ${opNs}/no-such-secret not found`);
  const c = await waitFor(
    async () => {
      const cond = conditionOf(await getAccount(broken), 'Ready');
      return cond && ours.test(cond.message ?? '') ? cond : undefined;
    },
    90_000,
    'broken account condition',
  );
  t.is(c.status, 'False');
  t.is(c.reason, 'SecretNotFound');
  t.regex(c.message ?? '', ours);
  const listed = await kubectl(['get', 'cdnaccounts', account, broken]);
  t.regex(listed, /SECRET\s+READY/);
});
