/**
 * `make demo` / `make demo-down` (through hack/demo.sh): the first-run experience.
 *
 *   up    local control plane (reused), tsc build, cdn-sim with a demo API key (detached, state
 *         file), credentials Secret, CRDs, the operator (detached), examples/, then waits with
 *         progress until every example is Ready and prints `kubectl get cdn -A` and next steps.
 *   down  stops the operator, cdn-sim and the control plane; removes the demo state.
 *   status  what is running.
 *
 * Idempotent: `up` reuses a running cluster, simulator and operator (the operator is restarted
 * when the simulator's address changed), and re-applies the CRDs and examples.
 * Everything lives in ~/.cache/cdn-operator/demo/ (CDN_OPERATOR_CACHE overrides the parent).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments } from 'yaml';
import { CDN_ACCOUNT } from '../../src/controllers/cdnaccount/kind.js';
import { crdNameOf, typeMetaOf } from '../../src/controllers/kind-names.js';
import { exampleKinds, KINDS as ALL_KINDS } from '../../src/controllers/kinds.js';
import { PURGE_ANNOTATION } from '../../src/controllers/pullzoneconfig/purge.js';
import {
  formatProgress,
  refOf,
  summarizeReadiness,
  type CdnObject,
  type ObjectRef,
} from './progress.js';
import {
  fileSize,
  httpStatus,
  isRunning,
  readRecord,
  startDetached,
  stopRecorded,
  waitForLog,
  writeRecord,
  type ProcessRecord,
} from './processes.js';
import { freeCertificateHostnames } from './example-hostnames.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = process.env.CDN_OPERATOR_CACHE ?? join(homedir(), '.cache', 'cdn-operator');
const DIR = join(CACHE, 'demo');
const NAMESPACE = 'cdn-demo';
const SECRET = 'cdn-demo-credentials';
/** The simulator accepts this key; the operator reads it from the Secret above. */
const DEMO_API_KEY = 'demo-api-key';
/**
 * Folders of examples/ the demo applies, in order: the top (the kinds that work with the
 * chart's defaults, `exampleKinds()`), then the DNS zone and the record that points the demo
 * pull zone's hostname at it (issue 33).
 */
const EXAMPLE_DIRS = ['', 'dns'];
const KINDS = ALL_KINDS.filter(
  (k) =>
    exampleKinds().includes(k) ||
    (k.controller !== undefined &&
      k.example !== undefined &&
      EXAMPLE_DIRS.includes(dirname(k.example) === '.' ? '' : dirname(k.example))),
);
const READY_TIMEOUT_S = Number(process.env.DEMO_READY_TIMEOUT ?? 300);

const files = {
  sim: join(DIR, 'sim.json'),
  simLog: join(DIR, 'sim.log'),
  simState: join(DIR, 'sim-state.json'),
  operator: join(DIR, 'operator.json'),
  operatorLog: join(DIR, 'operator.log'),
};

interface SimRecord extends ProcessRecord {
  url: string;
}
interface OperatorRecord extends ProcessRecord {
  apiUrl: string;
  kubeconfig: string;
  metricsPort: number;
  healthPort: number;
}

function say(message: string): void {
  process.stdout.write(`==> ${message}\n`);
}

/** Runs a command; resolves with its output, rejects with stderr on a non-zero exit. */
function exec(
  cmd: string,
  args: string[],
  opts: { input?: string; inherit?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: opts.env ?? process.env,
      stdio: ['pipe', opts.inherit ? 'inherit' : 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.trim()}`)),
    );
    child.stdin?.end(opts.input ?? '');
  });
}

async function kubeconfigPath(): Promise<string> {
  const state = JSON.parse(await readFile(join(CACHE, 'cluster.json'), 'utf8')) as {
    kubeconfigPath: string;
  };
  return state.kubeconfigPath;
}

function kubectl(kubeconfig: string, args: string[], input?: string): Promise<string> {
  return exec(
    'kubectl',
    ['--kubeconfig', kubeconfig, ...args],
    input === undefined ? {} : { input },
  );
}

async function ensureCluster(): Promise<string> {
  say('Local control plane (etcd + kube-apiserver; reused when already up)');
  await exec(process.execPath, ['--import', 'tsx', 'test/cluster/cli.ts', 'up']);
  return kubeconfigPath();
}

async function build(): Promise<void> {
  // The e2e test of the demo runs after `make build` and must not rewrite dist/ under other tests.
  if (process.env.CDN_DEMO_SKIP_BUILD === '1') return;
  say('Building the operator and cdn-sim (tsc)');
  await exec(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json']);
}

async function ensureSimulator(): Promise<string> {
  const existing = await readRecord<SimRecord>(files.sim);
  if (
    existing &&
    isRunning(existing.pid, existing.marker) &&
    (await httpStatus(existing.url)) > 0
  ) {
    say(`cdn-sim already running at ${existing.url} (pid ${existing.pid})`);
    return existing.url;
  }
  const offset = fileSize(files.simLog);
  const script = join(ROOT, 'dist/simulator/cli.js');
  const pid = startDetached(
    [
      script,
      ...['--port', '0', '--api-key', DEMO_API_KEY, '--state-file', files.simState],
      // The examples' hostnames point at the CDN from DNS outside cdn-sim.
      ...freeCertificateHostnames(ROOT).flatMap((h) => ['--external-dns', h]),
    ],
    files.simLog,
  );
  const m = await waitForLog(files.simLog, offset, /cdn-sim listening on (\S+)/, pid, 30_000);
  const url = m[1]!;
  await writeRecord(files.sim, { pid, marker: script, url } satisfies SimRecord);
  say(`cdn-sim started at ${url} (pid ${pid}, API key "${DEMO_API_KEY}", state ${files.simState})`);
  return url;
}

async function ensureNamespaceAndSecret(kubeconfig: string): Promise<void> {
  say(`Namespace ${NAMESPACE} and the credentials Secret ${SECRET}`);
  const ns = await kubectl(kubeconfig, [
    'create',
    'namespace',
    NAMESPACE,
    '--dry-run=client',
    '-o',
    'yaml',
  ]);
  await kubectl(kubeconfig, ['apply', '-f', '-'], ns);
  const secret = await kubectl(kubeconfig, [
    'create',
    'secret',
    'generic',
    SECRET,
    '-n',
    NAMESPACE,
    `--from-literal=apiKey=${DEMO_API_KEY}`,
    '--dry-run=client',
    '-o',
    'yaml',
  ]);
  await kubectl(kubeconfig, ['apply', '-f', '-'], secret);
}

/** The default CdnAccount `cdn-demo`: the demo Secret, opened to the demo namespace only. */
async function applyAccount(kubeconfig: string): Promise<void> {
  say(`CdnAccount ${NAMESPACE} (Secret ${SECRET}), open to namespace ${NAMESPACE}`);
  const account = {
    ...typeMetaOf(CDN_ACCOUNT),
    metadata: { name: NAMESPACE },
    spec: {
      secretRef: { name: SECRET, key: 'apiKey' },
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NAMESPACE } },
    },
  };
  await kubectl(kubeconfig, ['apply', '-f', '-'], JSON.stringify(account));
}

async function applyCrds(kubeconfig: string): Promise<void> {
  say('Installing the CRDs from crds/');
  await kubectl(kubeconfig, [
    'apply',
    '--server-side',
    '--force-conflicts',
    '-f',
    join(ROOT, 'crds'),
  ]);
  const names = ALL_KINDS.map((k) => `crd/${crdNameOf(k)}`);
  await kubectl(kubeconfig, ['wait', '--for=condition=Established', ...names, '--timeout=60s']);
  // Refresh kubectl's discovery cache so that `kubectl get cdn` knows the new category.
  await kubectl(kubeconfig, ['api-resources', '--categories=cdn', '-o', 'name']);
}

async function reusableOperator(
  simUrl: string,
  kubeconfig: string,
): Promise<OperatorRecord | undefined> {
  const existing = await readRecord<OperatorRecord>(files.operator);
  if (!existing || !isRunning(existing.pid, existing.marker)) return undefined;
  const same = existing.apiUrl === simUrl && existing.kubeconfig === kubeconfig;
  if (same && (await httpStatus(`http://127.0.0.1:${existing.healthPort}/healthz`)) === 200)
    return existing;
  say(`Restarting the operator (pid ${existing.pid}): the simulator or cluster changed`);
  await stopRecorded(files.operator, 35_000);
  return undefined;
}

async function ensureOperator(simUrl: string, kubeconfig: string): Promise<OperatorRecord> {
  const existing = await reusableOperator(simUrl, kubeconfig);
  if (existing) {
    say(`Operator already running (pid ${existing.pid})`);
    return existing;
  }
  const offset = fileSize(files.operatorLog);
  const script = join(ROOT, 'dist/main.js');
  const args = [
    script,
    '--kubeconfig',
    kubeconfig,
    '--namespace',
    NAMESPACE,
    '--api-url',
    simUrl,
    '--operator-namespace',
    NAMESPACE,
    '--default-account',
    NAMESPACE,
    '--metrics-bind-address',
    '127.0.0.1:0',
    '--health-probe-bind-address',
    '127.0.0.1:0',
    '--poll-interval',
    '1m',
  ];
  const pid = startDetached(args, files.operatorLog, { ...process.env, KUBECONFIG: kubeconfig });
  const metrics = await waitForLog(
    files.operatorLog,
    offset,
    /"server":"metrics".*?"port":(\d+)/,
    pid,
    60_000,
  );
  const health = await waitForLog(
    files.operatorLog,
    offset,
    /"server":"health".*?"port":(\d+)/,
    pid,
    60_000,
  );
  const record: OperatorRecord = {
    pid,
    marker: script,
    apiUrl: simUrl,
    kubeconfig,
    metricsPort: Number(metrics[1]),
    healthPort: Number(health[1]),
  };
  await writeRecord(files.operator, record);
  say(`Operator started (pid ${pid}, watching namespace ${NAMESPACE}, log ${files.operatorLog})`);
  return record;
}

/** `Kind/name` of every example object of the demo's kinds. */
async function expectedObjects(): Promise<ObjectRef[]> {
  const refs: ObjectRef[] = [];
  for (const sub of EXAMPLE_DIRS) {
    const dir = join(ROOT, 'examples', sub);
    for (const f of (await readdir(dir)).filter((x) => x.endsWith('.yaml')).sort()) {
      for (const doc of parseAllDocuments(await readFile(join(dir, f), 'utf8'))) {
        const o = doc.toJS() as CdnObject | null;
        if (o && KINDS.some((k) => k.kind === o.kind)) refs.push(refOf(o));
      }
    }
  }
  return refs;
}

async function listObjects(kubeconfig: string): Promise<CdnObject[]> {
  const out = await kubectl(kubeconfig, [
    'get',
    KINDS.map((k) => k.plural).join(','),
    '-n',
    NAMESPACE,
    '-o',
    'json',
  ]);
  return (JSON.parse(out) as { items: CdnObject[] }).items;
}

async function waitUntilReady(kubeconfig: string, expected: ObjectRef[]): Promise<boolean> {
  say(`Waiting until ${expected.length} objects are Ready (timeout ${READY_TIMEOUT_S}s)`);
  const started = Date.now();
  let last = '';
  for (;;) {
    const elapsed = Math.round((Date.now() - started) / 1000);
    const summary = summarizeReadiness(expected, await listObjects(kubeconfig).catch(() => []));
    const block = formatProgress(elapsed, summary).join('\n');
    // Print when something changed, and every 10 s so that a long wait visibly moves.
    const changed = block.replace(/\[\s*\d+s\]/, '') !== last.replace(/\[\s*\d+s\]/, '');
    if (changed || elapsed % 10 === 0) process.stdout.write(`${block}\n`);
    last = block;
    if (summary.pending.length === 0) return true;
    if (elapsed >= READY_TIMEOUT_S) return false;
    await sleep(1000);
  }
}

function printNextSteps(
  kubeconfig: string,
  simUrl: string,
  op: OperatorRecord,
  seconds: number,
): void {
  const lines = [
    '',
    `cdn-operator demo is up (${seconds}s). Where to look next:`,
    '',
    `  export KUBECONFIG=${kubeconfig}`,
    `  kubectl get cdn -A                         # every ${KINDS.map((k) => k.kind).join(', ')}`,
    `  kubectl -n ${NAMESPACE} describe pzc shop-cdn     # conditions, status and events`,
    `  kubectl -n ${NAMESPACE} get pzc shop-cdn -o jsonpath='{.status.edgeRules}'   # edge rules -> GUIDs`,
    `  kubectl -n ${NAMESPACE} annotate pzc shop-cdn --overwrite ${PURGE_ANNOTATION}="$(date -Is)"   # purge once`,
    `  kubectl -n ${NAMESPACE} wait pzc/shop-media --for=condition=CertificatesReady   # the custom hostname's certificate, issued once its CNAME exists`,
    '',
    '  Edit a resource and watch it reconcile:',
    `    kubectl -n ${NAMESPACE} get pzc,capp,shp -w &`,
    `    kubectl -n ${NAMESPACE} patch pzc shop-cdn --type merge -p '{"spec":{"settings":{"cacheControlMaxAgeOverrideSeconds":3600}}}'`,
    `    kubectl -n ${NAMESPACE} get events --sort-by=.lastTimestamp`,
    '',
    `  Metrics:  curl -s http://127.0.0.1:${op.metricsPort}/metrics | grep ^cdn_operator_`,
    `  Health:   http://127.0.0.1:${op.healthPort}/healthz  /readyz`,
    `  Logs:     ${files.operatorLog}  ${files.simLog}`,
    `  The simulated API (cdn-sim): CDN_API_KEY=${DEMO_API_KEY} node dist/cli/main.js --api-url ${simUrl} pullzone list`,
    '',
    '  Stop everything: make demo-down      (run `make demo` again any time: it reuses what is up)',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

async function up(): Promise<number> {
  const started = Date.now();
  await mkdir(DIR, { recursive: true });
  const kubeconfig = await ensureCluster();
  await build();
  const simUrl = await ensureSimulator();
  await ensureNamespaceAndSecret(kubeconfig);
  await applyCrds(kubeconfig);
  await applyAccount(kubeconfig);
  const op = await ensureOperator(simUrl, kubeconfig);
  for (const sub of EXAMPLE_DIRS) {
    say(`Applying examples/${sub} to namespace ${NAMESPACE}`);
    process.stdout.write(
      await kubectl(kubeconfig, ['apply', '-n', NAMESPACE, '-f', join(ROOT, 'examples', sub)]),
    );
  }
  const ready = await waitUntilReady(kubeconfig, await expectedObjects());
  process.stdout.write('\n');
  await exec('kubectl', ['--kubeconfig', kubeconfig, 'get', 'cdn', '-A'], { inherit: true });
  if (!ready) {
    process.stderr.write(
      `\nNot everything became Ready within ${READY_TIMEOUT_S}s (reasons above). ` +
        `See ${files.operatorLog} and kubectl -n ${NAMESPACE} describe <kind> <name>.\n`,
    );
    return 1;
  }
  printNextSteps(kubeconfig, simUrl, op, Math.round((Date.now() - started) / 1000));
  return 0;
}

async function down(): Promise<number> {
  const op = await stopRecorded(files.operator, 35_000);
  say(op ? `Stopped the operator (pid ${op.pid})` : 'No demo operator running');
  const sim = await stopRecorded(files.sim, 10_000);
  say(sim ? `Stopped cdn-sim (pid ${sim.pid})` : 'No demo cdn-sim running');
  await exec(process.execPath, ['--import', 'tsx', 'test/cluster/cli.ts', 'down'], {
    inherit: true,
  });
  await rm(DIR, { recursive: true, force: true });
  say('Demo stopped and its state removed');
  return 0;
}

async function status(): Promise<number> {
  const sim = await readRecord<SimRecord>(files.sim);
  const op = await readRecord<OperatorRecord>(files.operator);
  const alive = (r?: ProcessRecord): string =>
    r && isRunning(r.pid, r.marker) ? `running (pid ${r.pid})` : 'not running';
  process.stdout.write(
    `cdn-sim:  ${alive(sim)}${sim ? ` ${sim.url}` : ''}\noperator: ${alive(op)}\n`,
  );
  await exec(process.execPath, ['--import', 'tsx', 'test/cluster/cli.ts', 'status'], {
    inherit: true,
  });
  return 0;
}

const actions: Record<string, () => Promise<number>> = { up, down, status };
const action = actions[process.argv[2] ?? ''];
if (!action) {
  process.stderr.write('usage: hack/demo.sh up|down|status\n');
  process.exit(2);
}
action().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
