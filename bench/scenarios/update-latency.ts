/**
 * Update latency: `kubectl apply` (server-side) of one changed setting on a synced
 * PullZoneConfig until the sim records the `POST /pullzone/{id}` write. Two clocks: from the
 * start of `kubectl apply` (what a user waits) and from the apiserver's receipt of the patch
 * (audit log), both to the sim's timestamp of the write. Runs with the operator idle and
 * while a batch of creates keeps it busy.
 */
import { kubectl } from '../../test/e2e/support/kube.js';
import type { BenchEnv } from '../lib/env.js';
import {
  collectionPath,
  createAll,
  objectName,
  pullZoneManifest,
  type Manifest,
} from '../lib/objects.js';
import { resetCalls } from '../lib/sim.js';
import { quantile, sleep } from '../lib/stats.js';

/** Latencies of one series. */
export interface LatencySeries {
  samples: number;
  fromKubectlMs: number[];
  fromApiserverMs: number[];
  p50Ms: number;
  p99Ms: number;
  apiserverP50Ms: number;
  apiserverP99Ms: number;
  timeouts: number;
}

/** Results. */
export interface UpdateLatencyResult {
  idle: LatencySeries;
  underLoad: LatencySeries & { loadCreates: number };
}

interface Target {
  name: string;
  id: string;
}

async function targets(env: BenchEnv, ns: string, n: number, count: number): Promise<Target[]> {
  const stride = Math.max(1, Math.floor(n / count));
  const out: Target[] = [];
  for (let k = 0; k < count; k++) {
    const name = objectName('pz', (k * stride) % n);
    const obj = await env.kube.request<{ status?: { pullZoneId?: string | number } }>({
      method: 'GET',
      path: `${collectionPath(ns, 'PullZoneConfig')}/${name}`,
    });
    out.push({ name, id: String(obj.status?.pullZoneId ?? '') });
  }
  return out;
}

async function waitForWrite(
  env: BenchEnv,
  id: string,
  since: number,
  timeoutMs: number,
): Promise<number | undefined> {
  const path = `/pullzone/${id}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { log } = await env.sim.calls();
    const hit = log.find((e) => e.method === 'POST' && e.path === path && e.t >= since);
    if (hit) return hit.t;
    await sleep(250);
  }
  return undefined;
}

async function applyChange(env: BenchEnv, ns: string, t: Target, value: number): Promise<void> {
  const m: Manifest = pullZoneManifest(ns, t.name, { cacheControlMaxAgeOverride: value });
  await kubectl(
    ['apply', '--server-side', '--force-conflicts', '--field-manager=bench-user', '-f', '-'],
    JSON.stringify(m),
    { kubeconfig: env.kubeconfig },
  );
}

async function measure(
  env: BenchEnv,
  ns: string,
  list: Target[],
  base: number,
  timeoutMs: number,
): Promise<LatencySeries> {
  const fromKubectl: number[] = [];
  const fromApiserver: number[] = [];
  let timeouts = 0;
  for (const [k, t] of list.entries()) {
    const started = Date.now();
    await applyChange(env, ns, t, base + k);
    const seen = await waitForWrite(env, t.id, started, timeoutMs);
    if (seen === undefined) {
      timeouts++;
      continue;
    }
    fromKubectl.push(seen - started);
    await env.audit.refresh();
    const patch = env.audit
      .select({
        from: started - 1000,
        verbs: ['patch'],
        resource: 'pullzoneconfigs',
        namespace: ns,
      })
      .find((e) => e.name === t.name && e.subresource === '' && e.user !== 'cdn-operator-bench');
    if (patch) fromApiserver.push(seen - patch.t);
  }
  return {
    samples: fromKubectl.length,
    fromKubectlMs: fromKubectl,
    fromApiserverMs: fromApiserver,
    p50Ms: quantile(fromKubectl, 0.5),
    p99Ms: quantile(fromKubectl, 0.99),
    apiserverP50Ms: quantile(fromApiserver, 0.5),
    apiserverP99Ms: quantile(fromApiserver, 0.99),
    timeouts,
  };
}

/** Runs the idle series, then the series under a batch of `loadCreates` creates. */
export async function runUpdateLatency(
  env: BenchEnv,
  p: {
    namespace: string;
    n: number;
    samples: number;
    loadCreates: number;
    loadNamespace: string;
    timeoutMs: number;
  },
  log: (msg: string) => void,
): Promise<UpdateLatencyResult> {
  await resetCalls(env.sim); // keeps the polled call log short
  const list = await targets(env, p.namespace, p.n, p.samples * 2);
  const idle = await measure(env, p.namespace, list.slice(0, p.samples), 100_000, p.timeoutMs);
  log(`update latency idle: p50 ${idle.p50Ms} ms, p99 ${idle.p99Ms} ms`);
  await resetCalls(env.sim);
  const load = Array.from({ length: p.loadCreates }, (_, i) =>
    pullZoneManifest(p.loadNamespace, objectName('load', i)),
  );
  const creating = createAll(env.kube, load);
  await sleep(2000);
  const busy = await measure(env, p.namespace, list.slice(p.samples), 200_000, p.timeoutMs);
  await creating;
  log(`update latency under load: p50 ${busy.p50Ms} ms, p99 ${busy.p99Ms} ms`);
  return { idle, underLoad: { ...busy, loadCreates: p.loadCreates } };
}
