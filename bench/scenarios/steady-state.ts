/**
 * Steady state: the operator idles with N synced objects for a while. Platform writes and
 * Kubernetes writes (target 0 each), platform reads per poll interval (target N: one drift
 * check per object per interval), and the event-loop lag p99 from periodic scrapes.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import { WRITE_VERBS } from '../lib/audit.js';
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { scrapeOperator } from '../lib/operator-stats.js';
import { countCalls, diffCounters, type CallCounts } from '../lib/sim.js';
import { quantile, sleep } from '../lib/stats.js';

/** Parameters. */
export interface SteadyParams {
  n: number;
  durationMs: number;
  pollIntervalMs: number;
  scrapeEveryMs: number;
}

/** Results. */
export interface SteadyResult {
  params: SteadyParams;
  platform: CallCounts;
  readsPerPollInterval: number;
  /** Median gap between two reads of the same zone (from the sim's call log). */
  medianReadGapMs: number;
  objectsRead: number;
  kubeWrites: number;
  kubeWritesByVerbResource: Record<string, number>;
  eventLoopLagP99Ms: { max: number; p50OfScrapes: number };
  /** [seconds, lag p99 ms] per scrape, for the chart. */
  lagSeries: Array<[number, number]>;
}

function readGaps(log: Array<{ t: number; path: string; method: string }>): {
  median: number;
  objects: number;
} {
  const last = new Map<string, number>();
  const gaps: number[] = [];
  for (const e of log) {
    if (e.method !== 'GET' || !/^\/pullzone\/\d+$/.test(e.path)) continue;
    const prev = last.get(e.path);
    if (prev !== undefined) gaps.push(e.t - prev);
    last.set(e.path, e.t);
  }
  return { median: quantile(gaps, 0.5), objects: last.size };
}

/** Idles for `durationMs`, then counts. */
export async function runSteadyState(
  env: BenchEnv,
  op: OperatorProcess,
  p: SteadyParams,
  log: (msg: string) => void,
): Promise<SteadyResult> {
  const before = await env.sim.calls();
  const from = Date.now();
  await scrapeOperator(op); // resets the lag histogram so the window starts now
  const lags: Array<[number, number]> = [];
  while (Date.now() - from < p.durationMs) {
    await sleep(Math.min(p.scrapeEveryMs, p.durationMs - (Date.now() - from)));
    const s = await scrapeOperator(op);
    lags.push([(s.t - from) / 1000, s.eventLoopLagP99Seconds * 1000]);
    if (lags.length % 4 === 0) log(`steady n=${p.n}: ${Math.round((Date.now() - from) / 1000)} s`);
  }
  const to = Date.now();
  const after = await env.sim.calls();
  await env.audit.refresh();
  const filter = { from, to, user: OPERATOR_USER, verbs: WRITE_VERBS };
  const platform = diffCounters(before, after);
  const gaps = readGaps(after.log.filter((e) => e.t >= from - p.pollIntervalMs * 2));
  const windowLog = countCalls(after.log, from, to);
  const lagValues = lags.map(([, v]) => v);
  return {
    params: p,
    platform: { ...platform, byStatus: windowLog.byStatus },
    readsPerPollInterval: (platform.reads * p.pollIntervalMs) / (to - from),
    medianReadGapMs: gaps.median,
    objectsRead: gaps.objects,
    kubeWrites: env.audit.count(filter),
    kubeWritesByVerbResource: env.audit.breakdown(filter),
    eventLoopLagP99Ms: { max: Math.max(0, ...lagValues), p50OfScrapes: quantile(lagValues, 0.5) },
    lagSeries: lags,
  };
}
