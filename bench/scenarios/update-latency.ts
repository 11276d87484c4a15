/**
 * Update latency under a create burst: `loadCreates` new PullZoneConfigs are posted, and
 * while they are in flight (not yet Ready) one setting of an existing, synced object is
 * changed every `intervalMs` (merge patch, the bench's identity). Latency = the patch
 * request's start to the sim's first 2xx write of that zone after it. Each sample records
 * how many of the load's creates were still in flight when it was taken.
 */
import type { BenchEnv } from '../lib/env.js';
import {
  collectionPath,
  createAll,
  objectName,
  patchSpec,
  pullZoneManifest,
} from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { CallTail } from '../lib/sim.js';
import { quantile, sleep } from '../lib/stats.js';

/** Results. */
export interface UpdateLatencyResult {
  loadCreates: number;
  samples: number;
  latenciesMs: number[];
  /** Load creates not yet Ready at each sample. */
  inFlightAtSample: number[];
  p50Ms: number;
  p99Ms: number;
  timeouts: number;
}

interface Target {
  name: string;
  path: string;
}

async function pickTargets(env: BenchEnv, ns: string, count: number): Promise<Target[]> {
  const list = await env.kube.request<{
    items: Array<{ metadata: { name: string }; status?: { pullZoneId?: string | number } }>;
  }>({ method: 'GET', path: collectionPath(ns, 'PullZoneConfig'), timeoutMs: 120_000 });
  const synced = list.items.filter((o) => o.status?.pullZoneId !== undefined);
  const stride = Math.max(1, Math.floor(synced.length / Math.max(1, count)));
  return Array.from({ length: Math.min(count, synced.length) }, (_, k) => {
    const o = synced[(k * stride) % synced.length] as (typeof synced)[number];
    return { name: o.metadata.name, path: `/pullzone/${String(o.status?.pullZoneId)}` };
  });
}

/** Runs the scenario; `namespace` holds synced objects, `loadNamespace` is empty. */
export async function runUpdateLatency(
  env: BenchEnv,
  p: {
    namespace: string;
    loadNamespace: string;
    loadCreates: number;
    samples: number;
    intervalMs: number;
    value: number;
    timeoutMs: number;
  },
  log: (msg: string) => void,
): Promise<UpdateLatencyResult> {
  const targets = await pickTargets(env, p.namespace, p.samples);
  const load = new ReadyTracker(env.kube, collectionPath(p.loadNamespace, 'PullZoneConfig'));
  load.start();
  const tail = new CallTail(env.sim, Date.now());
  const manifests = Array.from({ length: p.loadCreates }, (_, i) =>
    pullZoneManifest(p.loadNamespace, objectName('load', i)),
  );
  const creating = createAll(env.kube, manifests);
  // Let the first creates reach the operator's queue before the first sample.
  await sleep(1000);
  const sent: Array<{ target: Target; at: number; inFlight: number }> = [];
  for (const [k, target] of targets.entries()) {
    const inFlight = p.loadCreates - load.readyAt.size;
    if (inFlight <= 0) break;
    const at = Date.now();
    await patchSpec(env.kube, p.namespace, 'PullZoneConfig', target.name, {
      settings: { cacheControlMaxAgeOverrideSeconds: p.value + k },
    });
    sent.push({ target, at, inFlight });
    await sleep(Math.max(0, p.intervalMs - (Date.now() - at)));
  }
  const latencies: number[] = [];
  const inFlightAtSample: number[] = [];
  const deadline = Date.now() + p.timeoutMs;
  const open = new Set(sent.map((_, i) => i));
  while (open.size > 0 && Date.now() < deadline) {
    await sleep(1000);
    await tail.poll();
    for (const i of [...open]) {
      const s = sent[i] as (typeof sent)[number];
      const hit = tail.entries.find(
        (e) => e.method === 'POST' && e.path === s.target.path && e.t >= s.at && e.status < 300,
      );
      if (!hit) continue;
      open.delete(i);
      latencies.push(hit.t - s.at);
      inFlightAtSample.push(s.inFlight);
    }
  }
  const timeouts = open.size;
  await creating;
  await load
    .waitUntil(() => load.readyAt.size >= p.loadCreates, p.timeoutMs, 'load Ready')
    .catch(() => log('update latency: the load creates did not all become Ready in time'));
  await load.stop();
  log(
    `update latency under ${p.loadCreates} creates: ${latencies.length} samples, p99 ${quantile(latencies, 0.99)} ms`,
  );
  return {
    loadCreates: p.loadCreates,
    samples: latencies.length,
    latenciesMs: latencies,
    inFlightAtSample,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    timeouts,
  };
}
