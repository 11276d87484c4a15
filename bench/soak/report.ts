/** The soak's JSON, Markdown and heap chart from the phases' results. */
import { lineChart } from '../lib/svg.js';
import type { OperatorPhaseResult } from './operator-phase.js';
import type { RuntimePhaseResult } from './runtime-phase.js';

/** Goal of the issue: heap growth per 10 k CDN requests. */
export const GOAL_BYTES_PER_10K_REQUESTS = 1024;

/** Rendered report. */
export interface SoakReport {
  json: Record<string, unknown>;
  md: string;
  svg?: string;
  pass: boolean;
}

const mib = (b: number): string => (b / 1048576).toFixed(2);

/** Renders the report; `pass` is false when any phase failed its goals. */
export function renderSoakReport(r: {
  base: string;
  quick: boolean;
  runtime?: RuntimePhaseResult | undefined;
  operator?: OperatorPhaseResult | undefined;
}): SoakReport {
  const date = new Date().toISOString();
  const md: string[] = [`# Soak ${date}${r.quick ? ' (quick)' : ''}`, ''];
  md.push(`Node ${process.version}; produced by \`make soak\` (bench/soak/run.ts).`, '');
  let pass = true;
  let svg: string | undefined;
  const json: Record<string, unknown> = { date, node: process.version, quick: r.quick };
  if (r.runtime) {
    const ok = runtimePass(r.runtime);
    pass &&= ok;
    json.runtime = { ...r.runtime, goalBytesPer10kRequests: GOAL_BYTES_PER_10K_REQUESTS, pass: ok };
    md.push(...runtimeMd(r.runtime, ok, r.base));
    svg = lineChart({
      title: 'Heap after forced GC during the soak (runtime phase)',
      xLabel: 'seconds',
      yLabel: 'MiB',
      series: [
        {
          name: 'heapUsed after GC',
          points: r.runtime.samples.map((s) => [s.seconds, s.heapBytes / 1048576]),
        },
      ],
    });
  }
  if (r.operator) {
    const ok = r.operator.checks.every((c) => c.ok);
    pass &&= ok;
    json.operator = { ...r.operator, pass: ok };
    md.push(...operatorMd(r.operator, ok));
  }
  json.pass = pass;
  return { json, md: `${md.join('\n')}\n`, ...(svg ? { svg } : {}), pass };
}

/**
 * The figure the goal applies to: the growth of the program's data per 10 k requests (heap
 * snapshots; V8's compiled code grows with the functions it optimises, not with requests), or
 * the checkpoint slope of the whole heap when no snapshots were taken.
 */
function goalSlope(x: RuntimePhaseResult): number {
  return x.dataSlopeBytesPer10kRequests ?? x.heapSlopeBytesPer10kRequests;
}

function runtimePass(x: RuntimePhaseResult): boolean {
  return (
    !x.stoppedByTimeCap &&
    goalSlope(x) <= GOAL_BYTES_PER_10K_REQUESTS &&
    x.cdn.unexpectedFailures === 0 &&
    x.informerStoreSize === x.params.watchObjects
  );
}

const kib = (b: number): string => `${(b / 1024).toFixed(1)} KiB`;

function slopeRows(x: RuntimePhaseResult): string[] {
  const goal = `(goal ≤ ${GOAL_BYTES_PER_10K_REQUESTS})`;
  if (x.quiescentSamples === undefined)
    return [
      `| Heap slope while requests ran (after 20 % warm-up) | **${x.heapSlopeBytesPer10kRequests} bytes per 10 k requests** ${goal} |`,
    ];
  const rows: string[] = [];
  const c = x.compositions ?? [];
  const first = c[0];
  const last = c[c.length - 1];
  if (first && last && x.dataSlopeBytesPer10kRequests !== undefined) {
    rows.push(
      `| Program data (heap snapshot, V8's compiled code left out) at ${first.requests} → ${last.requests} requests | ${kib(first.dataBytes)} → ${kib(last.dataBytes)}: **${x.dataSlopeBytesPer10kRequests} bytes per 10 k requests** ${goal} |`,
      `| V8's compiled code and its metadata, same snapshots | ${kib(first.codeBytes)} → ${kib(last.codeBytes)}: ${x.codeSlopeBytesPer10kRequests ?? 0} bytes per 10 k requests (grows and shrinks as the JIT optimises and drops functions; bounded by the program) |`,
    );
  }
  rows.push(
    `| Whole heap over the checkpoints with no request in flight (${x.quiescentSamples}, every 5 % of the requests, each the smallest of five readings after forced GCs; after 20 % warm-up) | ${x.heapSlopeBytesPer10kRequests} bytes per 10 k requests |`,
  );
  if (x.heapSlopeUnderLoadBytesPer10kRequests !== undefined)
    rows.push(
      `| Whole heap over the samples under load (requests in progress included; varies with the machine's load) | ${x.heapSlopeUnderLoadBytesPer10kRequests} bytes per 10 k requests |`,
    );
  return rows;
}

function runtimeMd(x: RuntimePhaseResult, ok: boolean, base: string): string[] {
  const p = x.params;
  return [
    '## Phase 1: runtime (CDN client + informer, heap after forced GC)',
    '',
    x.stoppedByTimeCap
      ? `**Stopped by the ${p.maxSeconds} s time cap before the targets (${p.requests} requests, ${p.events} events) were reached.**`
      : `Targets reached: ${p.requests} CDN requests, ${p.events} watch events.`,
    '',
    '| Figure | Value |',
    '| --- | --- |',
    `| Duration (requests / whole phase) | ${x.requestPhaseSeconds} s / ${x.durationSeconds} s |`,
    `| Load average (1/5/15 min) start → end | ${x.loadAverage.start.map((n) => n.toFixed(1)).join('/')} → ${x.loadAverage.end.map((n) => n.toFixed(1)).join('/')} |`,
    `| CDN HTTP attempts (cdn-sim, child process, strict) | ${x.cdn.attempts} over ${p.accounts} accounts, ${p.concurrency} callers, limit ${p.ratePerAccount}/s per account |`,
    `| Calls by step | ${JSON.stringify(x.cdn.byOperation)} |`,
    `| Attempts by status (none = dropped) | ${JSON.stringify(x.cdn.byStatus)} |`,
    `| Expected 404s / unexpected failures after retries | ${x.cdn.expectedNotFound} / ${x.cdn.unexpectedFailures} |`,
    `| Account limiters alive at the end | ${x.accountLimiters} |`,
    `| Watch events through the informer | ${x.watch.events} |`,
    `| Watch sessions by injected fault | ${JSON.stringify(x.watch.faults)} |`,
    `| Informer restarts by reason / relists | ${JSON.stringify(x.informerRestarts)} / ${x.informerRelists} |`,
    `| Watch restarts per minute | ${x.watchRestartsPerMinute} |`,
    `| Heap after GC, first → last | ${mib(x.heapFirstBytes)} → ${mib(x.heapLastBytes)} MiB |`,
    ...slopeRows(x),
    `| Heap slope against watch events / wall clock | ${x.heapSlopeBytesPer10kWatchEvents} bytes per 10 k events / ${mib(x.heapSlopeBytesPerHour)} MiB per hour |`,
    `| Verdict | ${ok ? 'pass' : 'FAIL'} |`,
    '',
    `![heap over time](${base}-heap.svg)`,
    '',
  ];
}

function operatorMd(x: OperatorPhaseResult, ok: boolean): string[] {
  const c = x.changes;
  return [
    '## Phase 2: operator under a watch fault mix (real kube-apiserver, dist/main.js)',
    '',
    `${x.params.objects} PullZoneConfigs changed for ${x.durationSeconds} s; poll interval ${x.params.pollIntervalSeconds} s, watch stall timeout ${x.params.stallTimeoutSeconds} s. A change is *held* when the object was not changed again within the poll interval; every held change must show on cdn-sim (1 s samples) before the next change of that object.`,
    '',
    '| Figure | Value |',
    '| --- | --- |',
    `| Operator pid / exited | ${x.operator.pid} / ${x.operator.exited} |`,
    `| Proxy: requests / watch sessions / events forwarded | ${x.proxy.requests} / ${x.proxy.watches} / ${x.proxy.eventsForwarded} |`,
    `| Watch sessions by injected fault | ${JSON.stringify(x.proxy.faults)} |`,
    `| Operator watch restarts by reason (metric) | ${JSON.stringify(x.watchRestartsByReason)} |`,
    `| Watch restarts per minute | ${x.watchRestartsPerMinute} |`,
    `| Spec changes: total / held / held seen | ${c.total} / ${c.held} / ${c.heldSeen} |`,
    `| Superseded within the poll interval: total / reached the platform anyway | ${c.superseded} / ${c.supersededSeen} |`,
    `| Change → platform latency p50 / p95 / max | ${c.latencyMs.p50} / ${c.latencyMs.p95} / ${c.latencyMs.max} ms |`,
    `| Last change → final state on the platform | ${x.settleMs} ms |`,
    `| Operator RSS start → end | ${mib(x.operatorRssBytes.start)} → ${mib(x.operatorRssBytes.end)} MiB |`,
    '',
    '| Check | Result | Detail |',
    '| --- | --- | --- |',
    ...x.checks.map((k) => `| ${k.name} | ${k.ok ? 'pass' : 'FAIL'} | ${k.detail} |`),
    `| Verdict | ${ok ? 'pass' : 'FAIL'} | |`,
    '',
  ];
}
