/**
 * The README's install path, run literally on a real apiserver: the commands between the
 * `quickstart:begin` / `quickstart:end` markers of README.md (chart defaults, the documented
 * Secret, `kubectl apply -f examples/` into the namespace the block opens), then every example
 * object must become Ready with no condition False and every printer column filled, be Healthy
 * for Argo CD (evaluated with gopher-lua, the Lua engine Argo CD embeds), and the install notes
 * must describe the default account as the block opened it. cdn-sim runs with its defaults, as
 * a user would start it: a free certificate is refused for a hostname whose DNS does not point
 * at the zone, as on the platform, and no hostname is declared as pointing, so the quick start
 * cannot rely on a hostname the user does not own (issue 53).
 *
 * The README block is the single place the steps live; edit it and this test follows. The
 * only substitutions, needed because e2e files share one apiserver: the namespaces
 * `cdn-operator` and `shop` and the release get a unique suffix, and `<your API key>` is
 * cdn-sim's key. The kubeconfig's current namespace is a fresh namespace the block never
 * names, as a user's context would be: a command that relied on it would put the examples
 * where the account is closed. No cluster node runs pods, so the operator runs as a local
 * process with the chart Deployment's own arguments, authenticated as the chart's
 * ServiceAccount (so the chart's RBAC is what it gets), watching only the block's namespace.
 */
import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { exampleKinds } from '../../../src/controllers/kinds.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { emptyPrinterColumns } from '../support/printer-columns.js';
import { readmeQuickstartSteps } from '../../support/readme-quickstart.js';
import { evaluateWithGopherLua } from '../../unit/packaging/argocd-lua.js';
import {
  ROOT,
  parseObjects,
  resolveHelm,
  run,
  type RunResult,
} from '../../unit/packaging/tools.js';

const adminKubeconfig = process.env.KUBECONFIG ?? '';
const suffix = randomBytes(3).toString('hex');
const releaseNs = `cdn-operator-${suffix}`;
const release = `cdn-operator-${suffix}`;
/** The namespace the README block creates and opens (`shop`), made unique. */
const appNs = `shop-${suffix}`;
/** The user's current namespace: never named by the block, never opened. */
const contextNs = `quickstart-ctx-${suffix}`;
const API_KEY = `quickstart-key-${suffix}`;
const KINDS = exampleKinds();

let tmp = '';
let userKubeconfig = '';
let sim: SimulatorHandle | undefined;
let operator: OperatorProcess | undefined;

/** A README line with this file's substitutions, split into argv (no shell features used). */
function argvOf(line: string): string[] {
  const text = line
    .replace(/<your API key>/g, API_KEY)
    .replace(/(^| )cdn-operator deploy\/helm/, `$1${release} deploy/helm`)
    .replace(/-n cdn-operator\b/g, `-n ${releaseNs}`)
    .replace(/namespace cdn-operator$/, `namespace ${releaseNs}`)
    .replace(/(^|[\s={])shop(?=$|[\s}])/g, `$1${appNs}`);
  if (/[|;&$`"'<>]/.test(text)) throw new Error(`cannot run a shell construct literally: ${line}`);
  return text.split(/\s+/);
}

async function runStep(argv: string[]): Promise<RunResult> {
  const [cmd, ...args] = argv;
  const env = { ...process.env, KUBECONFIG: userKubeconfig };
  if (cmd === 'helm') return run(await resolveHelm(), args, { env });
  if (cmd === 'kubectl') return run('kubectl', args, { env });
  throw new Error(`cannot run ${cmd ?? ''}: the quick start uses only helm and kubectl`);
}

test.before(async () => {
  if (!adminKubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  tmp = await mkdtemp(join(tmpdir(), 'cdn-operator-quickstart-'));
  const created = await run('kubectl', [
    '--kubeconfig',
    adminKubeconfig,
    'create',
    'namespace',
    contextNs,
  ]);
  if (created.code !== 0)
    throw new Error(`cannot create namespace ${contextNs}: ${created.stderr}`);
  // The user's kubeconfig: admin credentials, current namespace one the block never names.
  const view = await run('kubectl', [
    '--kubeconfig',
    adminKubeconfig,
    'config',
    'view',
    '--raw',
    '--minify',
  ]);
  userKubeconfig = join(tmp, 'kubeconfig');
  await writeFile(userKubeconfig, view.stdout, { mode: 0o600 });
  const ctx = await run('kubectl', [
    '--kubeconfig',
    userKubeconfig,
    'config',
    'set-context',
    '--current',
    `--namespace=${contextNs}`,
  ]);
  if (ctx.code !== 0) throw new Error(`cannot set the context namespace: ${ctx.stderr}`);
});

test.after.always(async () => {
  await operator?.stop();
  await sim?.close();
  const helm = await resolveHelm().catch(() => '');
  if (helm && userKubeconfig)
    await run(helm, [
      '--kubeconfig',
      userKubeconfig,
      'uninstall',
      release,
      '-n',
      releaseNs,
      '--wait=false',
    ]);
  for (const ns of [appNs, contextNs, releaseNs])
    await run('kubectl', [
      '--kubeconfig',
      adminKubeconfig,
      'delete',
      'namespace',
      ns,
      '--wait=false',
    ]);
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** The chart Deployment's container args and env, from the installed release. */
async function deploymentArgs(): Promise<string[]> {
  const manifest = await run(await resolveHelm(), [
    '--kubeconfig',
    userKubeconfig,
    'get',
    'manifest',
    release,
    '-n',
    releaseNs,
  ]);
  const deploy = parseObjects(manifest.stdout).find((o) => o.kind === 'Deployment') as unknown as {
    spec: { template: { spec: { containers: { args: string[] }[] } } };
  };
  return deploy.spec.template.spec.containers[0]!.args;
}

/** A kubeconfig with a token of the chart's ServiceAccount. */
async function serviceAccountKubeconfig(): Promise<string> {
  const sa = release; // the chart's fullname for a release that contains the chart name
  const token = await run('kubectl', [
    '--kubeconfig',
    adminKubeconfig,
    'create',
    'token',
    sa,
    '-n',
    releaseNs,
    '--duration=1h',
  ]);
  if (token.code !== 0) throw new Error(`cannot create a token: ${token.stderr}`);
  const view = await run('kubectl', [
    '--kubeconfig',
    adminKubeconfig,
    'config',
    'view',
    '--raw',
    '--minify',
    '-o',
    'json',
  ]);
  const cluster = (
    JSON.parse(view.stdout) as {
      clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    }
  ).clusters[0]!.cluster;
  const path = join(tmp, 'sa-kubeconfig');
  await writeFile(
    path,
    `apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "${cluster.server}", certificate-authority-data: ${cluster['certificate-authority-data']}}}]
users: [{name: operator, user: {token: ${token.stdout.trim()}}}]
contexts: [{name: local, context: {cluster: local, user: operator}}]
current-context: local
`,
    { mode: 0o600 },
  );
  return path;
}

interface Obj {
  kind: string;
  metadata: { name: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

async function exampleObjects(namespace: string): Promise<Obj[]> {
  const got = await run('kubectl', [
    '--kubeconfig',
    userKubeconfig,
    'get',
    KINDS.map(crdNameOf).join(','),
    '-n',
    namespace,
    '-o',
    'json',
  ]);
  if (got.code !== 0) throw new Error(got.stderr);
  return (JSON.parse(got.stdout) as { items: Obj[] }).items;
}

const readyOf = (o: Obj): string =>
  o.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'none';

/** What the install notes must say about the default account the block opened. */
function checkNotes(t: ExecutionContext, notes: string): void {
  t.regex(notes, /NOTES:/, 'helm install printed its notes');
  t.true(notes.includes(`Open to namespace(s) ${appNs} (defaultAccount.namespaces)`), notes);
  t.notRegex(notes, /CLOSED/, notes);
  t.true(notes.includes(`kubectl apply -n ${appNs} -f examples/`), notes);
  t.regex(notes, new RegExp(`Secrets/ConfigMaps readable in: ${releaseNs}, ${appNs} `), notes);
}

/** Runs the README's steps; starts the operator once the chart is installed. */
async function runReadme(t: ExecutionContext, steps: string[], simUrl: string): Promise<void> {
  for (const line of steps) {
    const r = await runStep(argvOf(line));
    t.is(r.code, 0, `${line}\n${r.stderr}`);
    if (!line.startsWith('helm install')) continue;
    checkNotes(t, r.stdout);
    // The Deployment cannot run here: start its arguments as a local process instead.
    const args = (await deploymentArgs()).filter(
      (a) => !/^--(api-url|metrics-bind-address|health-probe-bind-address)=/.test(a),
    );
    operator = await startOperator({
      kubeconfig: await serviceAccountKubeconfig(),
      env: { POD_NAMESPACE: releaseNs, KUBECONFIG: join(tmp, 'sa-kubeconfig') },
      args: [...args, '--api-url', simUrl, '--namespace', appNs, '--poll-interval', '30s'],
    });
  }
}

test.serial(
  'the README quick start, run from a context in another namespace, reaches Ready with every column filled and Argo CD Healthy',
  async (t) => {
    t.timeout(240_000);
    const steps = await readmeQuickstartSteps();
    t.true(
      steps.some((s) => s.startsWith('helm install')),
      steps.join('\n'),
    );
    t.true(
      steps.some((s) => /^kubectl apply .*-f examples\/$/.test(s)),
      steps.join('\n'),
    );
    // cdn-sim with its defaults, as a user starts it: certificates follow DNS like the live
    // API, and no hostname is declared as pointing at the CDN from DNS outside cdn-sim.
    sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
    await runReadme(t, steps, sim.url);
    const files = (await readdir(join(ROOT, 'examples'))).filter((f) => f.endsWith('.yaml'));
    const texts = await Promise.all(files.map((f) => readFile(join(ROOT, 'examples', f), 'utf8')));
    const examples = parseObjects(texts.join('\n---\n')).filter((o) =>
      KINDS.some((k) => k.kind === o.kind),
    );
    t.is(examples.length, KINDS.length, 'one example of each kind');
    const deadline = Date.now() + 150_000;
    let objects: Obj[] = [];
    while (Date.now() < deadline) {
      objects = await exampleObjects(appNs);
      if (objects.length === examples.length && objects.every((o) => readyOf(o) === 'True')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const summary = objects
      .map((o) => `${o.kind}/${o.metadata.name}: ${JSON.stringify(o.status?.conditions)}`)
      .join('\n');
    t.true(
      objects.length === examples.length && objects.every((o) => readyOf(o) === 'True'),
      `not all Ready:\n${summary}\n${operator?.output().slice(-3000) ?? ''}`,
    );
    // Nothing the quick start applies waits on something the user must own (a hostname's DNS):
    // no condition of any object is False, CertificatesReady included.
    const falseConditions = objects.flatMap((o) =>
      (o.status?.conditions ?? [])
        .filter((c) => c.status !== 'True')
        .map((c) => `${o.kind}/${o.metadata.name}: ${c.type}=${c.status} ${c.reason ?? ''}`),
    );
    t.deepEqual(falseConditions, [], summary);
    t.deepEqual(await exampleObjects(contextNs), [], 'nothing landed in the context namespace');
    const empty = await emptyPrinterColumns(
      KINDS.map((k) => k.plural),
      appNs,
      { kubeconfig: userKubeconfig },
    );
    const table = await runStep(argvOf(steps.at(-1)!));
    t.deepEqual(empty, [], `empty printer columns; ${steps.at(-1)!}:\n${table.stdout}`);
    const health = await evaluateWithGopherLua(objects);
    objects.forEach((o, i) => {
      t.like(
        health[i],
        { status: 'Healthy' },
        `${o.kind}/${o.metadata.name}: ${JSON.stringify(health[i])}`,
      );
    });
  },
);
