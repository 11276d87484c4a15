/**
 * Cold create: N PullZoneConfigs posted at once (16 in flight); time from the first POST to
 * the last object Ready and its ratio to the matrix ceiling; platform calls per object from
 * the sim's call log (committed creates per object, duplicates); Kubernetes writes from the
 * audit log; the operator's event-loop lag per 5 s scrape while it works; heap after a forced
 * GC once all are Ready.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { WRITE_VERBS } from '../lib/audit.js';
import { ceilingMs, type MatrixConfig } from '../lib/matrix.js';
import { collectionPath, createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { forcedGcHeap, scrapeOperator } from '../lib/operator-stats.js';
import { rateStats, type RateStats } from '../lib/rate-stats.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { CallTail, countCalls, type CallCounts } from '../lib/sim.js';
import { sleep } from '../lib/stats.js';
import { stallWindows, type StallBatch, type StallWindow } from '../lib/stall-window.js';

/** Parameters of one cold-create run. */
export interface ColdCreateParams {
  n: number;
  namespace: string;
  prefix: string;
  workers: number;
  timeoutMs: number;
}

/** Everything measured. */
export interface ColdCreateResult {
  n: number;
  namespace: string;
  /** Time the bench needed to POST every object (a floor the operator cannot beat). */
  createRequestsMs: number;
  timeToAllReadyMs: number | null;
  readyCount: number;
  ceilingMs: number;
  ratio: number | null;
  platform: CallCounts & {
    /** Creates answered 2xx (`POST /pullzone`). */
    committedCreates: number;
    committedWritesPerCreate: number;
    readsPerCreate: number;
    /** Committed creates beyond one per object. */
    duplicates: number;
    /** Distinct zone ids in the objects' status. */
    distinctZoneIds: number;
  };
  rate: RateStats;
  kube: {
    writes: number;
    writesPerCreateExcludingEvents: number;
    eventsPerCreate: number;
    byVerbResource: Record<string, number>;
  };
  /** Event-loop lag p99 (ms) per scrape window: [seconds since start, ms]. */
  lagSeries: Array<[number, number]>;
  lagP99MaxMs: number;
  /**
   * The stall probe's windows during the create (bench/lib/stall-preload.ts), as
   * `[seconds since start at the window's end, window]`: how much of the loop's stalls the
   * operator spent running and how much waiting for a CPU.
   */
  stallSeries?: Array<[number, StallWindow]>;
  heapAfter: { heapUsedBytes: number; rssBytes: number };
  /** [seconds since start, objects Ready], for the chart. */
  readyCurve: Array<[number, number]>;
}

/** [seconds, count] at `points` evenly spaced times up to the last Ready. */
export function sampleCurve(
  readyAt: Iterable<number>,
  t0: number,
  points = 60,
): Array<[number, number]> {
  const times = [...readyAt].map((t) => t - t0).sort((a, b) => a - b);
  const end = times[times.length - 1] ?? 0;
  const out: Array<[number, number]> = [[0, 0]];
  let i = 0;
  for (let k = 1; k <= points; k++) {
    const at = (end * k) / points;
    while (i < times.length && (times[i] as number) <= at) i++;
    out.push([at / 1000, i]);
  }
  return out;
}

async function watchLag(
  op: OperatorProcess,
  t0: number,
  until: { done: boolean },
): Promise<Array<[number, number]>> {
  const series: Array<[number, number]> = [];
  await scrapeOperator(op); // prom-client resets the lag histogram per scrape: start a window
  while (!until.done) {
    await sleep(5000);
    const s = await scrapeOperator(op).catch(() => undefined);
    if (s) series.push([(s.t - t0) / 1000, s.eventLoopLagP99Seconds * 1000]);
  }
  return series;
}

/** The stall probe's lines of an operator (bench/lib/stall-preload.ts). */
function stallBatches(op: OperatorProcess): StallBatch[] {
  return op.logs().filter((l) => l.benchStalls === true) as unknown as StallBatch[];
}

function zoneIds(tracker: ReadyTracker): number {
  const ids = new Set<string>();
  for (const o of tracker.objects.values()) {
    const id = o.status?.pullZoneId;
    if (typeof id === 'number' || typeof id === 'string') ids.add(String(id));
  }
  return ids.size;
}

/** Runs the scenario against a started operator; the sim's faults are the config's. */
export async function runColdCreate(
  env: BenchEnv,
  op: OperatorProcess,
  config: MatrixConfig,
  p: ColdCreateParams,
  log: (msg: string) => void,
): Promise<ColdCreateResult> {
  const tracker = new ReadyTracker(env.kube, collectionPath(p.namespace, 'PullZoneConfig'));
  tracker.start();
  const manifests = Array.from({ length: p.n }, (_, i) =>
    pullZoneManifest(p.namespace, objectName(p.prefix, i)),
  );
  const t0 = Date.now();
  const tail = new CallTail(env.sim, t0);
  const lagState = { done: false };
  const lag = watchLag(op, t0, lagState);
  const progress = setInterval(() => {
    log(`${config.id} create n=${p.n}: ${tracker.readyAt.size} Ready`);
    void tail.poll().catch(() => undefined); // keeps each fetch small
  }, 15_000);
  let complete = true;
  let createRequestsMs = 0;
  try {
    const { startedAt, doneAt } = await createAll(env.kube, manifests);
    createRequestsMs = doneAt - startedAt;
    await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
  } catch (err) {
    complete = false;
    log(`${config.id} create n=${p.n}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearInterval(progress);
    lagState.done = true;
  }
  const lastReady = Math.max(t0, ...tracker.readyAt.values());
  await sleep(3000); // trailing status writes and Events
  await tail.poll(true);
  await env.audit.refresh();
  const lagSeries = await lag;
  const calls = countCalls(tail.entries);
  const created = tail.entries.filter(
    (e) => e.method === 'POST' && e.route === 'POST /pullzone' && e.status >= 200 && e.status < 300,
  ).length;
  const writesOk = tail.entries.filter(
    (e) => e.method !== 'GET' && e.status >= 200 && e.status < 300,
  ).length;
  const window = { from: t0, user: OPERATOR_USER, verbs: WRITE_VERBS };
  const kubeWrites = env.audit.count(window);
  const eventWrites = env.audit.count({ ...window, resource: 'events' });
  const heapAfter = await forcedGcHeap(op);
  const ids = zoneIds(tracker);
  await tracker.stop();
  const committedWritesPerCreate = writesOk / p.n;
  const ceiling = ceilingMs(config, p.workers, p.n, committedWritesPerCreate);
  const timeToAllReadyMs = complete ? lastReady - t0 : null;
  return {
    n: p.n,
    namespace: p.namespace,
    createRequestsMs,
    timeToAllReadyMs,
    readyCount: tracker.readyAt.size,
    ceilingMs: ceiling,
    ratio: timeToAllReadyMs === null ? null : timeToAllReadyMs / ceiling,
    platform: {
      ...calls,
      writesOk,
      committedCreates: created,
      committedWritesPerCreate,
      readsPerCreate: calls.reads / p.n,
      duplicates: Math.max(0, created - ids),
      distinctZoneIds: ids,
    },
    rate: rateStats(tail.entries, t0, complete ? lastReady : Date.now()),
    kube: {
      writes: kubeWrites,
      writesPerCreateExcludingEvents: (kubeWrites - eventWrites) / p.n,
      eventsPerCreate: eventWrites / p.n,
      byVerbResource: env.audit.breakdown(window),
    },
    lagSeries,
    lagP99MaxMs: Math.max(0, ...lagSeries.map(([, v]) => v)),
    stallSeries: stallWindows(stallBatches(op), t0, lastReady),
    heapAfter,
    readyCurve: sampleCurve(tracker.readyAt.values(), t0),
  };
}
