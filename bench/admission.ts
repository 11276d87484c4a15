/**
 * `make bench-admission`: what users pay to the API server for our CRDs before the operator sees
 * anything (issue 32). On a private control plane with no operator running, for each namespaced
 * kind in crds/: `kubectl apply -f` of N objects (the kind's example from examples/, renamed),
 * then `kubectl apply -f` of the same N with one label changed (an update validates the whole
 * object again), then a merge patch of N status subresources (the operator's own write path,
 * 8 in flight) — once against our CRD and once against a minimal CRD with the same names and a
 * free-form schema (bench/lib/minimal-crd.ts). The order alternates between runs; the report
 * gives the median of the runs and ours / minimal per phase, with each CRD's size and its count
 * of CEL rules.
 *
 * Flags: --n 500  --runs 2  --out bench/results  --kinds PullZoneConfig,ContainerApp (default all)
 */
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { API_GROUP } from '../src/api-group.js';
import { KubeClient, loadKubeConfig } from '../src/runtime/kube-client.js';
import { startControlPlane } from '../test/cluster/control-plane.js';
import { kubectlRaw } from '../test/e2e/support/kube.js';
import { MINIMAL_GROUP, minimalCrdOf, readCrds, type CrdFacts } from './lib/minimal-crd.js';
import { cpuSecondsOf } from './lib/proc-cpu.js';
import { mapLimit, quantile, round } from './lib/stats.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The label an update changes (a label, so every kind's update is the same change). */
const REV_LABEL = `bench.${API_GROUP}/rev`;

type Variant = 'ours' | 'minimal';
const PHASES = ['create', 'update', 'status'] as const;
type Phase = (typeof PHASES)[number];

/** Seconds per phase of one run of one variant. */
type PhaseTimes = Record<Phase, number>;

/** Wall seconds per phase and the CPU seconds the apiserver and etcd spent in it. */
interface PhaseRun extends PhaseTimes {
  cpu: PhaseTimes;
}

interface KindResult {
  kind: string;
  crdBytes: number;
  celRules: number;
  runs: Record<Variant, PhaseRun[]>;
}

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

/** Wall seconds of `fn` and the CPU seconds `pids` used meanwhile. */
async function timed(pids: readonly number[], fn: () => Promise<void>): Promise<[number, number]> {
  const cpu = await cpuSecondsOf(pids);
  const started = performance.now();
  await fn();
  const wall = (performance.now() - started) / 1000;
  return [wall, (await cpuSecondsOf(pids)) - cpu];
}

/** One run of the three phases of one kind against one variant, in its own namespace. */
async function runPhases(
  ctx: { kubeconfig: string; kube: KubeClient; dir: string; n: number; pids: number[] },
  facts: CrdFacts,
  example: Record<string, unknown>,
  variant: Variant,
  run: number,
): Promise<PhaseRun> {
  const group = variant === 'ours' ? facts.group : MINIMAL_GROUP;
  const namespace = `adm-${facts.plural}-${variant}-${run}`.slice(0, 63);
  await kubectlOrThrow(ctx.kubeconfig, ['create', 'namespace', namespace]);
  const file = (rev: number): string => join(ctx.dir, `${namespace}-${rev}.yaml`);
  await writeFile(file(1), manifestsOf(example, facts, group, namespace, ctx.n, 1));
  await writeFile(file(2), manifestsOf(example, facts, group, namespace, ctx.n, 2));
  const create = await timed(ctx.pids, () =>
    kubectlOrThrow(ctx.kubeconfig, ['apply', '-f', file(1)]),
  );
  const update = await timed(ctx.pids, () =>
    kubectlOrThrow(ctx.kubeconfig, ['apply', '-f', file(2)]),
  );
  const names = Array.from({ length: ctx.n }, (_, i) => `adm-${String(i).padStart(5, '0')}`);
  const base = `/apis/${group}/${facts.version}/namespaces/${namespace}/${facts.plural}`;
  const status = await timed(ctx.pids, async () => {
    await mapLimit(names, 8, (name) =>
      ctx.kube.request({
        method: 'PATCH',
        path: `${base}/${name}/status`,
        contentType: 'application/merge-patch+json',
        body: { status: benchStatus() },
      }),
    );
  });
  await kubectlOrThrow(ctx.kubeconfig, ['delete', 'namespace', namespace, '--wait=false']);
  return {
    create: create[0],
    update: update[0],
    status: status[0],
    cpu: { create: create[1], update: update[1], status: status[1] },
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

function median(values: number[]): number {
  return quantile(values, 0.5);
}

function renderReport(results: KindResult[], n: number, runs: number, started: string): string {
  const lines = [
    `# Admission cost of our CRDs ${started}`,
    '',
    `N = ${n} objects per kind and phase, ${runs} runs (median), no operator running; ` +
      `${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join('/')} at the end. ` +
      'Produced by `make bench-admission` (bench/admission.ts). create and update are ' +
      '`kubectl apply -f` of N objects (update: one label changed); status is a merge patch of ' +
      'N status subresources, 8 in flight. The minimal CRD has the same names with a ' +
      'free-form spec and status. Goal: ours / minimal ≤ 1.3.',
    '',
    '### Wall time',
    '',
    '| Kind | CRD bytes | CEL rules | create ours / minimal (s) | ratio | update ours / minimal (s) | ratio | status ours / minimal (s) | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const cells = PHASES.map((phase) => {
      const ours = median(r.runs.ours.map((t) => t[phase]));
      const minimal = median(r.runs.minimal.map((t) => t[phase]));
      return `${round(ours, 2)} / ${round(minimal, 2)} | **${round(ours / minimal, 2)}**`;
    });
    lines.push(`| ${r.kind} | ${r.crdBytes} | ${r.celRules} | ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    '### CPU seconds of the apiserver and etcd',
    '',
    'The same phases counted in CPU time used by kube-apiserver and etcd (`/proc/<pid>/stat`): ' +
      'the work admission costs, which other load on the machine delays but does not add to.',
    '',
    '| Kind | create ours / minimal (CPU s) | ratio | update ours / minimal (CPU s) | ratio | status ours / minimal (CPU s) | ratio |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of results) {
    const cells = PHASES.map((phase) => {
      const ours = median(r.runs.ours.map((t) => t.cpu[phase]));
      const minimal = median(r.runs.minimal.map((t) => t.cpu[phase]));
      return `${round(ours, 2)} / ${round(minimal, 2)} | **${round(ours / minimal, 2)}**`;
    });
    lines.push(`| ${r.kind} | ${cells.join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '500' },
      runs: { type: 'string', default: '2' },
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
  const crds = (await readCrds(join(ROOT, 'crds'))).filter(
    (c) => c.namespaced && (only.length === 0 || only.includes(c.kind)),
  );
  if (crds.length === 0)
    throw new Error(`cannot run: no namespaced kind in crds/ is ${values.kinds}`);
  const cp = await startControlPlane();
  const dir = await mkdtemp(join(tmpdir(), 'cdn-admission-'));
  try {
    const kubeconfig = cp.kubeconfigPath;
    const kube = await KubeClient.create(loadKubeConfig(kubeconfig));
    await kubectlOrThrow(kubeconfig, ['create', '-f', join(ROOT, 'crds')]);
    const minimal = crds.map((c) => JSON.stringify(minimalCrdOf(c))).join('\n');
    await kubectlOrThrow(kubeconfig, ['create', '-f', '-'], minimal);
    await kubectlOrThrow(kubeconfig, [
      'wait',
      '--for=condition=Established',
      'crd',
      '--all',
      '--timeout=120s',
    ]);
    const ctx = { kubeconfig, kube, dir, n, pids: cp.pids() };
    const results: KindResult[] = [];
    for (const facts of crds) {
      const example = await exampleOf(facts.kind);
      const result: KindResult = {
        kind: facts.kind,
        crdBytes: facts.bytes,
        celRules: facts.celRules,
        runs: { ours: [], minimal: [] },
      };
      for (let run = 0; run < runs; run++) {
        const order: Variant[] = run % 2 === 0 ? ['ours', 'minimal'] : ['minimal', 'ours'];
        for (const variant of order) {
          const t = await runPhases(ctx, facts, example, variant, run);
          result.runs[variant].push(t);
          console.error(`${facts.kind} run ${run} ${variant}: ${JSON.stringify(t)}`);
        }
      }
      results.push(result);
    }
    kube.close();
    const stamp = started.replace(/[:.]/g, '-');
    await mkdir(values.out, { recursive: true });
    const report = renderReport(results, n, runs, started);
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
