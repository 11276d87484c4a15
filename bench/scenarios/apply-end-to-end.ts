/**
 * End to end as a user sees it (issue 32): `kubectl apply -f` of N PullZoneConfigs with the
 * operator running against the platform (L = 50 ms, no limit), from the start of the apply to
 * the last object Ready, against the time `kubectl apply -f` of the same N objects takes for a
 * minimal CRD (bench/lib/minimal-crd.ts: same names, free-form schema, nothing reconciling it).
 * Then the update of one field in all N (bench/scenarios/update-all.ts) against its platform
 * ceiling. The minimal apply runs first and again after, so the yardstick brackets the run.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { stringify } from 'yaml';
import { kubectlRaw } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import { MATRIX } from '../lib/matrix.js';
import { MINIMAL_GROUP, minimalCrdOf, type CrdFacts } from '../lib/minimal-crd.js';
import { collectionPath, objectName, pullZoneManifest, type Manifest } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { quantile } from '../lib/stats.js';
import { runUpdateAll, type UpdateAllResult } from './update-all.js';

/** Parameters. */
export interface ApplyEndToEndParams {
  n: number;
  workers: number;
  /** Operator flags (the matrix's). */
  operatorArgs: string[];
  /** Our PullZoneConfig CRD as read from crds/ (the minimal one is derived from it). */
  crd: CrdFacts;
  timeoutMs: number;
}

/** Results. */
export interface ApplyEndToEndResult {
  n: number;
  /** `kubectl apply -f` of the N minimal objects, seconds (before and after the run). */
  minimalApplyS: number[];
  /** `kubectl apply -f` of the N PullZoneConfigs, seconds (the apply alone). */
  oursApplyS: number;
  /** Start of the apply to the last object Ready, seconds; null when timed out. */
  allReadyS: number | null;
  /** allReadyS ÷ the median minimal apply. */
  ratio: number | null;
  update?: UpdateAllResult;
}

/** The end-to-end goals of issue 32. */
export const APPLY_GOALS = { createRatio: 1.3, updateRatio: 1.5 };

function yamlOf(manifests: Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}

async function applyFile(env: BenchEnv, file: string): Promise<number> {
  const started = performance.now();
  const r = await kubectlRaw(['apply', '-f', file], undefined, { kubeconfig: env.kubeconfig });
  if (r.code !== 0) throw new Error(`cannot apply ${file}: ${r.stderr.trim().slice(-400)}`);
  return (performance.now() - started) / 1000;
}

async function minimalApply(
  env: BenchEnv,
  dir: string,
  p: ApplyEndToEndParams,
  round: number,
): Promise<number> {
  const namespace = `e2e-minimal-${round}`;
  await env.createNamespace(namespace);
  const manifests = Array.from({ length: p.n }, (_, i) => {
    const m = pullZoneManifest(namespace, objectName('e2e', i));
    return { ...m, apiVersion: `${MINIMAL_GROUP}/${p.crd.version}` };
  });
  const file = join(dir, `${namespace}.yaml`);
  await writeFile(file, yamlOf(manifests));
  return await applyFile(env, file);
}

/** Runs the scenario; the sim's faults are set here (L = 50 ms, no limit). */
export async function runApplyEndToEnd(
  env: BenchEnv,
  p: ApplyEndToEndParams,
  log: (msg: string) => void,
): Promise<ApplyEndToEndResult> {
  const config = MATRIX.find((c) => c.id === 'l50') ?? MATRIX[0];
  if (!config) throw new Error('cannot run end to end: no l50 configuration');
  const dir = await mkdtemp(join(tmpdir(), 'cdn-e2e-apply-'));
  const minimal = JSON.stringify(minimalCrdOf(p.crd));
  const installed = await kubectlRaw(['apply', '-f', '-'], minimal, { kubeconfig: env.kubeconfig });
  if (installed.code !== 0) throw new Error(`cannot install the minimal CRD: ${installed.stderr}`);
  await kubectlRaw(
    ['wait', '--for=condition=Established', 'crd', '--all', '--timeout=120s'],
    undefined,
    {
      kubeconfig: env.kubeconfig,
    },
  );
  const result: ApplyEndToEndResult = {
    n: p.n,
    minimalApplyS: [await minimalApply(env, dir, p, 0)],
    oursApplyS: 0,
    allReadyS: null,
    ratio: null,
  };
  log(`end to end n=${p.n}: minimal apply ${result.minimalApplyS[0]?.toFixed(1)} s`);
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
    const file = join(dir, `${namespace}.yaml`);
    await writeFile(
      file,
      yamlOf(
        Array.from({ length: p.n }, (_, i) => pullZoneManifest(namespace, objectName('e2e', i))),
      ),
    );
    const t0 = Date.now();
    result.oursApplyS = await applyFile(env, file);
    await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
    result.allReadyS = (Math.max(...tracker.readyAt.values()) - t0) / 1000;
    log(
      `end to end n=${p.n}: apply ${result.oursApplyS.toFixed(1)} s, all Ready ${result.allReadyS.toFixed(1)} s`,
    );
    result.update = await runUpdateAll(
      env,
      config,
      { namespace, workers: p.workers, value: 4242, timeoutMs: p.timeoutMs },
      log,
    );
  } catch (err) {
    log(`end to end n=${p.n}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await tracker.stop();
    await env.stopOperator(op);
  }
  result.minimalApplyS.push(await minimalApply(env, dir, p, 1));
  const yardstick = quantile(result.minimalApplyS, 0.5);
  result.ratio = result.allReadyS === null ? null : result.allReadyS / yardstick;
  await rm(dir, { recursive: true, force: true });
  return result;
}

/** The report's section for the scenario. */
export function applySection(r: ApplyEndToEndResult | undefined): string[] {
  if (!r) return [];
  const yardstick = quantile(r.minimalApplyS, 0.5);
  const verdict = (ok: boolean): string => (ok ? 'met' : '**missed**');
  const lines = [
    '## End to end: kubectl apply + reconcile',
    '',
    `N = ${r.n} PullZoneConfigs applied with \`kubectl apply -f\` while the operator runs (L = 50 ms, no platform limit), until the last is Ready; the yardstick is \`kubectl apply -f\` of the same ${r.n} objects against a minimal CRD with nothing reconciling them (${r.minimalApplyS.map((s) => `${s.toFixed(1)} s`).join(' before, ')} after; median ${yardstick.toFixed(1)} s).`,
    '',
    '| figure | measured | goal | verdict |',
    '| --- | --- | --- | --- |',
    `| create: apply to all Ready ÷ minimal apply | ${r.allReadyS === null ? 'timed out' : `${r.allReadyS.toFixed(1)} s`} ÷ ${yardstick.toFixed(1)} s = **${r.ratio === null ? 'n/a' : r.ratio.toFixed(2)}** (our apply alone ${r.oursApplyS.toFixed(1)} s) | ≤ ${APPLY_GOALS.createRatio} | ${verdict(r.ratio !== null && r.ratio <= APPLY_GOALS.createRatio)} |`,
  ];
  const u = r.update;
  if (u) {
    lines.push(
      `| update one field in all: time until the platform shows all ÷ platform ceiling | ${u.timeToAllWrittenMs === null ? 'timed out' : `${(u.timeToAllWrittenMs / 1000).toFixed(1)} s`} ÷ ${(u.ceilingMs / 1000).toFixed(1)} s = **${u.ratio === null ? 'n/a' : u.ratio.toFixed(2)}** (patches took ${(u.patchRequestsMs / 1000).toFixed(1)} s) | ≤ ${APPLY_GOALS.updateRatio} | ${verdict(u.ratio !== null && u.ratio <= APPLY_GOALS.updateRatio)} |`,
    );
  }
  return [...lines, ''];
}
