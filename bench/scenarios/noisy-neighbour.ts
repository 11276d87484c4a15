/**
 * Noisy neighbour (issue 28): two tenants, each a namespace on its own platform account, one
 * operator. Tenant B does ordinary work: it changes one setting of an existing pull zone at a
 * time and creates new zones, spread over the window. Tenant A misbehaves for the whole window:
 * its account is throttled (a proxy answers 429 with Retry-After beyond a few requests per
 * second), and it floods changes to all its objects, purge requests (the annotation bumped on
 * every object, a third of them with 100 URLs each) and creates.
 *
 * The same B workload runs twice on a fresh operator, once alone ("without A") and once next
 * to A ("with A"). Figures: B's update latency (apply → the platform's 2xx write of that zone,
 * cdn-sim call log) and create latency (apply → Ready) p50/p99, B's creates done, and A's
 * purge calls on the platform against the per-object bound (one purge request per object per
 * minute, src/controllers/pullzoneconfig/purge.ts).
 */
import { loadavg } from 'node:os';
import type { BenchEnv } from '../lib/env.js';
import { kubectl } from '../../test/e2e/support/kube.js';
import {
  collectionPath,
  createAll,
  objectName,
  patchSpec,
  pullZoneManifest,
  type Manifest,
} from '../lib/objects.js';
import { ReadyTracker } from '../lib/ready-tracker.js';
import { CallTail } from '../lib/sim.js';
import { mapLimit, quantile, sleep } from '../lib/stats.js';
import { startTagProxy, type TagProxy } from '../lib/tag-proxy.js';
import type { CallLogEntry } from '../../src/simulator/calls.js';
import { CDN_ACCOUNT_NAMES } from '../../src/controllers/cdnaccount/types.js';
import { typeMetaOf } from '../../src/controllers/kind-names.js';
import { PURGE_ANNOTATION } from '../../src/controllers/pullzoneconfig/purge.js';

/** Tenant A's API key (the sim's second key: index 1 in its call log). */
export const NOISY_A_KEY = 'bench-noisy-tenant-a-key';
const A_KEY_INDEX = 1;
const A_ACCOUNT = 'bench-noisy-a';
/** The documented bound: one purge request per object per this long. */
const PURGE_INTERVAL_MS = 60_000;
const PURGE_URLS = 100;

/** Sizes and timing of the scenario. */
export interface NoisySettings {
  durationMs: number;
  bExisting: number;
  bCreates: number;
  bUpdates: number;
  aExisting: number;
  /** Of A's objects, how many purge 100 URLs (the others the whole zone). */
  aUrlObjects: number;
  aCreates: number;
  /** Tenant A's platform limit (requests/s) and the Retry-After of its 429 answers. */
  aRatePerSecond: number;
  retryAfterSeconds: number;
  /** A round of A's changes and purge bumps starts this often. */
  aRoundMs: number;
  operatorArgs: string[];
  timeoutMs: number;
}

/** Latencies of one kind of B's work. */
export interface LatencyFigures {
  asked: number;
  done: number;
  p50Ms: number;
  p99Ms: number;
  latenciesMs: number[];
  /**
   * Updates only: apply → the pass's first platform call (its observe GET), i.e. the time in
   * the apiserver, the work queue and the pass before the platform is reached.
   */
  toFirstReadMs?: number[];
  /** Updates only: the apiserver's answer to the patch (accepted) → the platform write. */
  fromAcceptedMs?: number[];
  /** Updates only: the patch request itself (sent → accepted by the apiserver). */
  patchMs?: number[];
}

/** Tenant B's figures in one run. */
export interface TenantBRun {
  phase: 'quiet' | 'noisy';
  updates: LatencyFigures;
  creates: LatencyFigures;
  loadAvgAtStart: number[];
  loadAvgAtEnd: number[];
}

/** What tenant A did and what reached the platform for it. */
export interface TenantAFigures {
  changes: number;
  purgeBumps: number;
  creates: number;
  createsReady: number;
  /** A's requests the throttling proxy answered 429. */
  refused429: number;
  /** A's requests that reached the platform. */
  platformCalls: number;
  zonePurges: number;
  urlPurges: number;
  /** The most whole-zone purge calls of one object. */
  zonePurgesPerObjectMax: number;
  /** From the first bump to the last purge call seen (ms). */
  purgeSpanMs: number;
  /** Purge requests allowed per object over that span: 1 + ceil(span / interval). */
  boundPerObject: number;
  withinBound: boolean;
}

/** The scenario's result. */
export interface NoisyNeighbourResult {
  settings: NoisySettings;
  quiet?: TenantBRun;
  noisy?: TenantBRun;
  a?: TenantAFigures;
  error?: string;
}

function latencyFigures(asked: number, latencies: number[]): LatencyFigures {
  return {
    asked,
    done: latencies.length,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    latenciesMs: latencies,
  };
}

/** Tenant A's account: its own key in a Secret of the operator namespace, open to `ns`. */
async function createAccountA(env: BenchEnv, ns: string): Promise<void> {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'cdn-credentials-noisy-a', namespace: 'bench' },
    stringData: { apiKey: NOISY_A_KEY },
  };
  const account = {
    ...typeMetaOf(CDN_ACCOUNT_NAMES),
    metadata: { name: A_ACCOUNT },
    spec: {
      secretRef: { name: 'cdn-credentials-noisy-a', namespace: 'bench' },
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
    },
  };
  for (const o of [secret, account])
    await kubectl(['apply', '-f', '-'], JSON.stringify(o), { kubeconfig: env.kubeconfig });
}

function manifestA(ns: string, name: string, urls: boolean): Manifest {
  const m = pullZoneManifest(ns, name);
  m.spec.accountRef = { name: A_ACCOUNT };
  if (urls)
    m.spec.purge = { urls: Array.from({ length: PURGE_URLS }, (_, i) => `/static/${i}.css`) };
  return m;
}

async function patchAnnotation(
  env: BenchEnv,
  ns: string,
  name: string,
  value: string,
): Promise<void> {
  await env.kube.request({
    method: 'PATCH',
    path: `${collectionPath(ns, 'PullZoneConfig')}/${name}`,
    contentType: 'application/merge-patch+json',
    body: { metadata: { annotations: { [PURGE_ANNOTATION]: value } } },
  });
}

/** Tenant A misbehaves until `stopAt`: floods creates, then rounds of changes and purge bumps. */
async function runTenantA(
  env: BenchEnv,
  s: NoisySettings,
  ns: string,
  names: string[],
  stopAt: number,
): Promise<Pick<TenantAFigures, 'changes' | 'purgeBumps' | 'creates'>> {
  const out = { changes: 0, purgeBumps: 0, creates: s.aCreates };
  const flood = Array.from({ length: s.aCreates }, (_, i) =>
    manifestA(ns, objectName('nn-a-new', i), false),
  );
  const creating = createAll(env.kube, flood, 4).catch(() => undefined);
  for (let round = 1; Date.now() < stopAt; round++) {
    const started = Date.now();
    await mapLimit(names, 4, (name) =>
      patchSpec(env.kube, ns, 'PullZoneConfig', name, {
        settings: { cacheControlMaxAgeOverrideSeconds: 100 + round },
      }).catch(() => undefined),
    );
    out.changes += names.length;
    await mapLimit(names, 4, (name) =>
      patchAnnotation(env, ns, name, `round-${round}`).catch(() => undefined),
    );
    out.purgeBumps += names.length;
    await sleep(Math.max(0, s.aRoundMs - (Date.now() - started)));
  }
  await creating;
  return out;
}

interface Sent {
  path: string;
  /** When the patch request was sent. */
  at: number;
  /** When the apiserver answered it (the change was accepted). */
  accepted: number;
}

/** The platform path of each tracked, synced B object. */
function zonePaths(track: ReadyTracker): Array<{ name: string; path: string }> {
  return [...track.objects.values()]
    .filter((o) => o.status?.pullZoneId !== undefined)
    .map((o) => ({ name: o.metadata.name, path: `/pullzone/${String(o.status?.pullZoneId)}` }));
}

/** Tenant B's ordinary work: updates and creates spread over the window. */
async function runTenantB(
  env: BenchEnv,
  s: NoisySettings,
  ns: string,
  prefix: string,
  track: ReadyTracker,
  tail: CallTail,
): Promise<{ updates: LatencyFigures; creates: LatencyFigures }> {
  // Round robin over B's zones: one zone's updates are far apart (each is done long before
  // the next), so every write matches the update that caused it.
  const zones = zonePaths(track);
  const targets = Array.from({ length: s.bUpdates }, (_, k) => zones[k % zones.length]!);
  const createdAt = new Map<string, number>();
  const createEvery = s.durationMs / Math.max(1, s.bCreates);
  const creating = (async (): Promise<void> => {
    for (let i = 0; i < s.bCreates; i++) {
      const m = pullZoneManifest(ns, objectName(`${prefix}-new`, i));
      createdAt.set(m.metadata.name, Date.now());
      await createAll(env.kube, [m], 1);
      await sleep(createEvery);
    }
  })();
  const sent: Sent[] = [];
  const updateEvery = s.durationMs / Math.max(1, targets.length);
  for (const [k, target] of targets.entries()) {
    const at = Date.now();
    await patchSpec(env.kube, ns, 'PullZoneConfig', target.name, {
      settings: { cacheControlMaxAgeOverrideSeconds: 5000 + k },
    });
    sent.push({ path: target.path, at, accepted: Date.now() });
    await sleep(Math.max(0, updateEvery - (Date.now() - at)));
  }
  await creating;
  const updates = await updateLatencies(sent, tail, s.timeoutMs);
  await track
    .waitUntil(
      () => [...createdAt.keys()].every((n) => track.readyAt.has(n)),
      s.timeoutMs,
      'B creates Ready',
    )
    .catch(() => undefined);
  const creates = [...createdAt].flatMap(([name, at]) => {
    const ready = track.readyAt.get(name);
    return ready === undefined ? [] : [ready - at];
  });
  return {
    updates: {
      ...latencyFigures(sent.length, updates.writes),
      toFirstReadMs: updates.reads,
      fromAcceptedMs: updates.accepted,
      patchMs: updates.patch,
    },
    creates: latencyFigures(s.bCreates, creates),
  };
}

/**
 * Apply → first 2xx platform write of the zone after it, for each update sent, and apply →
 * the first read of the zone after it (where the time goes: before or on the platform).
 */
async function updateLatencies(
  sent: Sent[],
  tail: CallTail,
  timeoutMs: number,
): Promise<{ writes: number[]; reads: number[]; accepted: number[]; patch: number[] }> {
  const out = {
    writes: [] as number[],
    reads: [] as number[],
    accepted: [] as number[],
    patch: [] as number[],
  };
  const open = new Set(sent.map((_, i) => i));
  const deadline = Date.now() + timeoutMs;
  while (open.size > 0 && Date.now() < deadline) {
    await tail.poll();
    for (const i of [...open]) {
      const u = sent[i] as Sent;
      const after = tail.entries.filter((e) => e.path === u.path && e.t >= u.at);
      const write = after.find((e) => e.method === 'POST' && e.status < 300);
      if (!write) continue;
      open.delete(i);
      out.writes.push(write.t - u.at);
      out.accepted.push(write.t - u.accepted);
      out.patch.push(u.accepted - u.at);
      const read = after.find((e) => e.method === 'GET');
      if (read) out.reads.push(read.t - u.at);
    }
    if (open.size > 0) await sleep(1000);
  }
  return out;
}

/** A's purge calls on the platform against the per-object bound. */
function purgeFigures(
  entries: CallLogEntry[],
  from: number,
  urlObjects: number,
): Pick<
  TenantAFigures,
  | 'platformCalls'
  | 'zonePurges'
  | 'urlPurges'
  | 'zonePurgesPerObjectMax'
  | 'purgeSpanMs'
  | 'boundPerObject'
  | 'withinBound'
> {
  const mine = entries.filter((e) => e.key === A_KEY_INDEX && e.t >= from);
  const zone = mine.filter((e) => e.route === 'POST /pullzone/{id}/purgeCache' && e.status < 300);
  const urls = mine.filter((e) => e.route === 'POST /purge' && e.status < 300);
  const perObject = new Map<string, number>();
  for (const e of zone) perObject.set(e.path, (perObject.get(e.path) ?? 0) + 1);
  const last = Math.max(from, ...[...zone, ...urls].map((e) => e.t));
  const span = last - from;
  const bound = 1 + Math.ceil(span / PURGE_INTERVAL_MS);
  const zoneMax = Math.max(0, ...perObject.values());
  return {
    platformCalls: mine.length,
    zonePurges: zone.length,
    urlPurges: urls.length,
    zonePurgesPerObjectMax: zoneMax,
    purgeSpanMs: span,
    boundPerObject: bound,
    withinBound: zoneMax <= bound && urls.length <= urlObjects * PURGE_URLS * bound,
  };
}

/** One run of B's workload, with or without A, on a fresh operator. */
async function runPhase(
  env: BenchEnv,
  proxy: TagProxy,
  s: NoisySettings,
  phase: 'quiet' | 'noisy',
  log: (msg: string) => void,
): Promise<{ b: TenantBRun; a?: TenantAFigures }> {
  const nsB = `nn-b-${phase}`;
  const nsA = `nn-a-${phase}`;
  const noisy = phase === 'noisy';
  const watched = noisy ? [nsA, nsB] : [nsB];
  for (const ns of watched) await env.createNamespace(ns);
  if (noisy) await createAccountA(env, nsA);
  const op = await env.startOperator('bench', {
    apiUrl: proxy.url,
    args: [
      ...s.operatorArgs,
      '--namespace',
      watched.join(','),
      '--secret-namespace',
      ['bench', ...watched].join(','),
    ],
  });
  const trackB = new ReadyTracker(env.kube, collectionPath(nsB, 'PullZoneConfig'));
  const trackA = new ReadyTracker(env.kube, collectionPath(nsA, 'PullZoneConfig'));
  trackB.start();
  if (noisy) trackA.start();
  try {
    const prefix = `nn-${phase[0]}b`;
    const existingB = Array.from({ length: s.bExisting }, (_, i) =>
      pullZoneManifest(nsB, objectName(prefix, i)),
    );
    await createAll(env.kube, existingB);
    await trackB.waitUntil(() => trackB.readyAt.size >= s.bExisting, s.timeoutMs, 'B Ready');
    const namesA = Array.from({ length: noisy ? s.aExisting : 0 }, (_, i) => objectName('nn-a', i));
    if (noisy) {
      proxy.setThrottled(false);
      await createAll(
        env.kube,
        namesA.map((n, i) => manifestA(nsA, n, i < s.aUrlObjects)),
      );
      await trackA.waitUntil(() => trackA.readyAt.size >= s.aExisting, s.timeoutMs, 'A Ready');
      proxy.setThrottled(true);
    }
    log(
      `noisy neighbour ${phase}: ${noisy ? 'tenant A misbehaves, ' : ''}tenant B works for ${s.durationMs} ms`,
    );
    const from = Date.now();
    const refusedBefore = proxy.refused;
    const tail = new CallTail(env.sim, from);
    const loadAvgAtStart = loadavg();
    const aWork = noisy ? runTenantA(env, s, nsA, namesA, from + s.durationMs) : undefined;
    const b = await runTenantB(env, s, nsB, prefix, trackB, tail);
    const aDone = await aWork;
    await tail.poll(true);
    const run: TenantBRun = { phase, ...b, loadAvgAtStart, loadAvgAtEnd: loadavg() };
    if (!aDone) return { b: run };
    const purges = purgeFigures(tail.entries, from, s.aUrlObjects);
    const a: TenantAFigures = {
      ...aDone,
      createsReady: [...trackA.readyAt.keys()].filter((n) => n.startsWith('nn-a-new')).length,
      refused429: proxy.refused - refusedBefore,
      ...purges,
    };
    return { b: run, a };
  } finally {
    proxy.setThrottled(true);
    await trackB.stop();
    await trackA.stop();
    await env.stopOperator(op);
  }
}

/** Runs the scenario: B alone, then B next to a misbehaving A (see the module comment). */
export async function runNoisyNeighbour(
  env: BenchEnv,
  s: NoisySettings,
  log: (msg: string) => void,
): Promise<NoisyNeighbourResult> {
  const result: NoisyNeighbourResult = { settings: s };
  await env.sim.resetState();
  await env.sim.setFaults({ latencyMs: 50 });
  const proxy = await startTagProxy(env.sim.url, 'noisy-neighbour', {
    accessKey: NOISY_A_KEY,
    ratePerSecond: s.aRatePerSecond,
    burst: s.aRatePerSecond,
    retryAfterSeconds: s.retryAfterSeconds,
  });
  try {
    result.quiet = (await runPhase(env, proxy, s, 'quiet', log)).b;
    const noisy = await runPhase(env, proxy, s, 'noisy', log);
    result.noisy = noisy.b;
    if (noisy.a) result.a = noisy.a;
    log(
      `noisy neighbour: B update p99 ${result.quiet.updates.p99Ms} → ${result.noisy.updates.p99Ms} ms, creates ${result.noisy.creates.done}/${result.noisy.creates.asked}`,
    );
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    log(`noisy neighbour failed: ${result.error}`);
  } finally {
    await proxy.close();
  }
  return result;
}
