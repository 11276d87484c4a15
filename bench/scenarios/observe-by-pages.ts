/**
 * Observe by pages (issue 50, docs/scaling.md): per-object polling against list sweeps, on the
 * same fleet in one run. The account is seeded with N pull zones in one admin call
 * (`pullZoneSeries`), N PullZoneConfigs adopt them by id (no platform create), and each mode
 * runs a fresh operator on its own namespace:
 *
 * - `by-id`: `--sweep-read-share 0`, every drift check reads its zone by id (today).
 * - `pages`: `--sweep-read-share <share>`, the drift checks read the swept-record cache.
 *
 * Once every object is Ready the window starts. Figures per mode: platform reads per object
 * per poll interval (sweep pages and reads by id; the goal ≤ 0.01 is for the pages mode),
 * platform writes besides the corrections of the drift the bench made (goal: no more than
 * by-id), sweep requests per second (goal ≤ 10), drift detection latency (a zone's origin
 * changed on cdn-sim behind the operator's back, tagged `X-Sim-Client: bench-drift` → the
 * operator's write that corrects it; p50/p99/max), and the operator's heap after a forced GC
 * (pages − by-id, divided by N: the heap per cached record).
 */
import type { BenchEnv } from '../lib/env.js';
import { collectionPath, createAll, objectName, type Manifest } from '../lib/objects.js';
import { forcedGcHeap } from '../lib/operator-stats.js';
import { quantile, sleep } from '../lib/stats.js';
import { firstSweepStart, isSweepPage, lastSweepPageAt } from '../lib/sweep-start.js';
import { kubectl } from '../../test/e2e/support/kube.js';
import { typeMetaOf } from '../../src/controllers/kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../../src/controllers/pullzoneconfig/types.js';
import type { CallLogEntry } from '../../src/simulator/calls.js';

/** The origin every seeded zone and every object has (so the adoption writes nothing). */
const ORIGIN = 'https://origin.pages.bench.example';
/** The X-Sim-Client tag of the bench's own drift writes. */
const DRIFT_CLIENT = 'bench-drift';

/** Parameters of the scenario. */
export interface PagesParams {
  n: number;
  /** `--poll-interval` of both modes. */
  pollIntervalMs: number;
  /** The measuring window (at least a poll interval, so that by-id polls every object). */
  windowMs: number;
  /** Drift changes made during the window. */
  drifts: number;
  /** The modes to run (the by-id mode is the costly one at large N). */
  modes: ReadonlyArray<'by-id' | 'pages'>;
  /** `--sweep-read-share` of the pages mode. */
  readShare: number;
  /** `--sweep-interval` of the pages mode. */
  sweepIntervalMs: number;
  workers: number;
  timeoutMs: number;
}

/** Figures of one mode. */
export interface PagesModeResult {
  mode: 'by-id' | 'pages';
  operatorArgs: string[];
  readyMs: number;
  windowMs: number;
  /** Reads by id (`GET /pullzone/{id}`) and sweep pages (`GET /pullzone`) in the window. */
  readsById: number;
  /** Of the reads by id, those of the zones the bench drifted (correcting them). */
  correctionReads?: number;
  sweepPages: number;
  /** Steady state: sweep pages and reads by id of zones nobody changed, per object. */
  readsPerObjectPerPollInterval: number;
  /** Every read in the window, the corrections' included, per object. */
  allReadsPerObjectPerPollInterval?: number;
  /** The same figure at the default `--poll-interval 10m` (reads scale with the interval). */
  readsPerObjectPer10m: number;
  sweepRequestsPerSecond: number;
  /** The operator's platform writes in the window that are not drift corrections. */
  otherWrites: number;
  drift: { made: number; corrected: number; p50Ms: number; p99Ms: number; maxMs: number };
  heapUsedBytes: number;
}

/** Result of the scenario. */
export interface PagesResult {
  params: PagesParams;
  modes: PagesModeResult[];
  /** (pages heap − by-id heap) ÷ N, after a forced GC each. */
  heapPerCachedRecordBytes?: number;
}

/** Runs both modes; `log` reports progress. */
export async function runObserveByPages(
  env: BenchEnv,
  p: PagesParams,
  log: (msg: string) => void,
): Promise<PagesResult> {
  const modes: PagesModeResult[] = [];
  for (const mode of p.modes) {
    modes.push(await runMode(env, p, mode, log));
    log(`pages n=${p.n}: ${mode} done`);
  }
  const byId = modes.find((m) => m.mode === 'by-id');
  const pages = modes.find((m) => m.mode === 'pages');
  return {
    params: p,
    modes,
    ...(byId && pages
      ? { heapPerCachedRecordBytes: (pages.heapUsedBytes - byId.heapUsedBytes) / p.n }
      : {}),
  };
}

async function runMode(
  env: BenchEnv,
  p: PagesParams,
  mode: 'by-id' | 'pages',
  log: (msg: string) => void,
): Promise<PagesModeResult> {
  const namespace = `pages-${mode}-${p.n}`;
  await env.sim.resetState();
  const seeded = await env.sim.seed<{ pullZoneSeries: { firstId: number } }>({
    pullZoneSeries: { prefix: `${namespace}-`, count: p.n, settings: { OriginUrl: ORIGIN } },
  });
  const firstId = seeded.pullZoneSeries.firstId;
  await env.createNamespace(namespace);
  const operatorArgs = [
    '--namespace',
    namespace,
    '--workers',
    String(p.workers),
    '--poll-interval',
    `${Math.round(p.pollIntervalMs / 1000)}s`,
    '--sweep-read-share',
    mode === 'pages' ? String(p.readShare) : '0',
    '--sweep-interval',
    `${Math.round(p.sweepIntervalMs / 1000)}s`,
  ];
  const op = await env.startOperator(namespace, { args: operatorArgs });
  try {
    const started = Date.now();
    await createAll(env.kube, manifests(namespace, p.n, firstId), 16);
    await waitAllReady(env, namespace, p.n, p.timeoutMs, log);
    const readyMs = Date.now() - started;
    log(`pages n=${p.n} ${mode}: all Ready in ${Math.round(readyMs / 1000)} s`);
    // With sweeps, the window opens on a sweep's first page (bench/lib/sweep-start.ts).
    const from = mode === 'pages' ? await nextSweepStart(env, p.sweepIntervalMs) : Date.now();
    const drifts = await makeDrifts(env, p, firstId, from);
    const to = Date.now();
    // Corrections of the last drifts may land after the window: wait up to a poll interval.
    await waitCorrected(env, drifts, p.pollIntervalMs + 30_000);
    const heap = await forcedGcHeap(op);
    const log_ = await env.sim.logSince(from - 1);
    return {
      mode,
      operatorArgs,
      readyMs,
      windowMs: to - from,
      ...figures(log_, p, from, to, drifts),
      heapUsedBytes: heap.heapUsedBytes,
    };
  } finally {
    await env.stopOperator(op);
    await kubectl(['delete', 'namespace', namespace, '--wait=false'], undefined, {
      kubeconfig: env.kubeconfig,
    }).catch(() => undefined);
  }
}

/**
 * Waits for the first page of the next sweep (a page after a gap of half the sweep interval)
 * and answers its time; gives up after three intervals and answers now.
 */
async function nextSweepStart(env: BenchEnv, sweepIntervalMs: number): Promise<number> {
  const gapMs = sweepIntervalMs / 2;
  // The call log's times are wall-clock; the give-up deadline is monotonic.
  const deadline = performance.now() + 3 * sweepIntervalMs;
  let since = Date.now() - sweepIntervalMs;
  let prev: number | undefined;
  while (performance.now() < deadline) {
    const entries = (await env.sim.logSince(since)).filter((e) => e.t >= since);
    const start = firstSweepStart(entries, gapMs, prev);
    if (start !== undefined) return start;
    prev = lastSweepPageAt(entries, prev);
    const last = entries.at(-1);
    if (last) since = last.t + 1;
    await sleep(250);
  }
  return Date.now();
}

/** N PullZoneConfigs adopting the seeded zones by id, with the zones' own origin. */
function manifests(namespace: string, n: number, firstId: number): Manifest[] {
  return Array.from({ length: n }, (_, i) => ({
    ...typeMetaOf(PULL_ZONE_CONFIG_NAMES),
    metadata: { name: objectName('pz', i, 6), namespace },
    spec: { adoption: { policy: 'ById', id: firstId + i }, settings: { originUrl: ORIGIN } },
  }));
}

async function waitAllReady(
  env: BenchEnv,
  namespace: string,
  n: number,
  timeoutMs: number,
  log: (msg: string) => void,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let round = 1; ; round++) {
    const ready = await countReady(env, namespace);
    if (ready >= n) return;
    if (Date.now() > deadline) throw new Error(`cannot measure: ${ready} of ${n} Ready in time`);
    if (round % 15 === 0) log(`pages: ${ready}/${n} Ready`);
    await sleep(2000);
  }
}

/** A page of PullZoneConfigs, as far as readiness goes. */
interface ObjectList {
  metadata?: { continue?: string };
  items: Array<{ status?: { conditions?: Array<{ type: string; status: string }> } }>;
}

/** Objects per LIST page: one answer of 100,000 objects was aborted by the apiserver. */
const LIST_PAGE = 2000;

/** The PullZoneConfigs of `namespace` that are Ready, counted page by page. */
async function countReady(env: BenchEnv, namespace: string): Promise<number> {
  let ready = 0;
  let token: string | undefined;
  do {
    const query = `?limit=${LIST_PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const page: ObjectList = await env.kube.request<ObjectList>({
      method: 'GET',
      path: `${collectionPath(namespace, 'PullZoneConfig')}${query}`,
      timeoutMs: 120_000,
    });
    ready += page.items.filter((o) =>
      o.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    ).length;
    token = page.metadata?.continue || undefined;
  } while (token);
  return ready;
}

/** One drift made behind the operator's back. */
interface Drift {
  id: number;
  at: number;
}

/** Spreads `p.drifts` origin changes over the window, on zones spread over the account. */
async function makeDrifts(
  env: BenchEnv,
  p: PagesParams,
  firstId: number,
  from: number,
): Promise<Drift[]> {
  const drifts: Drift[] = [];
  for (let k = 0; k < p.drifts; k++) {
    await sleep(Math.max(0, from + ((k + 0.5) * p.windowMs) / p.drifts - Date.now()));
    const id = firstId + Math.floor(((k + 0.5) * p.n) / p.drifts);
    const res = await fetch(`${env.sim.url}/pullzone/${id}`, {
      method: 'POST',
      headers: {
        AccessKey: env.apiKey,
        'content-type': 'application/json',
        'X-Sim-Client': DRIFT_CLIENT,
      },
      body: JSON.stringify({ OriginUrl: `https://drift-${k}.pages.bench.example` }),
    });
    if (!res.ok) throw new Error(`cannot make drift on zone ${id}: ${res.status}`);
    drifts.push({ id, at: Date.now() });
  }
  await sleep(Math.max(0, from + p.windowMs - Date.now()));
  return drifts;
}

/** The operator's first write of each drifted zone after the drift, in ms; undefined: none yet. */
function corrections(
  log: readonly CallLogEntry[],
  drifts: readonly Drift[],
): Array<number | undefined> {
  return drifts.map((d) => {
    const fix = log.find(
      (e) =>
        e.t >= d.at &&
        e.method === 'POST' &&
        e.path === `/pullzone/${d.id}` &&
        e.client !== DRIFT_CLIENT,
    );
    return fix && fix.t - d.at;
  });
}

async function waitCorrected(
  env: BenchEnv,
  drifts: readonly Drift[],
  maxMs: number,
): Promise<void> {
  const first = drifts[0]?.at;
  if (first === undefined) return;
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const log = await env.sim.logSince(first - 1);
    if (corrections(log, drifts).every((c) => c !== undefined)) return;
    await sleep(2000);
  }
}

function figures(
  log: readonly CallLogEntry[],
  p: PagesParams,
  from: number,
  to: number,
  drifts: readonly Drift[],
): Omit<PagesModeResult, 'mode' | 'operatorArgs' | 'readyMs' | 'windowMs' | 'heapUsedBytes'> {
  const inWindow = log.filter((e) => e.t >= from && e.t < to && e.client !== DRIFT_CLIENT);
  const drifted = new Set(drifts.map((d) => `/pullzone/${d.id}`));
  const byId = inWindow.filter((e) => e.method === 'GET' && /^\/pullzone\/\d+$/.test(e.path));
  const readsById = byId.length;
  const correctionReads = byId.filter((e) => drifted.has(e.path)).length;
  const sweepPages = inWindow.filter(isSweepPage).length;
  const seconds = (to - from) / 1000;
  // Steady state: what the drift checks cost when nothing drifts (the reads of the zones the
  // bench changed belong to correcting them, which polling by id pays the same).
  const steadyPerSecond = (readsById - correctionReads + sweepPages) / seconds;
  const fixes = corrections(log, drifts);
  const done = fixes.filter((ms): ms is number => ms !== undefined);
  const otherWrites = inWindow.filter((e) => e.method !== 'GET' && !drifted.has(e.path)).length;
  return {
    readsById,
    correctionReads,
    sweepPages,
    readsPerObjectPerPollInterval: (steadyPerSecond * p.pollIntervalMs) / 1000 / p.n,
    readsPerObjectPer10m: (steadyPerSecond * 600) / p.n,
    allReadsPerObjectPerPollInterval:
      ((readsById + sweepPages) / seconds) * (p.pollIntervalMs / 1000 / p.n),
    sweepRequestsPerSecond: sweepPages / seconds,
    otherWrites,
    drift: {
      made: drifts.length,
      corrected: done.length,
      p50Ms: quantile(done, 0.5),
      p99Ms: quantile(done, 0.99),
      maxMs: Math.max(0, ...done),
    },
  };
}
