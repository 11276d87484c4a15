/**
 * Cold create: N PullZoneConfigs created at once against cdn-sim with latency L and rate
 * limit R; time from the first POST to the last object Ready, the ratio to the ideal
 * `N × writes-per-create ÷ min(R, workers ÷ L)`, calls per object (sim counters, audit log)
 * and the operator's memory before and after sync.
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { WRITE_VERBS } from '../lib/audit.js';
import { collectionPath, createAll, objectName, pullZoneManifest } from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { diffCounters, type CallCounts } from '../lib/sim.js';
import { settledMemory } from '../lib/operator-stats.js';
import { sleep } from '../lib/stats.js';

/** Parameters of one cold-create run. */
export interface ColdCreateParams {
  n: number;
  namespace: string;
  latencyMs: number;
  rateLimitPerSecond: number;
  workers: number;
  timeoutMs: number;
}

/** Everything measured. */
export interface ColdCreateResult {
  params: ColdCreateParams;
  createRequestsMs: number;
  timeToAllReadyMs: number;
  readyCount: number;
  idealMs: number;
  ratio: number;
  platform: CallCounts & { writesPerCreate: number; readsPerCreate: number };
  kube: {
    writes: number;
    writesPerCreate: number;
    writesPerCreateExcludingEvents: number;
    byVerbResource: Record<string, number>;
  };
  memory: {
    baseline: { heapUsedBytes: number; rssBytes: number };
    synced: { heapUsedBytes: number; rssBytes: number };
    heapPerObjectBytes: number;
  };
  /** [seconds since start, objects Ready] every ~2 s, for the chart. */
  readyCurve: Array<[number, number]>;
}

function sampleCurve(
  readyAt: Map<string, number>,
  t0: number,
  points = 60,
): Array<[number, number]> {
  const times = [...readyAt.values()].map((t) => t - t0).sort((a, b) => a - b);
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

/** Runs the scenario with an already started operator (baseline memory taken first). */
export async function runColdCreate(
  env: BenchEnv,
  op: OperatorProcess,
  p: ColdCreateParams,
  log: (msg: string) => void,
): Promise<ColdCreateResult> {
  const baseline = await settledMemory(op, 5, 1000);
  const tracker = new ReadyTracker(env.kube, collectionPath(p.namespace, 'PullZoneConfig'));
  tracker.start();
  await env.sim.setFaults({
    latencyMs: p.latencyMs,
    rateLimit: { ratePerSecond: p.rateLimitPerSecond, burst: p.rateLimitPerSecond },
  });
  const before = await env.sim.calls();
  const manifests = Array.from({ length: p.n }, (_, i) =>
    pullZoneManifest(p.namespace, objectName('pz', i)),
  );
  const progress = setInterval(
    () => log(`cold-create n=${p.n}: ${tracker.readyAt.size} Ready`),
    15_000,
  );
  const { startedAt, doneAt } = await createAll(env.kube, manifests);
  try {
    await tracker.waitUntil(() => tracker.readyAt.size >= p.n, p.timeoutMs, `${p.n} Ready`);
  } finally {
    clearInterval(progress);
  }
  const lastReady = Math.max(...tracker.readyAt.values());
  // Let trailing writes (events, status) land before counting.
  await sleep(5000);
  const after = await env.sim.calls();
  await env.audit.refresh();
  const platform = diffCounters(before, after);
  const window = { from: startedAt, user: OPERATOR_USER, verbs: WRITE_VERBS };
  const byVerbResource = env.audit.breakdown(window);
  const kubeWrites = env.audit.count(window);
  const eventWrites = env.audit.count({ ...window, resource: 'events' });
  const synced = await settledMemory(op);
  await tracker.stop();
  const writesPerCreate = platform.writes / p.n;
  const throughput = Math.min(p.rateLimitPerSecond, p.workers / (p.latencyMs / 1000));
  const idealMs = ((p.n * Math.max(1, writesPerCreate)) / throughput) * 1000;
  const timeToAllReadyMs = lastReady - startedAt;
  return {
    params: p,
    createRequestsMs: doneAt - startedAt,
    timeToAllReadyMs,
    readyCount: tracker.readyAt.size,
    idealMs,
    ratio: timeToAllReadyMs / idealMs,
    platform: { ...platform, writesPerCreate, readsPerCreate: platform.reads / p.n },
    kube: {
      writes: kubeWrites,
      writesPerCreate: kubeWrites / p.n,
      writesPerCreateExcludingEvents: (kubeWrites - eventWrites) / p.n,
      byVerbResource,
    },
    memory: {
      baseline,
      synced,
      heapPerObjectBytes: (synced.heapUsedBytes - baseline.heapUsedBytes) / p.n,
    },
    readyCurve: sampleCurve(tracker.readyAt, startedAt),
  };
}
