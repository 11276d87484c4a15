/**
 * Mixed fleet: M sample objects of every kind with a sample (lib/objects.ts: PullZoneConfigs,
 * ShieldPolicies each protecting one of the zones, ContainerApps, StorageZones) created at once
 * in one namespace. Time to all Ready per kind, platform calls per API area and Kubernetes
 * writes per kind. Kinds whose CRD is not installed are skipped and reported as such.
 */
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { WRITE_VERBS } from '../lib/audit.js';
import {
  BENCH_KINDS,
  collectionPath,
  createAll,
  kindNamed,
  sampleFleet,
  type KindName,
} from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { diffCounters } from '../lib/sim.js';
import { sleep } from '../lib/stats.js';

/** Per kind figures. */
export interface KindFigures {
  objects: number;
  ready: number;
  timeToAllReadyMs: number | null;
  kubeWrites: number;
  kubeWritesPerObject: number;
}

/** Results. */
export interface MixedResult {
  perKind: Record<KindName, KindFigures>;
  skipped: KindName[];
  timeToAllReadyMs: number | null;
  platformByArea: Record<string, { reads: number; writes: number }>;
  platformTotal: number;
  platformByRoute: Record<string, number>;
}

function areaOf(route: string): string {
  const path = route.split(' ')[1] ?? '';
  if (path.startsWith('/mc')) return 'apps (/mc)';
  if (path.startsWith('/shield')) return 'shield (/shield)';
  return 'core (/pullzone ...)';
}

/** Runs the scenario in `namespace` (created by the caller). */
export async function runMixedFleet(
  env: BenchEnv,
  p: { namespace: string; perKind: number; timeoutMs: number },
  log: (msg: string) => void,
): Promise<MixedResult> {
  const served = await env.servedKinds();
  const kinds = BENCH_KINDS.filter((k) => served.includes(k.plural)).map((k) => k.kind);
  const skipped = BENCH_KINDS.map((k) => k.kind).filter((k) => !kinds.includes(k));
  const trackers = new Map(
    kinds.map((k) => [k, new ReadyTracker(env.kube, collectionPath(p.namespace, k))]),
  );
  for (const t of trackers.values()) t.start();
  const before = await env.sim.calls();
  const fleet = sampleFleet(kinds.map(kindNamed), p.namespace, p.perKind);
  const all = [...fleet.values()].flat();
  const { startedAt } = await createAll(env.kube, all);
  const total = p.perKind * kinds.length;
  const readyTotal = (): number => [...trackers.values()].reduce((s, t) => s + t.readyAt.size, 0);
  const progress = setInterval(() => log(`mixed fleet: ${readyTotal()}/${total} Ready`), 15_000);
  let complete = true;
  try {
    await trackers
      .get(kinds[0] as KindName)
      ?.waitUntil(() => readyTotal() >= total, p.timeoutMs, 'mixed fleet Ready');
  } catch {
    complete = false;
  } finally {
    clearInterval(progress);
  }
  await sleep(5000);
  const after = await env.sim.calls();
  await env.audit.refresh();
  const perKind: MixedResult['perKind'] = {};
  let lastReady = 0;
  for (const [k, t] of trackers) {
    const times = [...t.readyAt.values()];
    const kubeWrites = env.audit.count({
      from: startedAt,
      user: OPERATOR_USER,
      verbs: WRITE_VERBS,
      resource: kindNamed(k).plural,
      namespace: p.namespace,
    });
    const done = times.length >= p.perKind;
    if (done) lastReady = Math.max(lastReady, ...times);
    perKind[k] = {
      objects: p.perKind,
      ready: times.length,
      timeToAllReadyMs: done ? Math.max(...times) - startedAt : null,
      kubeWrites,
      kubeWritesPerObject: kubeWrites / p.perKind,
    };
    await t.stop();
  }
  const calls = diffCounters(before, after);
  const platformByArea: MixedResult['platformByArea'] = {};
  for (const [route, n] of Object.entries(calls.byRoute)) {
    const a = (platformByArea[areaOf(route)] ??= { reads: 0, writes: 0 });
    if (route.startsWith('GET ')) a.reads += n;
    else a.writes += n;
  }
  return {
    perKind,
    skipped,
    timeToAllReadyMs: complete ? lastReady - startedAt : null,
    platformByArea,
    platformTotal: calls.total,
    platformByRoute: calls.byRoute,
  };
}
