/**
 * End to end as a user sees it (issue 32): `kubectl apply -f` of N PullZoneConfigs with the
 * operator running against the platform (L = 50 ms, no limit), from the start of the apply to
 * the last object Ready, against the time `kubectl apply -f` of the same N objects takes for a
 * lone minimal CRD (bench/lib/minimal-crd.ts: same names, free-form schema, alone in its API
 * group, nothing reconciling it; run first and again after, so the yardstick brackets the run).
 * Between them, the same apply against the minimal CRDs of all our kinds in one group (the same
 * API surface) and against our CRD with no operator running split the difference into what
 * kubectl pays for the size of our group's OpenAPI document, what our schemas cost the
 * apiserver, and what reconciling at the same time adds; kubectl's own CPU seconds are counted
 * for each apply (bench/lib/kubectl-cpu.ts). Then the update of one field in all N
 * (bench/scenarios/update-all.ts) against its platform ceiling.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { kubectlRaw } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import {
  diffRequestCounts,
  perObjectText,
  readRequestCounts,
  type RequestCounts,
} from '../lib/apiserver-requests.js';
import { runKubectlTimed } from '../lib/kubectl-cpu.js';
import { cpuSecondsOf } from '../lib/proc-cpu.js';
import { MATRIX } from '../lib/matrix.js';
import { loneGroupOf, MINIMAL_GROUP, minimalCrdOf, type CrdFacts } from '../lib/minimal-crd.js';
import { collectionPath, objectName, pullZoneManifest, type Manifest } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { quantile } from '../lib/stats.js';
import { NULL_USER, startNull, stopNull } from './null-baseline.js';
import { runUpdateAll, type UpdateAllResult } from './update-all.js';

/** Parameters. */
export interface ApplyEndToEndParams {
  n: number;
  workers: number;
  /** Operator flags (the matrix's). */
  operatorArgs: string[];
  /** Our PullZoneConfig CRD as read from crds/ (the minimal ones are derived from it). */
  crd: CrdFacts;
  /** Every CRD of ours (the same-surface group gets a minimal CRD of each). */
  crds?: CrdFacts[];
  timeoutMs: number;
}

/** One `kubectl apply -f`: its wall seconds and the CPU seconds behind them. */
export interface ApplyTiming {
  wallS: number;
  kubectlCpuS: number;
  /** kube-apiserver + etcd during the apply. */
  serverCpuS?: number;
  /** The operator during the apply (only while it runs). */
  operatorCpuS?: number;
  /** Requests the apiserver served during the apply, by verb and resource (every client). */
  requests?: RequestCounts;
}

/** Results. */
export interface ApplyEndToEndResult {
  n: number;
  /** `kubectl version --client` of the kubectl used (`KUBECTL`, else the one on PATH). */
  kubectlVersion?: string;
  /** `kubectl apply -f` of the N objects to the lone minimal CRD, seconds (before and after). */
  minimalApplyS: number[];
  /** The same applies, with kubectl's CPU. */
  lone?: ApplyTiming[];
  /** To the minimal CRDs of all our kinds in one group (the same API surface). */
  sameSurface?: ApplyTiming;
  /** To our CRD with no operator running (admission alone). */
  oursNoOperator?: ApplyTiming;
  /** `kubectl apply -f` of the N PullZoneConfigs with the operator running, seconds. */
  oursApplyS: number;
  oursKubectlCpuS?: number;
  /** That apply with the CPU seconds behind it. */
  ours?: ApplyTiming;
  /** Start of the apply to the last object Ready, seconds; null when timed out. */
  allReadyS: number | null;
  /** allReadyS ÷ the median lone minimal apply. */
  ratio: number | null;
  /**
   * The same apply to our CRD with the null controller reconciling meanwhile (the operator's
   * Kubernetes writes per object, no platform), until every object is Ready: what this machine
   * gives any controller that writes what ours writes (bench/lib/null-controller.ts).
   */
  nullReconciled?: ApplyTiming & { allReadyS: number | null };
  /** allReadyS ÷ max(median lone minimal apply, nullReconciled.allReadyS). */
  honestRatio?: number | null;
  update?: UpdateAllResult;
}

/** The end-to-end goals of issue 32. */
export const APPLY_GOALS = { createRatio: 1.3, updateRatio: 1.5 };

function yamlOf(manifests: Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}

async function applyFile(env: BenchEnv, file: string, operatorPid?: number): Promise<ApplyTiming> {
  const server = env.cp.pids();
  const operator = operatorPid === undefined ? [] : [operatorPid];
  const requests0 = await readRequestCounts(env.kubeconfig);
  const [server0, operator0] = [await cpuSecondsOf(server), await cpuSecondsOf(operator)];
  const started = performance.now();
  const r = await runKubectlTimed(env.kubeconfig, ['apply', '-f', file]);
  if (r.code !== 0) throw new Error(`cannot apply ${file}: ${r.stderr.trim().slice(-400)}`);
  const wallS = (performance.now() - started) / 1000;
  const serverCpuS = (await cpuSecondsOf(server)) - server0;
  return {
    wallS,
    kubectlCpuS: r.cpuSeconds,
    serverCpuS,
    requests: diffRequestCounts(requests0, await readRequestCounts(env.kubeconfig)),
    ...(operatorPid === undefined
      ? {}
      : { operatorCpuS: (await cpuSecondsOf(operator)) - operator0 }),
  };
}

/** `kubectl apply -f` of the N objects as `group`'s PullZoneConfigs in a new namespace. */
async function applyTo(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  group: string,
  namespace: string,
): Promise<ApplyTiming> {
  await env.createNamespace(namespace);
  const manifests = Array.from({ length: p.n }, (_, i) => {
    const m = pullZoneManifest(namespace, objectName('e2e', i));
    return { ...m, apiVersion: `${group}/${p.crd.version}` };
  });
  const file = join(dir, `${namespace}.yaml`);
  await writeFile(file, yamlOf(manifests));
  return await applyFile(env, file);
}

async function installYardsticks(env: BenchEnv, p: ApplyEndToEndParams): Promise<void> {
  const surface = (p.crds ?? [p.crd]).map((c) => JSON.stringify(minimalCrdOf(c)));
  const lone = JSON.stringify(minimalCrdOf(p.crd, loneGroupOf(p.crd)));
  const options = { kubeconfig: env.kubeconfig };
  const installed = await kubectlRaw(['apply', '-f', '-'], [...surface, lone].join('\n'), options);
  if (installed.code !== 0) throw new Error(`cannot install the minimal CRDs: ${installed.stderr}`);
  await kubectlRaw(
    ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'],
    undefined,
    options,
  );
}

/**
 * `kubectl apply -f` of the N PullZoneConfigs into `namespace` while `controllerPid` reconciles
 * them; the apply's timing (also given to `onApplied` as soon as the apply ends) and the
 * seconds from its start to the last object Ready.
 */
async function applyUntilReady(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  namespace: string,
  tracker: ReadyTracker,
  controllerPid: number | undefined,
  onApplied?: (applied: ApplyTiming) => void,
): Promise<ApplyTiming & { allReadyS: number }> {
  const file = join(dir, `${namespace}.yaml`);
  await writeFile(
    file,
    yamlOf(
      Array.from({ length: p.n }, (_, i) => pullZoneManifest(namespace, objectName('e2e', i))),
    ),
  );
  const t0 = Date.now();
  const applied = await applyFile(env, file, controllerPid);
  onApplied?.(applied); // kept when the wait for Ready times out
  await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
  return { ...applied, allReadyS: (Math.max(...tracker.readyAt.values()) - t0) / 1000 };
}

/**
 * The apply to our CRD with the null controller reconciling (its own identity and process),
 * until every object is Ready: the end-to-end time of a controller making our Kubernetes writes
 * with no platform behind it.
 */
async function runNullReconciled(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  statusTemplate: Record<string, unknown>,
): Promise<ApplyTiming & { allReadyS: number | null }> {
  const namespace = 'e2e-null';
  await env.createNamespace(namespace);
  const kubeconfig = env.userKubeconfig(NULL_USER);
  if (!kubeconfig) throw new Error(`cannot run the null controller: no identity ${NULL_USER}`);
  const path = collectionPath(namespace, 'PullZoneConfig');
  const tracker = new ReadyTracker(env.kube, path);
  tracker.start();
  const child = await startNull(kubeconfig, path, p.workers, statusTemplate);
  try {
    return await applyUntilReady(env, dir, p, namespace, tracker, child.child.pid);
  } finally {
    await stopNull(child);
    await tracker.stop();
  }
}

/** Our apply with the operator running, until every object is Ready; then the update. */
async function runOurs(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  result: ApplyEndToEndResult,
  log: (msg: string) => void,
  template: { status?: Record<string, unknown> },
): Promise<void> {
  const config = MATRIX.find((c) => c.id === 'l50') ?? MATRIX[0];
  if (!config) throw new Error('cannot run end to end: no l50 configuration');
  const namespace = 'e2e-ours';
  await env.createNamespace(namespace);
  await env.sim.resetState();
  await env.sim.setFaults({ latencyMs: config.latencyMs });
  const op = await env.startOperator('bench', {
    args: [...p.operatorArgs, '--namespace', namespace, '--secret-namespace', `bench,${namespace}`],
  });
  const tracker = new ReadyTracker(env.kube, collectionPath(namespace, 'PullZoneConfig'));
  tracker.start();
  try {
    const { allReadyS } = await applyUntilReady(env, dir, p, namespace, tracker, op.pid, (a) => {
      result.ours = a;
      result.oursApplyS = a.wallS;
      result.oursKubectlCpuS = a.kubectlCpuS;
    });
    result.allReadyS = allReadyS;
    template.status = [...tracker.objects.values()].find((o) => o.status)?.status;
    log(
      `end to end n=${p.n}: apply ${result.oursApplyS.toFixed(1)} s, all Ready ${result.allReadyS.toFixed(1)} s`,
    );
    result.update = await runUpdateAll(
      env,
      config,
      { namespace, workers: p.workers, value: 4242, timeoutMs: p.timeoutMs },
      log,
    );
  } finally {
    await tracker.stop();
    await env.stopOperator(op);
  }
}

/** The client version of the kubectl the scenario runs (its figures depend on it). */
async function kubectlVersion(env: BenchEnv): Promise<string> {
  const r = await kubectlRaw(['version', '--client', '-o', 'json'], undefined, {
    kubeconfig: env.kubeconfig,
  });
  try {
    const v = JSON.parse(r.stdout) as { clientVersion?: { gitVersion?: string } };
    return v.clientVersion?.gitVersion ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs the scenario; the sim's faults are set here (L = 50 ms, no limit). */
export async function runApplyEndToEnd(
  env: BenchEnv,
  p: ApplyEndToEndParams,
  log: (msg: string) => void,
): Promise<ApplyEndToEndResult> {
  const dir = await mkdtemp(join(tmpdir(), 'cdn-e2e-apply-'));
  await installYardsticks(env, p);
  const lone = loneGroupOf(p.crd);
  const first = await applyTo(env, dir, p, lone, 'e2e-lone-0');
  const result: ApplyEndToEndResult = {
    n: p.n,
    kubectlVersion: await kubectlVersion(env),
    minimalApplyS: [first.wallS],
    lone: [first],
    sameSurface: await applyTo(env, dir, p, MINIMAL_GROUP, 'e2e-surface'),
    oursNoOperator: await applyTo(env, dir, p, p.crd.group, 'e2e-ours-alone'),
    oursApplyS: 0,
    allReadyS: null,
    ratio: null,
  };
  log(
    `end to end n=${p.n}: lone minimal ${first.wallS.toFixed(1)} s, same surface ${result.sameSurface?.wallS.toFixed(1)} s, ours without the operator ${result.oursNoOperator?.wallS.toFixed(1)} s`,
  );
  const template: { status?: Record<string, unknown> } = {};
  await runOurs(env, dir, p, result, log, template).catch((err: unknown) => {
    log(`end to end n=${p.n}: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (template.status)
    result.nullReconciled = await runNullReconciled(env, dir, p, template.status).catch(
      (err: unknown) => {
        log(
          `end to end n=${p.n}, null controller: ${err instanceof Error ? err.message : String(err)}`,
        );
        return undefined;
      },
    );
  const last = await applyTo(env, dir, p, lone, 'e2e-lone-1');
  result.minimalApplyS.push(last.wallS);
  result.lone?.push(last);
  const yardstick = quantile(result.minimalApplyS, 0.5);
  result.ratio = result.allReadyS === null ? null : result.allReadyS / yardstick;
  const nullS = result.nullReconciled?.allReadyS;
  if (nullS !== undefined && nullS !== null && result.allReadyS !== null)
    result.honestRatio = result.allReadyS / Math.max(yardstick, nullS);
  await rm(dir, { recursive: true, force: true });
  return result;
}

/** One row of the decomposition: an apply, its wall time and kubectl's CPU per object. */
function timingRow(label: string, t: ApplyTiming | undefined, n: number, base: number): string {
  if (!t) return `| ${label} | not measured | — | — | — | — |`;
  const ms = (v: number | undefined): string =>
    v === undefined ? '—' : `${((v * 1000) / n).toFixed(1)} ms`;
  return `| ${label} | ${t.wallS.toFixed(1)} s | ${(t.wallS / base).toFixed(2)} | ${ms(t.kubectlCpuS)} | ${ms(t.serverCpuS)} | ${ms(t.operatorCpuS)} |`;
}

/** Requests per object the apiserver served during our two applies (every client). */
function requestLines(r: ApplyEndToEndResult): string[] {
  const lines: string[] = [];
  const alone = r.oursNoOperator?.requests;
  const withOperator = r.ours?.requests;
  if (alone)
    lines.push(
      '',
      `Apiserver requests per object, our CRD without the operator: ${perObjectText(alone, r.n)}.`,
    );
  if (withOperator)
    lines.push(
      '',
      `With the operator reconciling (kubectl's, the operator's and the watchers' together): ${perObjectText(withOperator, r.n)}.`,
    );
  return lines;
}

function decomposition(r: ApplyEndToEndResult, yardstick: number): string[] {
  if (!r.sameSurface && !r.oursNoOperator) return [];
  const lone = r.lone?.[0];
  const ours: ApplyTiming | undefined =
    r.ours ??
    (r.oursKubectlCpuS === undefined
      ? undefined
      : { wallS: r.oursApplyS, kubectlCpuS: r.oursKubectlCpuS });
  return [
    '',
    `Where the time goes: the same ${r.n} objects applied with \`kubectl apply -f\` to four CRDs in turn. kubectl is sequential; before v1.34 it parses the OpenAPI document of the object's whole group-version for every object it creates (bench/lib/kubectl-cpu.ts), so its CPU per object follows the size of that document (v1.34 and later parse it once per kind for creates, kubernetes/kubernetes#132003; every patch still parses it); the apiserver's admission of our schema and the operator's own writes come on top.`,
    '',
    '| apply of the same objects to | wall | ÷ lone minimal | CPU per object: kubectl | apiserver + etcd | operator |',
    '| --- | --- | --- | --- | --- | --- |',
    timingRow('a lone minimal CRD (its own group; the yardstick)', lone, r.n, yardstick),
    timingRow(
      'minimal CRDs of all our kinds in one group (our API surface)',
      r.sameSurface,
      r.n,
      yardstick,
    ),
    timingRow(
      'our CRD, no operator running (admission of our schema)',
      r.oursNoOperator,
      r.n,
      yardstick,
    ),
    timingRow('our CRD, operator reconciling meanwhile', ours, r.n, yardstick),
    ...(r.nullReconciled
      ? [
          timingRow(
            'our CRD, the null controller reconciling meanwhile (our Kubernetes writes, no platform)',
            r.nullReconciled,
            r.n,
            yardstick,
          ),
        ]
      : []),
    ...requestLines(r),
  ];
}

/**
 * The create against the honest yardstick: max(minimal apply, the same apply with the null
 * controller reconciling until all Ready). When the null controller's time is the larger, the
 * machine, not the operator, sets the floor (as the matrix calls a cell machine-bound).
 */
function honestCreateRow(r: ApplyEndToEndResult, yardstick: number): string[] {
  const nullS = r.nullReconciled?.allReadyS;
  if (nullS === undefined || nullS === null || r.allReadyS === null || !r.honestRatio) return [];
  const bound =
    nullS > yardstick
      ? 'machine-bound: the null controller is the larger'
      : 'the minimal apply is the larger';
  return [
    `| create: apply to all Ready ÷ max(minimal apply, the same apply with the null controller reconciling: ${nullS.toFixed(1)} s) | ${r.allReadyS.toFixed(1)} s ÷ ${Math.max(yardstick, nullS).toFixed(1)} s = **${r.honestRatio.toFixed(2)}** (${bound}) | ≤ ${APPLY_GOALS.createRatio} | ${r.honestRatio <= APPLY_GOALS.createRatio ? 'met' : '**missed**'} |`,
  ];
}

/** The report's section for the scenario. */
export function applySection(r: ApplyEndToEndResult | undefined): string[] {
  if (!r) return [];
  const yardstick = quantile(r.minimalApplyS, 0.5);
  const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');
  const lines = [
    '## End to end: kubectl apply + reconcile',
    '',
    `N = ${r.n} PullZoneConfigs applied with \`kubectl apply -f\` (kubectl ${r.kubectlVersion ?? 'version not recorded'}) while the operator runs (L = 50 ms, no platform limit), until the last is Ready; the yardstick is \`kubectl apply -f\` of the same ${r.n} objects against a lone minimal CRD with nothing reconciling them (${r.minimalApplyS.map((v) => `${v.toFixed(1)} s`).join(' before, ')} after; median ${yardstick.toFixed(1)} s).`,
    '',
    '| figure | measured | goal | verdict |',
    '| --- | --- | --- | --- |',
    `| create: apply to all Ready ÷ minimal apply | ${r.allReadyS === null ? 'timed out' : `${r.allReadyS.toFixed(1)} s`} ÷ ${yardstick.toFixed(1)} s = **${r.ratio === null ? 'n/a' : r.ratio.toFixed(2)}** (our apply alone ${r.oursApplyS.toFixed(1)} s) | ≤ ${APPLY_GOALS.createRatio} | ${verdict(r.ratio !== null && r.ratio <= APPLY_GOALS.createRatio)} |`,
    ...honestCreateRow(r, yardstick),
  ];
  const u = r.update;
  if (u) {
    lines.push(
      `| update one field in all: time until the platform shows all ÷ platform ceiling | ${u.timeToAllWrittenMs === null ? 'timed out' : `${(u.timeToAllWrittenMs / 1000).toFixed(1)} s`} ÷ ${(u.ceilingMs / 1000).toFixed(1)} s = **${u.ratio === null ? 'n/a' : u.ratio.toFixed(2)}** (patches took ${(u.patchRequestsMs / 1000).toFixed(1)} s) | ≤ ${APPLY_GOALS.updateRatio} | ${verdict(u.ratio !== null && u.ratio <= APPLY_GOALS.updateRatio)} |`,
    );
  }
  return [...lines, ...decomposition(r, yardstick), ''];
}
