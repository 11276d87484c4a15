/**
 * Bench report writer: `bench/results/<stamp>.json` (every raw figure), `<stamp>.md` (the
 * matrix with goals, verdicts and, for a missed goal, what the figures say about why) with
 * SVG charts in `<stamp>/`, and `latest.md` (same content, same links).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CEILING_FORMULA, ceilingRate, type MatrixConfig } from './lib/matrix.js';
import { honestRatio, type HonestRatio } from './lib/honest-ceiling.js';
import type { NullBaselineResult } from './scenarios/null-baseline.js';
import type { ColdCreateResult } from './scenarios/cold-create.js';
import type { MixedResult } from './scenarios/mixed-fleet.js';
import type { SteadyResult } from './scenarios/steady-state.js';
import type { UpdateAllResult } from './scenarios/update-all.js';
import type { UpdateLatencyResult } from './scenarios/update-latency.js';
import { barChart, lineChart, type Bar, type Series } from './lib/svg.js';
import { noisySection } from './lib/noisy-report.js';
import type { NoisyNeighbourResult } from './scenarios/noisy-neighbour.js';
import type { ApplyEndToEndResult } from './scenarios/apply-end-to-end.js';
import { applySection } from './scenarios/apply-section.js';
import type { PagesResult } from './scenarios/observe-by-pages.js';
import { pagesSection } from './lib/pages-report.js';
import { round } from './lib/stats.js';
import { STALL_MS, type StallWindow } from './lib/stall-window.js';

/** One fleet size within a configuration. */
export interface CellRun {
  n: number;
  skipped?: string;
  error?: string;
  loadAvgAtStart?: number[];
  loadAvgAtEnd?: number[];
  heapBeforeBytes?: number;
  heapAfterBytes?: number;
  create?: ColdCreateResult;
  update?: UpdateAllResult;
  /** The null-controller baseline of the cell (bench/scenarios/null-baseline.ts). */
  nullBaseline?: NullBaselineResult;
}

/** One platform configuration. */
export interface ConfigRun {
  config: MatrixConfig;
  operatorArgs: string[];
  loadAvgAtStart: number[];
  loadAvgAtEnd?: number[];
  heapIdleBytes?: number;
  heapEndBytes?: number;
  cells: CellRun[];
  updateLatency?: UpdateLatencyResult;
  updateLatencySkipped?: string;
  steady?: SteadyResult;
  mixed?: MixedResult;
  mixedError?: string;
  error?: string;
}

/** The whole run. */
export interface BenchResult {
  startedAt: string;
  finishedAt: string;
  mode: 'full' | 'quick';
  machine: {
    cpus: number;
    loadAvgAtStart: number[];
    loadAvgAtEnd?: number[];
    node: string;
    platform: string;
  };
  gitCommit: string;
  settings: Record<string, unknown>;
  configs: ConfigRun[];
  /** Explanations added after the run (`--render <json> --notes <json>`), by row key. */
  notes?: Record<string, string>;
  /** The noisy-neighbour scenario (issue 28). */
  noisy?: NoisyNeighbourResult;
  /** kubectl apply + reconcile end to end (issue 32). */
  apply?: ApplyEndToEndResult;
  /** Observe by pages against per-object polling, per fleet size (issue 50). */
  pages?: PagesResult[];
}

const KIB = 1024;
const MIB = 1024 * 1024;

/** Goals of issue 17. */
export const GOALS = {
  createRatio: 1.25,
  updateRatio: 1.5,
  sustainedShare: 0.9,
  tooManyShare: 0.02,
  latencyBaseMs: 1000,
  kubeWritesPerCreate: 2,
  heapSlopeBytes: 2 * KIB,
  lagP99Ms: 50,
};

function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  return v >= 10_000 ? `${round(v / 1000, 1)} s` : `${Math.round(v)} ms`;
}

function verdict(ok: boolean | undefined): string {
  if (ok === undefined) return 'n/a';
  return ok ? 'met' : '**missed**';
}

function loads(l: number[] | undefined): string {
  return l ? l.map((x) => round(x, 1)).join(' / ') : 'n/a';
}

/** A table row: key (for notes), what, measured, goal, verdict. */
interface Row {
  key: string;
  cfg: string;
  what: string;
  measured: string;
  goal: string;
  ok: boolean | undefined;
  why?: string;
}

function workersOf(res: BenchResult): number {
  return Number(res.settings.workers ?? 8);
}

/** What the figures say about a missed timed phase (rates, bench-side floor, load). */
function timedWhy(
  c: MatrixConfig,
  workers: number,
  time: number | null,
  floorMs: number,
  rate: { sustainedPerSecond: number; tooManyShare: number },
  perObject: number,
  load: number[] | undefined,
): string {
  if (time === null) return 'did not finish within the timeout';
  const parts: string[] = [];
  const cap = ceilingRate(c, workers);
  parts.push(
    `platform served ${round(rate.sustainedPerSecond, 1)} req/s of the ${round(cap, 1)}/s ceiling rate`,
  );
  if (floorMs > 0.7 * time)
    parts.push(`the bench itself needed ${ms(floorMs)} to send the objects to the apiserver`);
  if (rate.tooManyShare > GOALS.tooManyShare)
    parts.push(`${round(rate.tooManyShare * 100, 1)} % of requests answered 429`);
  if (perObject > 1.01) parts.push(`${round(perObject, 2)} committed platform writes per object`);
  parts.push(`load average ${loads(load)} at the end of the configuration`);
  return parts.join('; ');
}

/** The honest-ceiling clause of a timed row ('' without a baseline). */
function honestText(h: HonestRatio | undefined): string {
  if (!h) return '';
  const bound = h.machineBound ? 'machine-bound' : 'platform-bound';
  return `; null controller ${ms(h.nullMs)} → ÷ max(ceiling, null) = **${round(h.ratio, 2)}** (${bound})`;
}

/** The verdict of a timed row: against the honest ceiling when the cell has a baseline. */
function timedOk(ratio: number | null, h: HonestRatio | undefined, goal: number): boolean {
  if (h) return h.ratio <= goal;
  return ratio !== null && ratio <= goal;
}

/** Calls per updated object and the ratio counting the write alone (older results: writes only). */
function updateCalls(u: NonNullable<CellRun['update']>): string {
  const writes = `${round(u.committedWritesPerObject, 3)} committed writes per object`;
  if (u.callsPerObject === undefined) return writes;
  const alone =
    u.writesOnlyRatio === null || u.writesOnlyRatio === undefined
      ? 'n/a'
      : round(u.writesOnlyRatio, 2);
  return `${round(u.callsPerObject, 2)} platform calls per object: the observe read and ${writes}; counting the write alone ${ms(u.writesOnlyCeilingMs ?? 0)}, ratio ${alone}`;
}

function updateRows(res: BenchResult, run: ConfigRun, cell: CellRun): Row[] {
  const id = run.config.id;
  const base = `${id}/${cell.n}`;
  const w = workersOf(res);
  const rows: Row[] = [];
  if (cell.update) {
    const u = cell.update;
    const h = honestRatio(u.timeToAllWrittenMs, u.ceilingMs, cell.nullBaseline?.updateMs);
    rows.push({
      key: `${base}/update`,
      cfg: id,
      what: `N=${cell.n} update one field in all: time until the platform shows all ÷ ceiling`,
      measured: `${ms(u.timeToAllWrittenMs)} ÷ ${ms(u.ceilingMs)} = **${u.ratio === null ? 'n/a' : round(u.ratio, 2)}** (${u.written}/${u.n} written; patches took ${ms(u.patchRequestsMs)}; ${updateCalls(u)})${honestText(h)}`,
      goal: `≤ ${GOALS.updateRatio}`,
      ok: timedOk(u.ratio, h, GOALS.updateRatio),
      why: timedWhy(
        run.config,
        w,
        u.timeToAllWrittenMs,
        u.patchRequestsMs,
        u.rate,
        u.committedWritesPerObject,
        cell.loadAvgAtEnd ?? run.loadAvgAtEnd,
      ),
    });
  }
  return rows;
}

function rateRows(run: ConfigRun, cell: CellRun): Row[] {
  const id = run.config.id;
  const base = `${id}/${cell.n}`;
  const c = cell.create;
  if (!c) return [];
  const rows: Row[] = [];
  const limit = run.config.platformLimit;
  if (limit !== undefined) {
    for (const [phase, r] of [
      ['create', c.rate],
      ['update', cell.update?.rate],
    ] as const) {
      if (!r) continue;
      const share = r.sustainedPerSecond / limit;
      rows.push({
        key: `${base}/${phase}-rate`,
        cfg: id,
        what: `N=${cell.n} ${phase}: sustained platform rate ÷ limit; 429 share`,
        measured: `${round(r.sustainedPerSecond, 1)}/s ÷ ${limit}/s = ${round(share * 100, 1)} %; 429: ${r.tooMany} of ${r.requests} = ${round(r.tooManyShare * 100, 2)} %`,
        goal: `≥ ${GOALS.sustainedShare * 100} %; ≤ ${GOALS.tooManyShare * 100} %`,
        ok: share >= GOALS.sustainedShare && r.tooManyShare <= GOALS.tooManyShare,
      });
    }
  }
  return rows;
}

/**
 * What the stall probe saw in the first window: of the time the event loop stalled (timer
 * ≥ 20 ms late), how much the operator's main thread ran and how much it waited for a CPU.
 */
export function stallText(series: ReadonlyArray<[number, StallWindow]> | undefined): string {
  const w = series?.[0]?.[1];
  if (!w || w.stalls === 0) return '';
  const share = (ms: number): string => `${Math.round((100 * ms) / w.stallMs)} %`;
  return (
    `; first window's ${w.stalls} stalls (${round(w.stallMs, 0)} ms): the main thread ran ` +
    `${share(w.stallRanMs)}, waited for a CPU ${share(w.stallWaitedMs)}; its own work's p99 ` +
    `${ownP99(w)} (worst stall ${round(w.worstMs, 0)} ms: ran ${round(w.worstRanMs, 0)}, ` +
    `waited ${round(w.worstWaitedMs, 0)})`
  );
}

/** The own-work p99 of a stall window; the probe knows values from STALL_MS up only. */
function ownP99(w: StallWindow): string {
  return w.ranP99Ms <= STALL_MS ? `< ${STALL_MS} ms` : `${round(w.ranP99Ms, 1)} ms`;
}

/** Why the lag goal was missed, from the null controller's lag and the stall probe. */
function lagWhy(
  floor: { worst: number; first: number } | undefined,
  stalls: ReadonlyArray<[number, StallWindow]> | undefined,
): { why?: string } {
  const parts: string[] = [];
  if (floor)
    parts.push(
      `the null controller, a process doing the operator's Kubernetes work for the same N on this machine with no platform calls, saw ${round(floor.worst, 1)} ms in its worst window: ${floor.worst > GOALS.lagP99Ms ? 'machine-bound (this machine gives any controller that lag)' : 'the operator’s own'}`,
    );
  const w = stalls?.[0]?.[1];
  if (w && w.stalls > 0)
    parts.push(
      `in the first window the operator's own work (its p99 of CPU time per 5 ms timer tick) is ${ownP99(w)}, ${w.ranP99Ms > GOALS.lagP99Ms ? 'above the goal: the operator’s own' : 'within the goal'}; during its stalls the main thread waited for a CPU ${Math.round((100 * w.stallWaitedMs) / w.stallMs)} % of the time (two cores shared with the apiserver, etcd, cdn-sim and the bench)${w.ranP99Ms > GOALS.lagP99Ms ? '' : ': the lag beyond the goal is that wait'}`,
    );
  return parts.length > 0 ? { why: parts.join('; ') } : {};
}

/** The null controller's worst and first lag windows during its create, if measured. */
function nullLagOf(cell: CellRun): { worst: number; first: number } | undefined {
  const series = cell.nullBaseline?.createLagSeries;
  if (!series || series.length === 0) return undefined;
  return { worst: Math.max(...series.map(([, v]) => v)), first: series[0]?.[1] ?? 0 };
}

function lagRows(res: BenchResult, run: ConfigRun, cell: CellRun): Row[] {
  const id = run.config.id;
  const base = `${id}/${cell.n}`;
  const c = cell.create;
  if (!c) return [];
  const rows: Row[] = [];
  if (
    cell.n >= 10_000 ||
    cell.n === Math.max(...res.configs.flatMap((r) => r.cells.map((x) => x.n)))
  ) {
    const floor = nullLagOf(cell);
    rows.push({
      key: `${base}/lag`,
      cfg: id,
      what: `N=${cell.n} event-loop lag p99 during the create (worst 5 s window of ${c.lagSeries.length})`,
      measured: `${round(c.lagP99MaxMs, 1)} ms (first window ${round(c.lagSeries[0]?.[1] ?? 0, 1)} ms)${floor ? `; null controller ${round(floor.worst, 1)} ms (first window ${round(floor.first, 1)} ms)` : ''}${stallText(c.stallSeries)}`,
      goal: `≤ ${GOALS.lagP99Ms} ms`,
      ok: c.lagP99MaxMs <= GOALS.lagP99Ms,
      ...(c.lagP99MaxMs > GOALS.lagP99Ms ? lagWhy(floor, c.stallSeries) : {}),
    });
  }
  return rows;
}

function cellRows(res: BenchResult, run: ConfigRun, cell: CellRun): Row[] {
  const id = run.config.id;
  const base = `${id}/${cell.n}`;
  if (cell.skipped || !cell.create)
    return [
      {
        key: `${base}/create`,
        cfg: id,
        what: `N=${cell.n} cold create`,
        measured: cell.skipped ?? cell.error ?? run.error ?? 'not measured',
        goal: `≤ ${GOALS.createRatio}`,
        ok: undefined,
      },
    ];
  const c = cell.create;
  const w = workersOf(res);
  const h = honestRatio(c.timeToAllReadyMs, c.ceilingMs, cell.nullBaseline?.createMs);
  const rows: Row[] = [
    {
      key: `${base}/create`,
      cfg: id,
      what: `N=${cell.n} cold create: time to all Ready ÷ ceiling`,
      measured: `${ms(c.timeToAllReadyMs)} ÷ ${ms(c.ceilingMs)} = **${c.ratio === null ? 'n/a' : round(c.ratio, 2)}** (${c.readyCount} Ready; POSTs took ${ms(c.createRequestsMs)})${honestText(h)}`,
      goal: `≤ ${GOALS.createRatio}`,
      ok: timedOk(c.ratio, h, GOALS.createRatio),
      why: timedWhy(
        run.config,
        w,
        c.timeToAllReadyMs,
        c.createRequestsMs,
        c.rate,
        c.platform.committedWritesPerCreate,
        cell.loadAvgAtEnd ?? run.loadAvgAtEnd,
      ),
    },
    {
      key: `${base}/platform-writes`,
      cfg: id,
      what: `N=${cell.n} platform writes per create (committed 2xx) / duplicates`,
      measured: `${round(c.platform.committedWritesPerCreate, 3)} / ${c.platform.duplicates} (${c.platform.committedCreates} creates answered 2xx, ${c.platform.distinctZoneIds} distinct zone ids; ${c.platform.writes} write attempts, ${round(c.platform.readsPerCreate, 3)} reads per create)`,
      goal: '1 / 0',
      ok: Math.abs(c.platform.committedWritesPerCreate - 1) < 0.0005 && c.platform.duplicates === 0,
    },
    {
      key: `${base}/kube-writes`,
      cfg: id,
      what: `N=${cell.n} Kubernetes writes per create (excl. Events)`,
      measured: `${round(c.kube.writesPerCreateExcludingEvents, 3)} (+ ${round(c.kube.eventsPerCreate, 3)} Events)`,
      goal: `≤ ${GOALS.kubeWritesPerCreate}`,
      ok: c.kube.writesPerCreateExcludingEvents <= GOALS.kubeWritesPerCreate,
    },
  ];
  return [
    ...rows,
    ...updateRows(res, run, cell),
    ...rateRows(run, cell),
    ...lagRows(res, run, cell),
  ];
}

/** Heap slope between the objects held before and after the largest cell's create. */
function heapRows(run: ConfigRun): Row[] {
  const cells = run.cells.filter((c) => c.create && c.heapBeforeBytes !== undefined);
  const big = cells[cells.length - 1];
  if (!big?.create || big.heapBeforeBytes === undefined || big.heapAfterBytes === undefined)
    return [];
  const slope = (big.heapAfterBytes - big.heapBeforeBytes) / big.n;
  return [
    {
      key: `${run.config.id}/heap`,
      cfg: run.config.id,
      what: `heap per managed object (forced GC; slope over the N=${big.n} create)`,
      measured: `${round(slope / KIB, 2)} KiB (${round(big.heapBeforeBytes / MIB, 1)} → ${round(big.heapAfterBytes / MIB, 1)} MiB; idle ${run.heapIdleBytes !== undefined ? round(run.heapIdleBytes / MIB, 1) : 'n/a'} MiB)`,
      goal: '≤ 2 KiB',
      ok: slope <= GOALS.heapSlopeBytes,
    },
  ];
}

function latencyRows(run: ConfigRun): Row[] {
  const goal = GOALS.latencyBaseMs + run.config.latencyMs;
  const u = run.updateLatency;
  if (!u)
    return [
      {
        key: `${run.config.id}/latency`,
        cfg: run.config.id,
        what: 'update latency under creates',
        measured: run.updateLatencySkipped ?? 'not measured',
        goal: `p99 ≤ ${goal} ms`,
        ok: undefined,
      },
    ];
  const inflight = [...u.inFlightAtSample].sort((a, b) => a - b);
  return [
    {
      key: `${run.config.id}/latency`,
      cfg: run.config.id,
      what: `update latency apply → platform write while ${u.loadCreates} creates are in flight`,
      measured: `p50 ${ms(u.p50Ms)}, p99 ${ms(u.p99Ms)} (${u.samples} samples, ${u.timeouts} timeouts; creates in flight per sample ${inflight[0] ?? 'n/a'}–${inflight[inflight.length - 1] ?? 'n/a'})`,
      goal: `p99 ≤ ${goal} ms`,
      ok: u.samples > 0 && u.timeouts === 0 && u.p99Ms <= goal,
    },
  ];
}

function mixedRows(run: ConfigRun): Row[] {
  if (!run.mixed) return [];
  return Object.entries(run.mixed.perKind).map(([kind, f]) => ({
    key: `${run.config.id}/mixed/${kind}`,
    cfg: run.config.id,
    what: `mixed fleet: Kubernetes writes per create, ${kind} (${f.ready}/${f.objects} Ready in ${ms(f.timeToAllReadyMs)})`,
    measured: `${round(f.kubeWritesPerObject, 2)}`,
    goal: `≤ ${GOALS.kubeWritesPerCreate}`,
    ok: f.kubeWritesPerObject <= GOALS.kubeWritesPerCreate,
  }));
}

/** Every row of the report, in order. */
export function allRows(res: BenchResult): Row[] {
  return res.configs.flatMap((run) => [
    ...run.cells.flatMap((cell) => cellRows(res, run, cell)),
    ...latencyRows(run),
    ...heapRows(run),
    ...mixedRows(run),
  ]);
}

function table(res: BenchResult, rows: Row[]): string[] {
  const out = ['| config | figure | measured | goal | verdict |', '|---|---|---|---|---|'];
  for (const r of rows) {
    out.push(`| ${r.cfg} | ${r.what} | ${r.measured} | ${r.goal} | ${verdict(r.ok)} |`);
  }
  const missed = rows.filter((r) => r.ok === false);
  if (missed.length > 0) {
    out.push('', '### Missed goals: why, and what would close them', '');
    for (const r of missed) {
      const note = res.notes?.[r.key];
      out.push(
        `- **${r.cfg}, ${r.what}** — ${r.measured}. Figures: ${r.why ?? 'see the row'}.${note ? ` ${note}` : ''}`,
      );
    }
  }
  const skipped = rows.filter((r) => r.ok === undefined);
  if (skipped.length > 0) {
    out.push('', '### Not measured', '');
    for (const r of skipped)
      out.push(
        `- ${r.cfg}, ${r.what}: ${r.measured}${res.notes?.[r.key] ? ` ${res.notes[r.key]}` : ''}`,
      );
  }
  return out;
}

function configSection(res: BenchResult): string[] {
  const w = workersOf(res);
  const out = [
    '| config | platform | operator flags | ceiling rate | load average start → end |',
    '|---|---|---|---|---|',
  ];
  for (const r of res.configs) {
    out.push(
      `| ${r.config.id} | ${r.config.label} | \`${r.operatorArgs.join(' ')}\` | ${round(ceilingRate(r.config, w), 1)} req/s | ${loads(r.loadAvgAtStart)} → ${loads(r.loadAvgAtEnd)} |`,
    );
  }
  return out;
}

function bySize(res: BenchResult): number[] {
  return [...new Set(res.configs.flatMap((r) => r.cells.map((c) => c.n)))].sort((a, b) => a - b);
}

function curveCharts(res: BenchResult, out: Record<string, string>): void {
  for (const n of bySize(res)) {
    const create: Series[] = [];
    const update: Series[] = [];
    for (const r of res.configs) {
      const cell = r.cells.find((c) => c.n === n);
      if (cell?.create) create.push({ name: r.config.id, points: cell.create.readyCurve });
      if (cell?.update) update.push({ name: r.config.id, points: cell.update.curve });
    }
    if (create.length > 0)
      out[`create-${n}.svg`] = lineChart({
        title: `Cold create N=${n}: objects Ready over time`,
        xLabel: 'seconds since the first create',
        yLabel: 'objects Ready',
        series: create,
      });
    if (update.length > 0)
      out[`update-${n}.svg`] = lineChart({
        title: `Update all N=${n}: zones written on the platform over time`,
        xLabel: 'seconds since the first patch',
        yLabel: 'zones written',
        series: update,
      });
  }
}

function ratioChart(res: BenchResult, out: Record<string, string>): void {
  const bars: Bar[] = [];
  for (const r of res.configs)
    for (const c of r.cells) {
      if (c.create?.ratio != null)
        bars.push({
          label: `${r.config.id} C${c.n}`,
          value: c.create.ratio,
          target: GOALS.createRatio,
        });
      if (c.update?.ratio != null)
        bars.push({
          label: `${r.config.id} U${c.n}`,
          value: c.update.ratio,
          target: GOALS.updateRatio,
        });
    }
  if (bars.length > 0)
    out['ratios.svg'] = barChart({
      title: 'Time ÷ ceiling (C = cold create, U = update all)',
      yLabel: 'ratio',
      bars,
    });
}

function rateCharts(res: BenchResult, out: Record<string, string>): void {
  for (const r of res.configs) {
    if (r.config.platformLimit === undefined) continue;
    const cell = [...r.cells].reverse().find((c) => c.create);
    if (!cell?.create) continue;
    const pts = cell.create.rate.perSecond;
    out[`rate-${r.config.id}.svg`] = lineChart({
      title: `${r.config.id}: platform requests per second, create N=${cell.n} (limit ${r.config.platformLimit}/s)`,
      xLabel: 'seconds since the first create',
      yLabel: 'requests/s',
      series: [
        { name: 'served', points: pts.map(([t, s]) => [t, s]) },
        { name: '429', points: pts.map(([t, , x]) => [t, x]) },
        {
          name: 'limit',
          points:
            pts.length > 0
              ? [
                  [0, r.config.platformLimit],
                  [pts.length, r.config.platformLimit],
                ]
              : [],
        },
      ],
    });
  }
}

function otherCharts(res: BenchResult, out: Record<string, string>): void {
  const lag: Series[] = [];
  const lat: Bar[] = [];
  const heap: Bar[] = [];
  const kube: Bar[] = [];
  for (const r of res.configs) {
    const big = [...r.cells].reverse().find((c) => c.create);
    if (big?.create) lag.push({ name: `${r.config.id} N=${big.n}`, points: big.create.lagSeries });
    if (r.updateLatency) {
      const goal = GOALS.latencyBaseMs + r.config.latencyMs;
      lat.push({ label: `${r.config.id} p50`, value: r.updateLatency.p50Ms, target: goal });
      lat.push({ label: `${r.config.id} p99`, value: r.updateLatency.p99Ms, target: goal });
    }
    const hr = heapRows(r)[0];
    const cells = r.cells.filter(
      (c) => c.heapBeforeBytes !== undefined && c.heapAfterBytes !== undefined,
    );
    const b = cells[cells.length - 1];
    if (hr && b)
      heap.push({
        label: r.config.id,
        value: ((b.heapAfterBytes as number) - (b.heapBeforeBytes as number)) / b.n / KIB,
        target: 2,
      });
    for (const [k, f] of Object.entries(r.mixed?.perKind ?? {}))
      kube.push({ label: k, value: f.kubeWritesPerObject, target: GOALS.kubeWritesPerCreate });
  }
  if (lag.length > 0)
    out['event-loop-lag.svg'] = lineChart({
      title: 'Event-loop lag p99 per 5 s window, largest create',
      xLabel: 'seconds since the first create',
      yLabel: 'ms',
      series: lag,
    });
  if (lat.length > 0)
    out['update-latency.svg'] = barChart({
      title: 'Update latency under creates (apply → platform write)',
      yLabel: 'ms',
      bars: lat,
    });
  if (heap.length > 0)
    out['heap-per-object.svg'] = barChart({
      title: 'Heap per managed object (forced GC, slope)',
      yLabel: 'KiB',
      bars: heap,
    });
  if (kube.length > 0)
    out['kube-writes-mixed.svg'] = barChart({
      title: 'Mixed fleet: Kubernetes writes per create',
      yLabel: 'writes per object',
      bars: kube,
    });
}

function charts(res: BenchResult): Record<string, string> {
  const out: Record<string, string> = {};
  ratioChart(res, out);
  curveCharts(res, out);
  rateCharts(res, out);
  otherCharts(res, out);
  return out;
}

function breakdowns(res: BenchResult): string[] {
  const out: string[] = [];
  for (const r of res.configs)
    for (const c of r.cells) {
      if (!c.create) continue;
      out.push(
        '',
        `### ${r.config.id}, N=${c.n}: calls during the create`,
        '',
        '| Kubernetes (operator) | count | platform | count |',
        '|---|---|---|---|',
      );
      const k = Object.entries(c.create.kube.byVerbResource);
      const p = Object.entries(c.create.platform.byRoute);
      for (let i = 0; i < Math.max(k.length, p.length); i++) {
        const [kk, kv] = k[i] ?? ['', ''];
        const [pk, pv] = p[i] ?? ['', ''];
        out.push(`| ${kk} | ${kv} | ${pk} | ${pv} |`);
      }
    }
  return out;
}

/** Renders the Markdown report; `chartDir` is relative to the report. */
export function renderMarkdown(res: BenchResult, chartDir: string, chartNames: string[]): string {
  const mixed = res.configs.find((r) => r.mixed || r.mixedError);
  const lines = [
    `# cdn-operator benchmark matrix — ${res.startedAt}`,
    '',
    `Mode: ${res.mode}. Commit ${res.gitCommit}. ${res.machine.cpus} CPUs, load average (1/5/15 min) at start ${loads(res.machine.loadAvgAtStart)}, at end ${loads(res.machine.loadAvgAtEnd)}; Node ${res.machine.node}. Finished ${res.finishedAt}.`,
    '',
    'Every figure comes from a counter: the cdn-sim call log (platform calls, with timestamps),',
    "the kube-apiserver audit log filtered to the operator's own client identity (Kubernetes writes),",
    "the operator's /metrics (event-loop lag) and its heap after a forced full GC. Raw data: the JSON next to this file.",
    '',
    `**Ceiling:** ${CEILING_FORMULA}, where platform calls per object is the measured committed writes per object (at least 1), L the simulated latency and workers the operator's \`--workers\`. The ratio is time ÷ ceiling; 1.0 is the best possible.`,
    '',
    '## Configurations',
    '',
    ...configSection(res),
    '',
    '## Matrix',
    '',
    ...table(res, allRows(res)),
  ];
  if (mixed?.mixedError) lines.push('', `Mixed fleet failed: ${mixed.mixedError}.`);
  if (mixed?.mixed?.skipped.length)
    lines.push(
      '',
      `Mixed fleet kinds skipped (CRD not installed): ${mixed.mixed.skipped.join(', ')}.`,
    );
  lines.push(...applySection(res.apply));
  lines.push(...noisySection(res.noisy));
  lines.push(...pagesSection(res.pages));
  lines.push('', '## Settings', '', '```json', JSON.stringify(res.settings, null, 2), '```');
  lines.push(...breakdowns(res));
  if (chartNames.length > 0) {
    lines.push('', '## Charts', '');
    for (const name of chartNames) lines.push(`![${name}](${chartDir}/${name})`, '');
  }
  return lines.join('\n') + '\n';
}

/**
 * Writes JSON, Markdown, charts and latest.md; returns the Markdown path. With `rendering`
 * the JSON is left as it is (re-rendering an earlier run's figures).
 */
export async function writeReport(
  res: BenchResult,
  dir: string,
  rendering = false,
): Promise<string> {
  const stamp = res.startedAt.replace(/:/g, '-').replace(/\.\d+Z$/, 'Z');
  await mkdir(join(dir, stamp), { recursive: true });
  const svgs = charts(res);
  for (const [name, svg] of Object.entries(svgs)) await writeFile(join(dir, stamp, name), svg);
  if (!rendering) await writeFile(join(dir, `${stamp}.json`), JSON.stringify(res, null, 2) + '\n');
  const md = renderMarkdown(res, stamp, Object.keys(svgs));
  await writeFile(join(dir, `${stamp}.md`), md);
  await writeFile(join(dir, 'latest.md'), md);
  return join(dir, `${stamp}.md`);
}
