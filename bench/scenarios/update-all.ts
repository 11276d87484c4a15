/**
 * Update of one field in all N objects: every object's `settings.cacheControlMaxAgeOverrideSeconds`
 * is merge-patched (16 in flight, the bench's identity) and the time runs until the sim has
 * answered a write of every zone 2xx (`POST /pullzone/{id}`), divided by the matrix ceiling.
 *
 * The ceiling counts the platform calls an update costs, as the matrix formula does: the
 * observe read (`GET /pullzone/{id}`, Crossplane's Observe before every write: the operator
 * never writes from a stale copy) and the committed write. The ratio counting the write alone
 * is reported next to it.
 */
import type { BenchEnv } from '../lib/env.js';
import { OPERATOR_USER } from '../lib/env.js';
import { WRITE_VERBS } from '../lib/audit.js';
import { ceilingMs, type MatrixConfig } from '../lib/matrix.js';
import { collectionPath, patchSpec } from '../lib/objects.js';
import { rateStats, type RateStats } from '../lib/rate-stats.js';
import { CallTail } from '../lib/sim.js';
import { mapLimit, sleep } from '../lib/stats.js';
import { sampleCurve } from './cold-create.js';

/** Results. */
export interface UpdateAllResult {
  n: number;
  patchRequestsMs: number;
  /** First POST of a patch to the last zone's first 2xx write after it; null when timed out. */
  timeToAllWrittenMs: number | null;
  written: number;
  ceilingMs: number;
  ratio: number | null;
  /** Platform calls (reads and writes) per updated object, the ceiling's calls per object. */
  callsPerObject?: number;
  /** The ceiling and ratio counting only the committed write per object. */
  writesOnlyCeilingMs?: number;
  writesOnlyRatio?: number | null;
  committedWritesPerObject: number;
  platformCalls: number;
  rate: RateStats;
  kubeWritesPerObject: number;
  curve: Array<[number, number]>;
}

interface Target {
  name: string;
  id: string;
}

async function targetsOf(env: BenchEnv, namespace: string): Promise<Target[]> {
  const list = await env.kube.request<{
    items: Array<{ metadata: { name: string }; status?: { pullZoneId?: string | number } }>;
  }>({ method: 'GET', path: collectionPath(namespace, 'PullZoneConfig'), timeoutMs: 120_000 });
  return list.items
    .filter((o) => o.status?.pullZoneId !== undefined)
    .map((o) => ({ name: o.metadata.name, id: String(o.status?.pullZoneId) }));
}

/** Runs the scenario on the synced objects of `namespace`. */
export async function runUpdateAll(
  env: BenchEnv,
  config: MatrixConfig,
  p: { namespace: string; workers: number; value: number; timeoutMs: number },
  log: (msg: string) => void,
): Promise<UpdateAllResult> {
  const targets = await targetsOf(env, p.namespace);
  const pending = new Map(targets.map((t) => [`/pullzone/${t.id}`, t]));
  const writtenAt = new Map<string, number>();
  const t0 = Date.now();
  const tail = new CallTail(env.sim, t0);
  const see = (entries: Awaited<ReturnType<CallTail['poll']>>): void => {
    for (const e of entries) {
      if (e.method !== 'POST' || e.status < 200 || e.status >= 300) continue;
      if (pending.delete(e.path)) writtenAt.set(e.path, e.t);
    }
  };
  const patching = mapLimit(targets, 16, (t) =>
    patchSpec(env.kube, p.namespace, 'PullZoneConfig', t.name, {
      settings: { cacheControlMaxAgeOverrideSeconds: p.value },
    }),
  ).then(() => Date.now());
  const deadline = t0 + p.timeoutMs;
  let lastLog = Date.now();
  while (pending.size > 0 && Date.now() < deadline) {
    await sleep(1000);
    see(await tail.poll());
    if (Date.now() - lastLog > 15_000) {
      log(`${config.id} update n=${targets.length}: ${writtenAt.size} written`);
      lastLog = Date.now();
    }
  }
  const patchedAt = await patching;
  await sleep(2000);
  see(await tail.poll(true));
  await env.audit.refresh();
  const done = pending.size === 0;
  const last = Math.max(t0, ...writtenAt.values());
  const writesOk = tail.entries.filter(
    (e) => e.method !== 'GET' && e.status >= 200 && e.status < 300 && e.t <= last,
  ).length;
  const n = targets.length;
  const perObject = n > 0 ? writesOk / n : 0;
  const platformCalls = tail.entries.filter((e) => e.t <= last).length;
  const callsPerObject = n > 0 ? platformCalls / n : 0;
  const ceiling = ceilingMs(config, p.workers, n, callsPerObject);
  const writesOnlyCeiling = ceilingMs(config, p.workers, n, perObject);
  const kubeWrites = env.audit.count({
    from: t0,
    to: last,
    user: OPERATOR_USER,
    verbs: WRITE_VERBS,
    resource: 'pullzoneconfigs',
  });
  return {
    n,
    patchRequestsMs: patchedAt - t0,
    timeToAllWrittenMs: done ? last - t0 : null,
    written: writtenAt.size,
    ceilingMs: ceiling,
    ratio: done ? (last - t0) / ceiling : null,
    callsPerObject,
    writesOnlyCeilingMs: writesOnlyCeiling,
    writesOnlyRatio: done ? (last - t0) / writesOnlyCeiling : null,
    committedWritesPerObject: perObject,
    platformCalls,
    rate: rateStats(tail.entries, t0, last),
    kubeWritesPerObject: n > 0 ? kubeWrites / n : 0,
    curve: sampleCurve(writtenAt.values(), t0),
  };
}
