/**
 * The noisy-neighbour section of the bench report (bench/scenarios/noisy-neighbour.ts):
 * tenant B's latencies without and with a misbehaving tenant A beside them, against the goals
 * of issue 28, and A's purges against the per-object bound.
 */
import type {
  LatencyFigures,
  NoisyNeighbourResult,
  TenantAFigures,
  TenantBRun,
} from '../scenarios/noisy-neighbour.js';
import { quantile } from './stats.js';

/** Goals of issue 28. */
export const NOISY_GOALS = {
  /** B's p99 update latency with A ≤ this × without A. */
  updateP99Ratio: 1.5,
};

function ms(v: number | undefined): string {
  return v === undefined || Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`;
}

function verdict(ok: boolean): string {
  return ok ? '✅ met' : '❌ missed';
}

function latency(f: LatencyFigures | undefined): string {
  if (!f) return 'n/a';
  return `p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)} (${f.done}/${f.asked} done)`;
}

function spread(values: number[] | undefined): string {
  if (!values || values.length === 0) return 'n/a';
  return `p50 ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}`;
}

function ratioOf(a: number[] | undefined, b: number[] | undefined): string {
  if (!a?.length || !b?.length) return 'n/a';
  return `${(quantile(b, 0.99) / quantile(a, 0.99)).toFixed(2)} ×`;
}

/** Where B's update time went: the apiserver, the operator before the platform, the platform. */
function breakdownRows(q: LatencyFigures | undefined, w: LatencyFigures | undefined): string[] {
  return [
    `| — of which the patch request (until the apiserver accepted it) | ${spread(q?.patchMs)} | ${spread(w?.patchMs)} | — | — |`,
    `| — apply → the pass's first platform read | ${spread(q?.toFirstReadMs)} | ${spread(w?.toFirstReadMs)} | — | — |`,
    `| — accepted → platform write (the operator's part) | ${spread(q?.fromAcceptedMs)} | ${spread(w?.fromAcceptedMs)} | p99 ratio ${ratioOf(q?.fromAcceptedMs, w?.fromAcceptedMs)} | — |`,
  ];
}

function purgeRow(a: TenantAFigures, urlObjects: number): string {
  const urlBound = urlObjects * 100 * a.boundPerObject;
  return `| A's purges on the platform over ${ms(a.purgeSpanMs)} | ${a.zonePurges} whole-zone purges (at most ${a.zonePurgesPerObjectMax} per object), ${a.urlPurges} URL purges | ≤ ${a.boundPerObject} requests per object (1 per minute): ≤ ${a.boundPerObject} zone purges per object, ≤ ${urlBound} URL purges | ${verdict(a.withinBound)} |`;
}

function loadOf(run: TenantBRun | undefined): string {
  if (!run) return 'n/a';
  return `${run.loadAvgAtStart[0]?.toFixed(1) ?? '?'} → ${run.loadAvgAtEnd[0]?.toFixed(1) ?? '?'}`;
}

function tenantBRows(n: NoisyNeighbourResult): string[] {
  const q = n.quiet;
  const w = n.noisy;
  const ratio = q && w ? w.updates.p99Ms / q.updates.p99Ms : NaN;
  const updateOk =
    ratio <= NOISY_GOALS.updateP99Ratio && w !== undefined && w.updates.done === w.updates.asked;
  const createsOk = w !== undefined && w.creates.done === w.creates.asked;
  const measured = Number.isNaN(ratio) ? 'n/a' : `${ratio.toFixed(2)} ×`;
  return [
    '| figure | without A | with A | goal | verdict |',
    '|---|---|---|---|---|',
    `| B update latency (apply → platform write) | ${latency(q?.updates)} | ${latency(w?.updates)} | p99 with A ≤ ${NOISY_GOALS.updateP99Ratio} × without (measured ${measured}) | ${verdict(updateOk)} |`,
    ...breakdownRows(q?.updates, w?.updates),
    `| B create latency (apply → Ready) | ${latency(q?.creates)} | ${latency(w?.creates)} | all of B's creates done | ${verdict(createsOk)} |`,
    `| load average (1 min) at start → end | ${loadOf(q)} | ${loadOf(w)} | — | — |`,
  ];
}

function tenantARows(a: TenantAFigures, urlObjects: number): string[] {
  return [
    '| tenant A | measured | bound | verdict |',
    '|---|---|---|---|',
    `| what A asked for | ${a.changes} changes, ${a.purgeBumps} purge requests, ${a.creates} creates (${a.createsReady} Ready by the end) | — | — |`,
    `| A's requests | ${a.platformCalls} reached the platform, ${a.refused429} answered 429 by its throttled account | — | — |`,
    purgeRow(a, urlObjects),
  ];
}

/** The report section; empty when the scenario did not run. */
export function noisySection(n: NoisyNeighbourResult | undefined): string[] {
  if (!n) return [];
  const s = n.settings;
  const out = [
    '',
    '## Noisy neighbour (issue 28)',
    '',
    `Two tenants on two accounts, one operator (\`${s.operatorArgs.join(' ')}\`), cdn-sim at 50 ms. Tenant B: ${s.bExisting} existing zones, ${s.bUpdates} updates and ${s.bCreates} creates spread over ${ms(s.durationMs)}. Tenant A, in the second run only: its account throttled to ${s.aRatePerSecond} requests/s (429, Retry-After ${s.retryAfterSeconds} s), every ${ms(s.aRoundMs)} a change and a purge request on each of its ${s.aExisting} zones (${s.aUrlObjects} of them purging 100 URLs), and ${s.aCreates} creates at once.`,
    '',
  ];
  if (n.error) out.push(`Failed: ${n.error}`, '');
  out.push(...tenantBRows(n));
  if (n.a) out.push('', ...tenantARows(n.a, s.aUrlObjects));
  return out;
}
