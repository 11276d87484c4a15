/**
 * The README's install path, run literally on a real apiserver: the commands between the
 * `quickstart:begin` / `quickstart:end` markers of README.md (chart defaults, the documented
 * Secret, `kubectl apply -f examples/`), then every example object must become Ready and be
 * Healthy for Argo CD, evaluated with gopher-lua (the Lua engine Argo CD embeds).
 *
 * The README block is the single place the steps live; edit it and this test follows. The
 * only substitutions, needed because e2e files share one apiserver: the namespace and release
 * `cdn-operator` get a unique suffix, `<your API key>` is cdn-sim's key, and the kubeconfig's
 * current namespace is a fresh work namespace. No cluster node runs pods, so the operator runs
 * as a local process with the chart Deployment's own arguments, authenticated as the chart's
 * ServiceAccount (so the chart's RBAC is what it gets), watching only the work namespace.
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { exampleKinds } from '../../../src/controllers/kinds.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
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
const workNs = `quickstart-${suffix}`;
const API_KEY = `quickstart-key-${suffix}`;
const KINDS = exampleKinds();

let tmp = '';
let userKubeconfig = '';
let sim: SimulatorHandle | undefined;
let operator: OperatorProcess | undefined;

/** The shell commands of the README's quick-start block (continuation lines joined). */
async function readmeSteps(): Promise<string[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- quickstart:begin -->\n```sh\n([\s\S]*?)```\n<!-- quickstart:end -->/.exec(
    readme,
  );
  if (!block) throw new Error('cannot find the quickstart block in README.md');
  return block[1]!
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** A README line with this file's substitutions, split into argv (no shell features used). */
function argvOf(line: string): string[] {
  const text = line
    .replace(/<your API key>/g, API_KEY)
    .replace(/(^| )cdn-operator deploy\/helm/, `$1${release} deploy/helm`)
    .replace(/-n cdn-operator\b/g, `-n ${releaseNs}`)
    .replace(/namespace cdn-operator$/, `namespace ${releaseNs}`)
    // The README opens the default account and Secret reads to `default`, where the user's
    // `kubectl apply` lands; here that is the work namespace.
    .replace(/=\{default\}/g, `={${workNs}}`);
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
    workNs,
  ]);
  if (created.code !== 0) throw new Error(`cannot create namespace ${workNs}: ${created.stderr}`);
  // The user's kubeconfig: admin credentials, current namespace = the work namespace.
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
    `--namespace=${workNs}`,
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
  for (const ns of [workNs, releaseNs])
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

async function exampleObjects(): Promise<Obj[]> {
  const got = await run('kubectl', [
    '--kubeconfig',
    userKubeconfig,
    'get',
    KINDS.map(crdNameOf).join(','),
    '-o',
    'json',
  ]);
  if (got.code !== 0) throw new Error(got.stderr);
  return (JSON.parse(got.stdout) as { items: Obj[] }).items;
}

const readyOf = (o: Obj): string =>
  o.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'none';

test.serial(
  'the README quick start with the chart defaults reaches Ready and Argo CD Healthy',
  async (t) => {
    t.timeout(240_000);
    const steps = await readmeSteps();
    t.true(
      steps.some((s) => s.startsWith('helm install')),
      steps.join('\n'),
    );
    t.true(steps.includes('kubectl apply -f examples/'), steps.join('\n'));
    sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
    for (const line of steps) {
      const r = await runStep(argvOf(line));
      t.is(r.code, 0, `${line}\n${r.stderr}`);
      if (line.startsWith('helm install')) {
        // The Deployment cannot run here: start its arguments as a local process instead.
        const args = (await deploymentArgs()).filter(
          (a) => !/^--(api-url|metrics-bind-address|health-probe-bind-address)=/.test(a),
        );
        operator = await startOperator({
          kubeconfig: await serviceAccountKubeconfig(),
          env: { POD_NAMESPACE: releaseNs, KUBECONFIG: join(tmp, 'sa-kubeconfig') },
          args: [...args, '--api-url', sim.url, '--namespace', workNs, '--poll-interval', '30s'],
        });
      }
    }
    const files = (await readdir(join(ROOT, 'examples'))).filter((f) => f.endsWith('.yaml'));
    const texts = await Promise.all(files.map((f) => readFile(join(ROOT, 'examples', f), 'utf8')));
    const examples = parseObjects(texts.join('\n---\n')).filter((o) =>
      KINDS.some((k) => k.kind === o.kind),
    );
    t.is(examples.length, KINDS.length, 'one example of each kind');
    const deadline = Date.now() + 150_000;
    let objects: Obj[] = [];
    while (Date.now() < deadline) {
      objects = await exampleObjects();
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
