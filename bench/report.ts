/**
 * Bench report writer: `bench/results/<stamp>.json` (every raw figure), `<stamp>.md` (tables
 * with targets) with SVG charts in `<stamp>/`, and `latest.md` (same content, same links).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ColdCreateResult } from './scenarios/cold-create.js';
import type { MixedResult } from './scenarios/mixed-fleet.js';
import type { SteadyResult } from './scenarios/steady-state.js';
import type { UpdateLatencyResult } from './scenarios/update-latency.js';
import { barChart, lineChart } from './lib/svg.js';
import { round } from './lib/stats.js';

/** Figures for one fleet size. */
export interface SizeRun {
  n: number;
  coldCreate?: ColdCreateResult;
  steady?: SteadyResult;
  updateLatency?: UpdateLatencyResult;
  error?: string;
}

/** The whole run. */
export interface BenchResult {
  startedAt: string;
  finishedAt: string;
  mode: 'full' | 'quick';
  machine: { cpus: number; loadAvgAtStart: number[]; node: string; platform: string };
  gitCommit: string;
  settings: Record<string, unknown>;
  sizes: SizeRun[];
  mixed?: MixedResult;
  mixedError?: string;
}

const KIB = 1024;
const MIB = 1024 * 1024;

function verdict(ok: boolean | undefined): string {
  if (ok === undefined) return 'n/a';
  return ok ? 'met' : '**missed**';
}

function ms(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  return v >= 10_000 ? `${round(v / 1000, 1)} s` : `${Math.round(v)} ms`;
}

/** Committed platform writes; runs before `writesOk` existed only create (201) wrote. */
function committedWrites(c: ColdCreateResult): number {
  return c.platform.writesOk ?? c.platform.byStatus['201'] ?? 0;
}

function coldRows(r: SizeRun): string[] {
  const c = r.coldCreate;
  if (!c) return [`| ${r.n} | cold create | not measured: ${r.error ?? 'skipped'} | | |`];
  const committed = committedWrites(c);
  return [
    `| ${r.n} | time to all Ready | ${ms(c.timeToAllReadyMs)} (ideal ${ms(c.idealMs)}) | ratio ≤ 1.15 | ${round(c.ratio, 2)} ${verdict(c.ratio <= 1.15)} |`,
    `| ${r.n} | platform writes per create (committed, 2xx) | ${round(committed / r.n, 3)} (attempts incl. 429/5xx answers: ${round(c.platform.writesPerCreate, 3)}) | 1 | ${verdict(committed / r.n <= 1.0001)} |`,
    `| ${r.n} | platform reads per create | ${round(c.platform.readsPerCreate, 3)} | (report) | |`,
    `| ${r.n} | Kubernetes writes per create (all, incl. Events) | ${round(c.kube.writesPerCreate, 3)} | ≤ 2 | ${verdict(c.kube.writesPerCreate <= 2)} |`,
    `| ${r.n} | Kubernetes writes per create (excl. Events) | ${round(c.kube.writesPerCreateExcludingEvents, 3)} | ≤ 2 | ${verdict(c.kube.writesPerCreateExcludingEvents <= 2)} |`,
    `| ${r.n} | RSS after sync | ${round(c.memory.synced.rssBytes / MIB, 1)} MiB (idle before: ${round(c.memory.baseline.rssBytes / MIB, 1)}) | (report) | |`,
    `| ${r.n} | heap after sync | ${round(c.memory.synced.heapUsedBytes / MIB, 1)} MiB (idle before: ${round(c.memory.baseline.heapUsedBytes / MIB, 1)}) | (report) | |`,
    `| ${r.n} | heap per cached object | ${round(c.memory.heapPerObjectBytes / KIB, 2)} KiB | ≤ 2 KiB | ${verdict(c.memory.heapPerObjectBytes <= 2 * KIB)} |`,
  ];
}

/**
 * Heap per object as the slope between the smallest and largest size: the idle baselines
 * (taken before any object exists) cancel out, so GC noise in them does not count N times.
 */
function marginalHeapRows(res: BenchResult): string[] {
  const sized = res.sizes.filter((s) => s.coldCreate).sort((a, b) => a.n - b.n);
  const lo = sized[0];
  const hi = sized[sized.length - 1];
  if (!lo?.coldCreate || !hi?.coldCreate || lo === hi) return [];
  const slope =
    (hi.coldCreate.memory.synced.heapUsedBytes - lo.coldCreate.memory.synced.heapUsedBytes) /
    (hi.n - lo.n);
  return [
    `| ${lo.n}→${hi.n} | heap per cached object, slope between the two synced fleets | ${round(slope / KIB, 2)} KiB | ≤ 2 KiB | ${verdict(slope <= 2 * KIB)} |`,
  ];
}

function steadyRows(r: SizeRun): string[] {
  const s = r.steady;
  if (!s)
    return [
      `| ${r.n} | steady state | not measured${r.coldCreate ? '' : ` (${r.error ?? 'skipped'})`} | | |`,
    ];
  const mins = round(s.params.durationMs / 60_000, 1);
  return [
    `| ${r.n} | platform writes, ${mins} min idle | ${s.platform.writes} | 0 | ${verdict(s.platform.writes === 0)} |`,
    `| ${r.n} | Kubernetes writes, ${mins} min idle | ${s.kubeWrites} | 0 | ${verdict(s.kubeWrites === 0)} |`,
    `| ${r.n} | platform reads per poll interval (${ms(s.params.pollIntervalMs)}) | ${round(s.readsPerPollInterval, 1)} (median gap between reads of one zone ${ms(s.medianReadGapMs)}) | ${r.n} | ${verdict(Math.abs(s.readsPerPollInterval - r.n) <= r.n * 0.15)} |`,
    `| ${r.n} | event-loop lag p99 (max over ${s.lagSeries.length} scrapes) | ${round(s.eventLoopLagP99Ms.max, 1)} ms (median scrape ${round(s.eventLoopLagP99Ms.p50OfScrapes, 1)} ms) | (report) | |`,
  ];
}

function updateRows(r: SizeRun): string[] {
  const u = r.updateLatency;
  if (!u) return [];
  const row = (what: string, s: UpdateLatencyResult['idle']): string =>
    `| ${r.n} | update latency ${what} (${s.samples} samples, ${s.timeouts} timeouts) | p50 ${ms(s.p50Ms)}, p99 ${ms(s.p99Ms)} from kubectl start; p50 ${ms(s.apiserverP50Ms)}, p99 ${ms(s.apiserverP99Ms)} from apiserver receipt | (report) | |`;
  return [row('idle', u.idle), row(`under load (${u.underLoad.loadCreates} creates)`, u.underLoad)];
}

function mixedSection(res: BenchResult): string[] {
  if (!res.mixed)
    return ['', '## Mixed fleet', '', `Not measured: ${res.mixedError ?? 'skipped'}.`];
  const m = res.mixed;
  const lines = [
    '',
    '## Mixed fleet',
    '',
    `All kinds together: time to all Ready ${ms(m.timeToAllReadyMs)}; platform calls ${m.platformTotal}.`,
    '',
  ];
  lines.push(
    '| kind | objects | Ready | time to all Ready | Kubernetes writes per object (kind only) |',
    '|---|---|---|---|---|',
  );
  for (const [k, f] of Object.entries(m.perKind)) {
    lines.push(
      `| ${k} | ${f.objects} | ${f.ready} | ${ms(f.timeToAllReadyMs)} | ${round(f.kubeWritesPerObject, 2)} |`,
    );
  }
  if (m.skipped.length > 0)
    lines.push('', `Skipped (CRD not installed at run time): ${m.skipped.join(', ')}.`);
  lines.push('', '| API area | reads | writes |', '|---|---|---|');
  for (const [a, c] of Object.entries(m.platformByArea))
    lines.push(`| ${a} | ${c.reads} | ${c.writes} |`);
  return lines;
}

function charts(res: BenchResult): Record<string, string> {
  const out: Record<string, string> = {};
  const sized = res.sizes.filter((s) => s.coldCreate);
  if (sized.length > 0) {
    out['ready-curve.svg'] = lineChart({
      title: 'Cold create: objects Ready over time',
      xLabel: 'seconds since the first create',
      yLabel: 'objects Ready',
      series: sized.map((s) => ({ name: `N=${s.n}`, points: s.coldCreate!.readyCurve })),
    });
    out['calls-per-create.svg'] = barChart({
      title: 'Calls per create',
      yLabel: 'calls per object',
      bars: sized.flatMap((s) => [
        { label: `platform W N=${s.n}`, value: committedWrites(s.coldCreate!) / s.n, target: 1 },
        { label: `platform R N=${s.n}`, value: s.coldCreate!.platform.readsPerCreate },
        { label: `kube W N=${s.n}`, value: s.coldCreate!.kube.writesPerCreate, target: 2 },
      ]),
    });
    out['heap-per-object.svg'] = barChart({
      title: 'Heap per cached object',
      yLabel: 'KiB',
      bars: sized.map((s) => ({
        label: `N=${s.n}`,
        value: s.coldCreate!.memory.heapPerObjectBytes / KIB,
        target: 2,
      })),
    });
  }
  const lat = res.sizes.filter((s) => s.updateLatency);
  if (lat.length > 0) {
    out['update-latency.svg'] = barChart({
      title: 'Update latency (kubectl apply → platform write)',
      yLabel: 'ms',
      bars: lat.flatMap((s) => [
        { label: `idle p50 N=${s.n}`, value: s.updateLatency!.idle.p50Ms },
        { label: `idle p99 N=${s.n}`, value: s.updateLatency!.idle.p99Ms },
        { label: `load p50 N=${s.n}`, value: s.updateLatency!.underLoad.p50Ms },
        { label: `load p99 N=${s.n}`, value: s.updateLatency!.underLoad.p99Ms },
      ]),
    });
  }
  const st = res.sizes.filter((s) => s.steady);
  if (st.length > 0) {
    out['event-loop-lag.svg'] = lineChart({
      title: 'Steady state: event-loop lag p99 per scrape',
      xLabel: 'seconds idle',
      yLabel: 'ms',
      series: st.map((s) => ({ name: `N=${s.n}`, points: s.steady!.lagSeries })),
    });
  }
  return out;
}

/** Renders the Markdown report; `chartDir` is relative to the report. */
export function renderMarkdown(res: BenchResult, chartDir: string, chartNames: string[]): string {
  const lines = [
    `# cdn-operator benchmark — ${res.startedAt}`,
    '',
    `Mode: ${res.mode}. Commit ${res.gitCommit}. ${res.machine.cpus} CPUs, load average at start ${res.machine.loadAvgAtStart.map((l) => round(l, 2)).join(' / ')}, Node ${res.machine.node}. Finished ${res.finishedAt}.`,
    '',
    'Every figure below comes from counters: cdn-sim call counters and call log (platform calls),',
    "the kube-apiserver audit log filtered to the operator's own client identity (Kubernetes writes),",
    "and the operator's Prometheus metrics (memory, event-loop lag). Raw data: the JSON next to this file.",
    '',
    '## Settings',
    '',
    '```json',
    JSON.stringify(res.settings, null, 2),
    '```',
    '',
    '## Figures',
    '',
    '| N | figure | measured | target | verdict |',
    '|---|---|---|---|---|',
  ];
  for (const r of res.sizes) lines.push(...coldRows(r), ...steadyRows(r), ...updateRows(r));
  lines.push(...marginalHeapRows(res));
  lines.push(...mixedSection(res));
  for (const r of res.sizes) {
    if (!r.coldCreate) continue;
    lines.push(
      '',
      `### Kubernetes writes by verb and resource, cold create N=${r.n}`,
      '',
      '| verb resource | count |',
      '|---|---|',
    );
    for (const [k, v] of Object.entries(r.coldCreate.kube.byVerbResource))
      lines.push(`| ${k} | ${v} |`);
    lines.push(
      '',
      `### Platform calls by route, cold create N=${r.n}`,
      '',
      '| route | count |',
      '|---|---|',
    );
    for (const [k, v] of Object.entries(r.coldCreate.platform.byRoute))
      lines.push(`| ${k} | ${v} |`);
  }
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
