/**
 * `make bench-admission`: what users pay for our CRDs before the operator sees anything
 * (issue 32). On a private control plane with no operator running, for each namespaced kind in
 * crds/: `kubectl apply -f` of N objects (the kind's example from examples/, renamed), then
 * `kubectl apply -f` of the same N with one label changed (an update validates the whole object
 * again), then the operator's two writes per object, 8 in flight: a merge patch adding its
 * finalizer, then a merge patch of the status subresource — against our CRD, against a minimal
 * CRD with the same names and a free-form schema in a group holding the minimal CRDs of all our
 * kinds (the same API surface), and against a
 * lone minimal CRD in a group of its own (what a one-kind operator's users pay;
 * bench/lib/minimal-crd.ts). Each phase counts wall time, the CPU seconds of kube-apiserver +
 * etcd, and for the kubectl phases kubectl's own CPU seconds (it parses the whole
 * group-version's OpenAPI document for every object: bench/lib/kubectl-cpu.ts). The order of
 * the variants rotates between runs; the report (bench/lib/admission-report.ts) gives medians
 * and ratios, each CRD's size and CEL rules, and each group's OpenAPI document size.
 *
 * Flags: --n 500  --runs 3  --out bench/results  --kinds PullZoneConfig,ContainerApp (default all)
 */
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { API_DOMAIN } from '../src/api-group.js';
import { KubeClient, loadKubeConfig } from '../src/runtime/kube-client.js';
import { FINALIZER } from '../src/runtime/reasons.js';
import { startControlPlane } from '../test/cluster/control-plane.js';
import { kubectlRaw } from '../test/e2e/support/kube.js';
import {
  renderAdmissionReport,
  VARIANTS,
  type KindResult,
  type PhaseRun,
  type Variant,
} from './lib/admission-report.js';
import { runKubectlTimed } from './lib/kubectl-cpu.js';
import {
  loneGroupOf,
  MINIMAL_GROUP,
  minimalCrdOf,
  readCrds,
  type CrdFacts,
} from './lib/minimal-crd.js';
import { openApiBytes } from './lib/openapi-documents.js';
import { cpuSecondsOf } from './lib/proc-cpu.js';
import { mapLimit } from './lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The label an update changes (a label, so every kind's update is the same change). */
const REV_LABEL = `bench.${API_DOMAIN}/rev`;

/** Finds the first example object of `kind` under examples/. */
async function exampleOf(kind: string): Promise<Record<string, unknown>> {
  const dir = join(ROOT, 'examples');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.yaml'));
  for (const file of files.sort()) {
    for (const doc of parseAllDocuments(await readFile(join(dir, file), 'utf8'))) {
      const obj = doc.toJS() as Record<string, unknown> | null;
      if (obj?.kind === kind) return obj;
    }
  }
  throw new Error(`cannot find an example of ${kind} under examples/`);
}

/** N copies of `example` in `namespace` under `group`, as one multi-document YAML. */
function manifestsOf(
  example: Record<string, unknown>,
  facts: CrdFacts,
  group: string,
  namespace: string,
  n: number,
  rev: number,
): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    const obj = {
      apiVersion: `${group}/${facts.version}`,
      kind: facts.kind,
      metadata: {
        name: `adm-${String(i).padStart(5, '0')}`,
        namespace,
        labels: { [REV_LABEL]: String(rev) },
      },
      spec: example.spec,
    };
    docs.push(stringify(obj));
  }
  return docs.join('---\n');
}

async function kubectlOrThrow(kubeconfig: string, args: string[], input?: string): Promise<void> {
  const r = await kubectlRaw(args, input, { kubeconfig });
  if (r.code !== 0) {
    throw new Error(`cannot run kubectl ${args[0] ?? ''}: ${r.stderr.trim().slice(-600)}`);
  }
}

/** Wall seconds of `fn`, the CPU seconds `pids` used meanwhile, and what `fn` returned. */
async function timed<T>(
  pids: readonly number[],
  fn: () => Promise<T>,
): Promise<{ wall: number; server: number; value: T }> {
  const cpu = await cpuSecondsOf(pids);
  const started = performance.now();
  const value = await fn();
  const wall = (performance.now() - started) / 1000;
  return { wall, server: (await cpuSecondsOf(pids)) - cpu, value };
}

/** `kubectl apply -f file`, timed: kubectl's CPU seconds. */
async function applyTimed(kubeconfig: string, file: string): Promise<number> {
  const r = await runKubectlTimed(kubeconfig, ['apply', '-f', file]);
  if (r.code !== 0) throw new Error(`cannot apply ${file}: ${r.stderr.trim().slice(-600)}`);
  return r.cpuSeconds;
}

interface RunContext {
  kubeconfig: string;
  kube: KubeClient;
  dir: string;
  n: number;
  pids: number[];
}

function groupOf(facts: CrdFacts, variant: Variant): string {
  if (variant === 'ours') return facts.group;
  return variant === 'minimal' ? MINIMAL_GROUP : loneGroupOf(facts);
}

/** One run of the three phases of one kind against one variant, in its own namespace. */
async function runPhases(
  ctx: RunContext,
  facts: CrdFacts,
  example: Record<string, unknown>,
  variant: Variant,
  run: number,
): Promise<PhaseRun> {
  const group = groupOf(facts, variant);
  const namespace = `adm-${facts.plural}-${variant}-${run}`.slice(0, 63);
  await kubectlOrThrow(ctx.kubeconfig, ['create', 'namespace', namespace]);
  const file = (rev: number): string => join(ctx.dir, `${namespace}-${rev}.yaml`);
  await writeFile(file(1), manifestsOf(example, facts, group, namespace, ctx.n, 1));
  await writeFile(file(2), manifestsOf(example, facts, group, namespace, ctx.n, 2));
  const create = await timed(ctx.pids, () => applyTimed(ctx.kubeconfig, file(1)));
  const update = await timed(ctx.pids, () => applyTimed(ctx.kubeconfig, file(2)));
  const names = Array.from({ length: ctx.n }, (_, i) => `adm-${String(i).padStart(5, '0')}`);
  const base = `/apis/${group}/${facts.version}/namespaces/${namespace}/${facts.plural}`;
  const patchAll = (suffix: string, body: Record<string, unknown>): Promise<unknown> =>
    mapLimit(names, 8, (name) =>
      ctx.kube.request({
        method: 'PATCH',
        path: `${base}/${name}${suffix}`,
        contentType: 'application/merge-patch+json',
        body,
      }),
    );
  // The operator's first write to an object: its finalizer (a metadata-only merge patch).
  const finalizer = await timed(ctx.pids, () =>
    patchAll('', { metadata: { finalizers: [FINALIZER] } }),
  );
  const status = await timed(ctx.pids, () => patchAll('/status', { status: benchStatus() }));
  await patchAll('', { metadata: { finalizers: null } }); // or the namespace never goes
  await kubectlOrThrow(ctx.kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
  return {
    create: create.wall,
    update: update.wall,
    finalizer: finalizer.wall,
    status: status.wall,
    cpu: {
      create: create.server,
      update: update.server,
      finalizer: finalizer.server,
      status: status.server,
    },
    kubectlCpu: { create: create.value, update: update.value },
  };
}

/** A status like the operator's first write (conditions and observedGeneration). */
function benchStatus(): Record<string, unknown> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string): Record<string, unknown> => ({
    type,
    status: 'True',
    reason: 'Available',
    message: 'admission bench',
    lastTransitionTime: now,
    observedGeneration: 1,
  });
  return { observedGeneration: 1, conditions: [condition('Ready'), condition('Synced')] };
}

/** The variants in the order of run `run`: each variant goes first once every 3 runs. */
function orderOf(run: number): Variant[] {
  return VARIANTS.map((_, i) => VARIANTS[(i + run) % VARIANTS.length] as Variant);
}

async function installCrds(kubeconfig: string, crds: CrdFacts[]): Promise<void> {
  await kubectlOrThrow(kubeconfig, ['create', '-f', join(ROOT, 'crds')]);
  const minimal = crds.map((c) => JSON.stringify(minimalCrdOf(c))).join('\n');
  await kubectlOrThrow(kubeconfig, ['create', '-f', '-'], minimal);
  const lone = crds.map((c) => JSON.stringify(minimalCrdOf(c, loneGroupOf(c)))).join('\n');
  await kubectlOrThrow(kubeconfig, ['create', '-f', '-'], lone);
  await kubectlOrThrow(kubeconfig, [
    'wait',
    '--for=condition=Established',
    'crd',
    '--all',
    '--timeout=120s',
  ]);
}

async function measureKind(ctx: RunContext, facts: CrdFacts, runs: number): Promise<KindResult> {
  const example = await exampleOf(facts.kind);
  const runsOf: Record<Variant, PhaseRun[]> = { ours: [], minimal: [], lone: [] };
  const result: KindResult = {
    kind: facts.kind,
    crdBytes: facts.bytes,
    celRules: facts.celRules,
    openApiBytes: {
      ours: await openApiBytes(ctx.kube, facts.group, facts.version),
      minimal: await openApiBytes(ctx.kube, MINIMAL_GROUP, facts.version),
      lone: await openApiBytes(ctx.kube, loneGroupOf(facts), facts.version),
    },
    runs: runsOf,
  };
  for (let run = 0; run < runs; run++) {
    for (const variant of orderOf(run)) {
      const t = await runPhases(ctx, facts, example, variant, run);
      runsOf[variant].push(t);
      console.error(`${facts.kind} run ${run} ${variant}: ${JSON.stringify(t)}`);
    }
  }
  return result;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '500' },
      runs: { type: 'string', default: '3' },
      out: { type: 'string', default: 'bench/results' },
      kinds: { type: 'string', default: '' },
    },
  });
  const n = Number(values.n);
  const runs = Number(values.runs);
  if (!Number.isInteger(n) || n < 1) throw new Error(`cannot run: --n ${values.n} is not a count`);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`cannot run: --runs ${values.runs} is not a count`);
  const started = new Date().toISOString();
  const only = values.kinds.split(',').filter(Boolean);
  const all = await readCrds(join(ROOT, 'crds'));
  const crds = all.filter((c) => c.namespaced && (only.length === 0 || only.includes(c.kind)));
  if (crds.length === 0)
    throw new Error(`cannot run: no namespaced kind in crds/ is ${values.kinds}`);
  const cp = await startControlPlane();
  const dir = await mkdtemp(join(tmpdir(), 'cdn-admission-'));
  try {
    const kubeconfig = cp.kubeconfigPath;
    const kube = await KubeClient.create(loadKubeConfig(kubeconfig));
    // Every kind's minimal CRD goes into the same-surface group, measured or not.
    await installCrds(kubeconfig, all);
    const ctx: RunContext = { kubeconfig, kube, dir, n, pids: cp.pids() };
    const results: KindResult[] = [];
    for (const facts of crds) results.push(await measureKind(ctx, facts, runs));
    kube.close();
    const stamp = started.replace(/[:.]/g, '-');
    await mkdir(values.out, { recursive: true });
    const report = renderAdmissionReport(results, n, runs, started);
    await writeFile(join(values.out, `admission-${stamp}.md`), report);
    await writeFile(
      join(values.out, `admission-${stamp}.json`),
      `${JSON.stringify({ started, n, runs, results }, null, 2)}\n`,
    );
    process.stdout.write(report);
  } finally {
    await cp.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
