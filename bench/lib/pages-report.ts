/**
 * The observe-by-pages section of the bench report (bench/scenarios/observe-by-pages.ts):
 * per fleet size, per-object polling (by id) beside list sweeps (pages), against the goals of
 * issue 50.
 */
import type { PagesModeResult, PagesResult } from '../scenarios/observe-by-pages.js';

/** Goals of issue 50. */
export const PAGES_GOALS = {
  /** Platform reads per object per poll interval with sweeps (today 1.0). */
  readsPerObject: 0.01,
  /** Drift detection p99, ms (at 100,000 objects on one account). */
  driftP99Ms: 60_000,
  /** Sweep requests per second. */
  sweepRate: 10,
};

const num = (v: number, digits = 3): string => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const sec = (ms: number): string => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'n/a');
const mark = (ok: boolean): string => (ok ? '✅' : '❌');

/** Fleet sizes the goals of issue 50 name: reads at 10,000, drift at 100,000. */
export const GOAL_SIZES = { readsPerObject: 10_000, driftP99: 100_000 };

/** The verdict at `n`, or a note that the goal is set at another size (figure still shown). */
function verdictAt(n: number, goalN: number, ok: boolean): string {
  return n === goalN ? mark(ok) : `(goal set at ${goalN.toLocaleString('en')}; no verdict here)`;
}

function row(what: string, f: (m: PagesModeResult) => string, modes: PagesModeResult[]): string {
  return `| ${what} | ${modes.map(f).join(' | ')} |`;
}

function sizeSection(r: PagesResult): string[] {
  const m = r.modes;
  const byId = m.find((x) => x.mode === 'by-id');
  const pages = m.find((x) => x.mode === 'pages');
  const p = r.params;
  const lines = [
    `### N = ${p.n.toLocaleString('en')} (poll interval ${sec(p.pollIntervalMs)}, window ${sec(p.windowMs)}, ${p.drifts} drift changes, share ${p.readShare}, sweep interval ${sec(p.sweepIntervalMs)})`,
    '',
    `| figure | ${m.map((x) => x.mode).join(' | ')} |`,
    `|---|${m.map(() => '---').join('|')}|`,
    row(
      'reads by id (of them correcting drift) / sweep pages in the window',
      (x) => `${x.readsById} (${x.correctionReads ?? 'n/a'}) / ${x.sweepPages}`,
      m,
    ),
    row(
      'reads per object per poll interval, steady state',
      (x) => num(x.readsPerObjectPerPollInterval, 4),
      m,
    ),
    row(
      'reads per object per poll interval, corrections included',
      (x) => num(x.allReadsPerObjectPerPollInterval ?? NaN, 4),
      m,
    ),
    row('reads per object per 10 minutes', (x) => num(x.readsPerObjectPer10m, 4), m),
    row('sweep requests per second', (x) => num(x.sweepRequestsPerSecond, 2), m),
    row('platform writes besides the drift corrections', (x) => String(x.otherWrites), m),
    row(
      'drift → corrected p50 / p99 / max',
      (x) =>
        `${sec(x.drift.p50Ms)} / ${sec(x.drift.p99Ms)} / ${sec(x.drift.maxMs)} (${x.drift.corrected}/${x.drift.made})`,
      m,
    ),
    row('all objects Ready after', (x) => sec(x.readyMs), m),
    row('heap after a forced GC', (x) => `${(x.heapUsedBytes / 1048576).toFixed(1)} MiB`, m),
    '',
  ];
  if (pages) {
    lines.push(
      `- steady-state reads per object per poll interval with sweeps: ${num(pages.readsPerObjectPerPollInterval, 4)} ${verdictAt(p.n, GOAL_SIZES.readsPerObject, pages.readsPerObjectPerPollInterval <= PAGES_GOALS.readsPerObject)} (goal ≤ ${PAGES_GOALS.readsPerObject} at 10,000)`,
      `- sweep requests per second: ${num(pages.sweepRequestsPerSecond, 2)} ${mark(pages.sweepRequestsPerSecond <= PAGES_GOALS.sweepRate)} (goal ≤ ${PAGES_GOALS.sweepRate})`,
      `- drift detected and corrected, p99: ${sec(pages.drift.p99Ms)} ${verdictAt(p.n, GOAL_SIZES.driftP99, pages.drift.p99Ms <= PAGES_GOALS.driftP99Ms && pages.drift.corrected === pages.drift.made)} (goal ≤ 60 s at 100,000)`,
    );
  }
  if (pages && byId)
    lines.push(
      `- writes: ${pages.otherWrites} with sweeps, ${byId.otherWrites} by id ${mark(pages.otherWrites <= byId.otherWrites)} (goal: no more than by id)`,
    );
  if (r.heapPerCachedRecordBytes !== undefined)
    lines.push(
      `- heap per cached record: ${(r.heapPerCachedRecordBytes / 1024).toFixed(2)} KiB ((pages − by id) ÷ N, after a forced GC each)`,
    );
  lines.push('');
  return lines;
}

/** The section's Markdown lines (none when the scenario did not run). */
export function pagesSection(results: PagesResult[] | undefined): string[] {
  if (!results || results.length === 0) return [];
  return [
    '## Observe by pages (issue 50)',
    '',
    'Per-object polling (`--sweep-read-share 0`, every drift check reads its zone by id) beside list sweeps (observe by pages) on the same seeded account; method in docs/bench.md#observe-by-pages.',
    '',
    ...results.flatMap(sizeSection),
  ];
}
