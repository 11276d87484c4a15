/**
 * The Helm chart on the shared local apiserver: `helm template` passes a server-side dry run,
 * `helm install` succeeds into its own namespace (objects, RBAC, no webhooks), and the RBAC
 * proof: the operator runs with a token of the chart's ServiceAccount (not admin) and
 * reconciles one object of each kind from examples/ to Ready, while `kubectl auth can-i
 * --list` for that account shows nothing beyond the least-privilege list.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { exampleKinds, KINDS } from '../../../src/controllers/kinds.js';
import { exampleObjects } from '../../support/examples.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyAllCrds } from '../support/crds.js';
import { startOperator, metricValue, type OperatorProcess } from '../support/operator.js';
import {
  CHART,
  ROOT,
  parseObjects,
  resolveHelm,
  run,
  type KubeObject,
  type RunResult,
} from '../../unit/packaging/tools.js';
import {
  AUTHENTICATED_DEFAULTS,
  expectedAccountRules,
  expectedAccountSecretRules,
  expectedLeaseRules,
  expectedSecretRules,
  expectedWorkloadRules,
  flattenRules,
} from '../../unit/packaging/rbac-expected.js';
import { freeCertificateHostnames } from '../../../hack/demo/example-hostnames.js';

const kubeconfig = process.env.KUBECONFIG ?? '';
const suffix = randomBytes(3).toString('hex');
const release = `pkg-helm-${suffix}`;
const releaseNs = `pkg-helm-${suffix}`;
const workNs = `pkg-work-${suffix}`;
const fullname = `${release}-cdn-operator`;
const leaseName = 'cdn-operator.cdn.operator.io';
const API_KEY = `pkg-key-${suffix}`;

let helm = '';
let tmp = '';
let saKubeconfig = '';
let sim: SimulatorHandle | undefined;
let operator: OperatorProcess | undefined;
// Chart defaults: the examples must work without Secret writes (outputs.enabled=false).
const outputs = false;

function kubectl(args: string[], input?: string, config = kubeconfig): Promise<RunResult> {
  return run('kubectl', ['--kubeconfig', config, ...args], input === undefined ? {} : { input });
}

function helmRun(args: string[]): Promise<RunResult> {
  return run(helm, ['--kubeconfig', kubeconfig, ...args]);
}

/** examples/*.yaml by kind. */
async function readExamples(): Promise<Map<string, string>> {
  const dir = join(ROOT, 'examples');
  const out = new Map<string, string>();
  for (const f of (await readdir(dir)).filter((x) => x.endsWith('.yaml')).sort()) {
    const text = await readFile(join(dir, f), 'utf8');
    for (const o of parseObjects(text)) out.set(o.kind, (out.get(o.kind) ?? '') + `---\n${text}`);
  }
  return out;
}

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  helm = await resolveHelm();
  tmp = await mkdtemp(join(tmpdir(), 'cdn-operator-helm-'));
  for (const ns of [releaseNs, workNs]) {
    const created = await kubectl(['create', 'namespace', ns]);
    if (created.code !== 0) throw new Error(`cannot create namespace ${ns}: ${created.stderr}`);
  }
  // The server-side dry run of a CdnAccount needs its CRD (helm install skips existing CRDs).
  await applyAllCrds();
});

test.after.always(async () => {
  await operator?.stop();
  await sim?.close();
  if (helm) await helmRun(['uninstall', release, '-n', releaseNs, '--wait=false']);
  for (const ns of [releaseNs, workNs]) await kubectl(['delete', 'namespace', ns, '--wait=false']);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test.serial(
  'helm template output passes a server-side dry run (defaults and all options)',
  async (t) => {
    const variants: string[][] = [
      [],
      [
        'outputs.enabled=true',
        'networkPolicy.enabled=true',
        'defaultAccount.secretName=bunny',
        `defaultAccount.name=${release}-dry`,
        `secretAccess.namespaces={${workNs}}`,
        `watchNamespaces={${workNs}}`,
        'pdb.maxUnavailable=null',
        'pdb.minAvailable=1',
      ],
    ];
    for (const values of variants) {
      const rendered = await run(helm, [
        'template',
        release,
        CHART,
        '-n',
        releaseNs,
        '--include-crds',
        ...values.flatMap((v) => ['--set', v]),
      ]);
      t.is(rendered.code, 0, rendered.stderr);
      const dry = await kubectl(['apply', '--dry-run=server', '-f', '-'], rendered.stdout);
      t.is(dry.code, 0, `values ${values.join(' ')}: ${dry.stderr}`);
      const objects = parseObjects(rendered.stdout).length;
      t.is(dry.stdout.trim().split('\n').length, objects, dry.stdout);
    }
  },
);

test.serial('helm install succeeds: objects exist, RBAC bound, no webhooks', async (t) => {
  const installed = await helmRun([
    'install',
    release,
    CHART,
    '-n',
    releaseNs,
    '--set',
    `outputs.enabled=${outputs}`,
    // Tenant Secrets readable in workNs only; the default account open to workNs only.
    '--set',
    `secretAccess.namespaces={${workNs}}`,
    '--set',
    'defaultAccount.secretName=cdn-credentials',
    '--set',
    `defaultAccount.name=${release}`,
    '--set-json',
    `defaultAccount.namespaceSelector={"matchLabels":{"kubernetes.io/metadata.name":"${workNs}"}}`,
  ]);
  t.is(installed.code, 0, installed.stderr);
  t.regex(installed.stdout, /STATUS: deployed/);
  const manifest = await helmRun(['get', 'manifest', release, '-n', releaseNs]);
  const objects: KubeObject[] = parseObjects(manifest.stdout);
  t.true(objects.length >= 8, manifest.stdout);
  for (const o of objects) {
    const ns = o.metadata.namespace ? ['-n', o.metadata.namespace] : [];
    const group = o.apiVersion.includes('/') ? `.${o.apiVersion.split('/')[0]}` : '';
    const got = await kubectl([
      'get',
      `${o.kind.toLowerCase()}${group}`,
      o.metadata.name,
      ...ns,
      '-o',
      'name',
    ]);
    t.is(got.code, 0, `${o.kind}/${o.metadata.name}: ${got.stderr}`);
  }
  const crdNames = KINDS.map(crdNameOf);
  t.is((await readdir(join(CHART, 'crds'))).length, crdNames.length, 'one chart CRD per kind');
  for (const crd of crdNames) t.is((await kubectl(['get', 'crd', crd, '-o', 'name'])).code, 0, crd);
  const deploy = await kubectl(['get', 'deploy', fullname, '-n', releaseNs, '-o', 'json']);
  const spec = (
    JSON.parse(deploy.stdout) as {
      spec: { replicas: number; template: { spec: { serviceAccountName: string } } };
    }
  ).spec;
  t.is(spec.replicas, 2);
  t.is(spec.template.spec.serviceAccountName, fullname);
  const hooks = await kubectl([
    'get',
    'validatingwebhookconfigurations,mutatingwebhookconfigurations',
    '-o',
    'name',
  ]);
  t.is(hooks.code, 0, hooks.stderr);
  t.is(hooks.stdout.trim(), '', 'the chart installs no admission webhooks');
  const status = await helmRun(['status', release, '-n', releaseNs, '-o', 'json']);
  t.is((JSON.parse(status.stdout) as { info: { status: string } }).info.status, 'deployed');
});

test.serial(
  'a kubeconfig with a token of the chart ServiceAccount authenticates as that account',
  async (t) => {
    const token = await kubectl(['create', 'token', fullname, '-n', releaseNs, '--duration=1h']);
    t.is(token.code, 0, token.stderr);
    const view = await kubectl(['config', 'view', '--raw', '--minify', '-o', 'json']);
    const cfg = JSON.parse(view.stdout) as {
      clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    };
    const cluster = cfg.clusters[0]!.cluster;
    saKubeconfig = join(tmp, 'sa-kubeconfig');
    await writeFile(
      saKubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "${cluster.server}", certificate-authority-data: ${cluster['certificate-authority-data']}}}]
users: [{name: operator, user: {token: ${token.stdout.trim()}}}]
contexts: [{name: local, context: {cluster: local, user: operator, namespace: ${workNs}}}]
current-context: local
`,
      { mode: 0o600 },
    );
    const who = await kubectl(
      ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'],
      undefined,
      saKubeconfig,
    );
    t.is(who.stdout, `system:serviceaccount:${releaseNs}:${fullname}`, who.stderr);
    const denied = await kubectl(['get', 'pods', '-n', workNs], undefined, saKubeconfig);
    t.not(denied.code, 0, 'pods are not in the list');
    t.regex(denied.stderr, /forbidden/i);
  },
);

/** Parses the `kubectl auth can-i --list` table into `resource[name] verb` and URL entries. */
function parseCanIList(text: string): { resources: Set<string>; urls: Set<string> } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = lines.shift() ?? '';
  const urlCol = header.indexOf('Non-Resource URLs');
  const nameCol = header.indexOf('Resource Names');
  const verbCol = header.indexOf('Verbs');
  const list = (s: string): string[] =>
    s
      .trim()
      .replace(/^\[|\]$/g, '')
      .split(' ')
      .filter(Boolean);
  const resources = new Set<string>();
  const urls = new Set<string>();
  for (const line of lines) {
    const resource = line.slice(0, urlCol).trim();
    const names = list(line.slice(nameCol, verbCol));
    const verbs = list(line.slice(verbCol));
    for (const verb of verbs) {
      if (resource === '')
        for (const u of list(line.slice(urlCol, nameCol))) urls.add(`${u} ${verb}`);
      else if (names.length === 0) resources.add(`${resource} ${verb}`);
      else for (const n of names) resources.add(`${resource}[${n}] ${verb}`);
    }
  }
  return { resources, urls };
}

// Discovery and health URLs every authenticated user may GET (system:discovery,
// system:public-info-viewer, system:service-account-issuer-discovery).
const PUBLIC_URL =
  /^\/(api|apis|healthz|livez|readyz|version|openapi|\.well-known\/openid-configuration|openid\/v1\/jwks)(\/\*?)? get$/;

test.serial(
  'kubectl auth can-i --list for the ServiceAccount shows exactly the least-privilege list',
  async (t) => {
    t.truthy(saKubeconfig, 'needs the ServiceAccount kubeconfig from the previous test');
    const workload = flattenRules(expectedWorkloadRules(outputs));
    const accounts = flattenRules(expectedAccountRules());
    const cases = [
      {
        ns: releaseNs,
        expected: new Set([
          ...workload,
          ...accounts,
          ...flattenRules(expectedAccountSecretRules()),
          ...flattenRules(expectedLeaseRules(leaseName)),
          ...AUTHENTICATED_DEFAULTS,
        ]),
      },
      {
        ns: workNs,
        expected: new Set([
          ...workload,
          ...accounts,
          ...flattenRules(expectedSecretRules(outputs)),
          ...AUTHENTICATED_DEFAULTS,
        ]),
      },
    ];
    for (const c of cases) {
      const list = await kubectl(['auth', 'can-i', '--list', '-n', c.ns], undefined, saKubeconfig);
      t.is(list.code, 0, list.stderr);
      const { resources, urls } = parseCanIList(list.stdout);
      t.deepEqual(
        [...resources].sort(),
        [...c.expected].sort(),
        `namespace ${c.ns}:\n${list.stdout}`,
      );
      t.deepEqual(
        [...urls].filter((u) => !PUBLIC_URL.test(u)),
        [],
        'only public discovery URLs',
      );
    }
  },
);

test.serial(
  'the operator running as the ServiceAccount reconciles every example kind to Ready',
  async (t) => {
    t.truthy(saKubeconfig, 'needs the ServiceAccount kubeconfig');
    const examples = await readExamples();
    const kinds = exampleKinds().map((k) => k.kind);
    // examples/ also holds the Secret and ConfigMap the ContainerApp reads.
    t.deepEqual(
      [...examples.keys()].filter((k) => kinds.includes(k)).sort(),
      [...kinds].sort(),
      'one example per kind',
    );
    const secret = await kubectl([
      'create',
      'secret',
      'generic',
      'cdn-credentials',
      '-n',
      releaseNs,
      `--from-literal=apiKey=${API_KEY}`,
    ]);
    t.is(secret.code, 0, secret.stderr);
    sim = await startSimulator({
      apiKeys: [{ key: API_KEY }],
      externalDns: freeCertificateHostnames(),
    });
    operator = await startOperator({
      kubeconfig: saKubeconfig,
      // Code that loads the kubeconfig on its own (e.g. the outputs Secret writer) sees the
      // same ServiceAccount, never the admin kubeconfig of the test run.
      env: { KUBECONFIG: saKubeconfig, POD_NAMESPACE: releaseNs },
      args: [
        '--namespace',
        workNs,
        '--api-url',
        sim.url,
        '--operator-namespace',
        releaseNs,
        '--default-account',
        release,
        '--leader-elect',
        '--leader-election-id',
        leaseName,
        '--poll-interval',
        '30s',
      ],
    });
    const applied = await kubectl(['apply', '-n', workNs, '-f', join(ROOT, 'examples')]);
    t.is(applied.code, 0, applied.stderr);
    for (const { kind: k, name } of exampleObjects()) {
      const kind = k.kind;
      const waited = await kubectl([
        'wait',
        `${crdNameOf(k)}/${name}`,
        '-n',
        workNs,
        '--for=condition=Ready',
        '--timeout=120s',
      ]);
      const conditions = await kubectl([
        'get',
        `${crdNameOf(k)}/${name}`,
        '-n',
        workNs,
        '-o',
        'jsonpath={.status.conditions}',
      ]);
      t.is(
        waited.code,
        0,
        `${kind}/${name} not Ready: ${conditions.stdout}\n${operator.output().slice(-3000)}`,
      );
    }
    // Nothing the operator asked the apiserver for was denied.
    const metrics = await operator.metrics();
    t.is(
      metricValue(metrics, 'cdn_operator_kube_api_requests_total', { code: '403' }),
      undefined,
      'no 403 from Kubernetes',
    );
    t.notRegex(operator.output(), /forbidden/i);
    // Leader election and Events worked with the granted verbs.
    const lease = await kubectl([
      'get',
      'lease',
      leaseName,
      '-n',
      releaseNs,
      '-o',
      'jsonpath={.spec.holderIdentity}',
    ]);
    t.is(lease.code, 0, lease.stderr);
    t.not(lease.stdout, '', 'the lease has a holder');
    const events = await kubectl(['get', 'events.events.k8s.io', '-n', workNs, '-o', 'name']);
    t.not(events.stdout.trim(), '', 'the operator recorded Events');
  },
);

test.serial('helm uninstall removes the release objects and keeps the CRDs', async (t) => {
  const crds = await readdir(join(CHART, 'crds'));
  await operator?.stop();
  operator = undefined;
  const removed = await helmRun(['uninstall', release, '-n', releaseNs]);
  t.is(removed.code, 0, removed.stderr);
  const cr = await kubectl(['get', 'clusterrole', fullname, '--ignore-not-found', '-o', 'name']);
  t.is(cr.stdout.trim(), '');
  for (const f of crds) {
    const name = f.replace(/^(.+)_(.+)\.yaml$/, '$2.$1');
    t.is((await kubectl(['get', 'crd', name, '-o', 'name'])).code, 0, `${name} kept`);
  }
});
