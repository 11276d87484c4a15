/**
 * Soak phase 1 (in this process, so its heap is the one measured): the CDN request mix of
 * cdn-load.ts against cdn-sim in a child process, and at the same time an Informer (the
 * operator's src/runtime/informer.ts over src/runtime/kube-client.ts) on the fault-injecting
 * watch server, until both targets are reached. The heap after a forced GC is sampled along
 * the way.
 */
import { setMaxListeners } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Informer } from '../../src/runtime/informer.js';
import { KubeClient } from '../../src/runtime/kube-client.js';
import { SECRETS } from '../../src/runtime/resource.js';
import { limiterCount } from '../../src/cdn/rate-limit.js';
import { SimProcess } from '../lib/sim.js';
import { newCdnLoadStats, runCdnLoad, type CdnLoadStats } from './cdn-load.js';
import { startFaultWatchServer, type WatchServerStats } from './fault-watch-server.js';
import { heapAfterGc, settledHeap, slope } from './heap.js';
import { measureComposition, type HeapComposition } from './heap-composition.js';

/** Parameters of the phase. */
export interface RuntimePhaseParams {
  requests: number;
  events: number;
  accounts: number;
  concurrency: number;
  ratePerAccount: number;
  sampleEveryMs: number;
  /** Wall-clock cap in seconds (0 = none). */
  maxSeconds: number;
  watchObjects: number;
  watchBatch: number;
  stallTimeoutMs: number;
  /** Share of GET /pullzone/{id} answered 500 / dropped by the simulator (retried by the client). */
  errorRate: number;
  dropRate: number;
}

/** One heap sample. */
export interface Sample {
  seconds: number;
  requests: number;
  events: number;
  heapBytes: number;
  rssBytes: number;
  load1: number;
}

/** What the phase measured. */
export interface RuntimePhaseResult {
  params: RuntimePhaseParams;
  stoppedByTimeCap: boolean;
  durationSeconds: number;
  requestPhaseSeconds: number;
  cdn: CdnLoadStats;
  accountLimiters: number;
  watch: WatchServerStats;
  informerRestarts: Record<string, number>;
  informerRelists: number;
  informerStoreSize: number;
  watchRestartsPerMinute: number;
  /** Over the checkpoints with no CDN request in flight (the goal's figure). */
  heapSlopeBytesPer10kRequests: number;
  /** Over the periodic samples under load (requests in progress included). */
  heapSlopeUnderLoadBytesPer10kRequests?: number;
  /** Checkpoints taken with no request in flight. */
  quiescentSamples?: number;
  /** The checkpoints: requests, and the settled heap (smallest of five readings). */
  checkpoints?: Sample[];
  /** Heap snapshots at the first checkpoint after the warm-up and at the last one. */
  compositions?: Array<HeapComposition & { requests: number }>;
  /** Growth of the program's data (heap minus V8's compiled code) per 10 k requests. */
  dataSlopeBytesPer10kRequests?: number;
  /** Growth of V8's compiled code and its metadata per 10 k requests. */
  codeSlopeBytesPer10kRequests?: number;
  heapSlopeBytesPer10kWatchEvents: number;
  heapSlopeBytesPerHour: number;
  heapFirstBytes: number;
  heapLastBytes: number;
  loadAverage: { start: number[]; end: number[] };
  samples: Sample[];
}

/** Data and code growth per 10 k requests between the first and last composition. */
function compositionSlopes(c: Array<HeapComposition & { requests: number }>): {
  compositions: Array<HeapComposition & { requests: number }>;
  dataSlopeBytesPer10kRequests?: number;
  codeSlopeBytesPer10kRequests?: number;
} {
  const first = c[0];
  const last = c[c.length - 1];
  if (!first || !last || last.requests <= first.requests) return { compositions: c };
  const per10k = (d: number): number => Math.round((d / (last.requests - first.requests)) * 10_000);
  return {
    compositions: c,
    dataSlopeBytesPer10kRequests: per10k(last.dataBytes - first.dataBytes),
    codeSlopeBytesPer10kRequests: per10k(last.codeBytes - first.codeBytes),
  };
}

/** Runs the phase; everything it starts is stopped before it resolves. */
export async function runRuntimePhase(p: RuntimePhaseParams): Promise<RuntimePhaseResult> {
  const loadStart = loadavg();
  const apiKeys = Array.from({ length: p.accounts }, (_, i) => `soak-${process.pid}-account-${i}`);
  const sim = await SimProcess.start({
    apiKeys,
    callLogLimit: 1000,
    ...(process.env.SOAK_SIM_STRICT === '0' ? { strict: false } : {}),
    faults: {
      errorRate: p.errorRate,
      dropConnectionRate: p.dropRate,
      errorRoutes: ['GET /pullzone/{id}'],
    },
  });
  const watch = await startFaultWatchServer({ objects: p.watchObjects, batch: p.watchBatch });
  const log = pino({ level: 'silent' });
  const lifetime = new AbortController();
  // As the operator's manager does: every in-flight call listens on this signal while it runs.
  setMaxListeners(10_000, lifetime.signal);
  const kube = await KubeClient.create(watchKubeConfig(watch.url));
  const restarts: Record<string, number> = {};
  let relists = 0;
  const informer = new Informer({
    client: kube,
    type: SECRETS,
    namespace: 'soak',
    log,
    stallTimeoutMs: p.stallTimeoutMs,
    hooks: {
      onRestart: (r) => (restarts[r] = (restarts[r] ?? 0) + 1),
      onRelist: () => void relists++,
    },
  });
  const started = Date.now();
  const timeUp = (): boolean => p.maxSeconds > 0 && Date.now() - started > p.maxSeconds * 1000;
  const samples: Sample[] = [];
  const cdnStats = newCdnLoadStats();
  const sample = (): void => {
    const s: Sample = {
      seconds: (Date.now() - started) / 1000,
      requests: cdnStats.attempts,
      events: watch.stats.events,
      heapBytes: heapAfterGc(),
      rssBytes: process.memoryUsage().rss,
      load1: loadavg()[0] ?? 0,
    };
    samples.push(s);
    process.stdout.write(
      `t=${s.seconds.toFixed(0)}s requests=${s.requests} events=${s.events} heap=${(s.heapBytes / 1048576).toFixed(2)}MiB load=${s.load1.toFixed(1)}\n`,
    );
  };
  informer.start();
  await informer.waitForSync();
  sample();
  const timer = setInterval(sample, p.sampleEveryMs);
  // Heap with no request in flight, every 5 % of the requests (the smallest of five readings
  // after forced GCs: the watch load keeps running): the slope's basis.
  const quiescent: Sample[] = [];
  const compositions: Array<HeapComposition & { requests: number }> = [];
  await runCdnLoad({
    baseUrl: sim.url,
    apiKeys,
    rateLimit: { requestsPerSecond: p.ratePerAccount, burst: 100, maxConcurrent: 8 },
    concurrency: p.concurrency,
    targetAttempts: p.requests,
    signal: lifetime.signal,
    log,
    shouldStop: timeUp,
    stats: cdnStats,
    checkpointEvery: Math.max(1000, Math.round(p.requests / 20)),
    onCheckpoint: async () => {
      sample();
      const s = samples[samples.length - 1] as Sample;
      quiescent.push({ ...s, heapBytes: await settledHeap() });
      // What the heap is made of at the first checkpoint after the warm-up and at the last:
      // the JIT's code grows with the functions it optimises, data would grow with a leak.
      if (quiescent.length === 4 || s.requests >= p.requests) {
        const c = await measureComposition(
          join(tmpdir(), `soak-${process.pid}-${s.requests}.heapsnapshot`),
        );
        compositions.push({ requests: s.requests, ...c });
      }
    },
  });
  const requestPhaseSeconds = (Date.now() - started) / 1000;
  sample();
  const requestSamples = samples.slice();
  while (watch.stats.events < p.events && !timeUp()) await new Promise((r) => setTimeout(r, 200));
  clearInterval(timer);
  sample();
  const seconds = (Date.now() - started) / 1000;
  await informer.stop();
  kube.close();
  await watch.close();
  await sim.stop();
  const last = samples[samples.length - 1] as Sample;
  // Slopes after a 20 % warm-up (JIT, pools, first allocations). Against requests: over the
  // samples taken with no request in flight (checkpoints), so the figure is what requests
  // leave behind; the samples taken under load also count the requests in progress, which
  // vary with the machine's load (reported apart).
  const reqWarm = quiescent.filter((s) => s.requests >= cdnStats.attempts * 0.2);
  const underLoad = requestSamples.filter((s) => s.requests >= cdnStats.attempts * 0.2);
  const evWarm = samples.filter((s) => s.events >= last.events * 0.2);
  const totalRestarts = Object.values(restarts).reduce((a, b) => a + b, 0);
  return {
    params: p,
    stoppedByTimeCap: timeUp(),
    durationSeconds: Math.round(seconds),
    requestPhaseSeconds: Math.round(requestPhaseSeconds),
    cdn: cdnStats,
    accountLimiters: limiterCount(),
    watch: watch.stats,
    informerRestarts: restarts,
    informerRelists: relists,
    informerStoreSize: informer.store.size,
    watchRestartsPerMinute: +(totalRestarts / (seconds / 60)).toFixed(1),
    heapSlopeBytesPer10kRequests: Math.round(
      slope(reqWarm.map((s) => [s.requests, s.heapBytes])) * 10_000,
    ),
    heapSlopeUnderLoadBytesPer10kRequests: Math.round(
      slope(underLoad.map((s) => [s.requests, s.heapBytes])) * 10_000,
    ),
    quiescentSamples: quiescent.length,
    checkpoints: quiescent,
    ...compositionSlopes(compositions),
    heapSlopeBytesPer10kWatchEvents: Math.round(
      slope(evWarm.map((s) => [s.events, s.heapBytes])) * 10_000,
    ),
    heapSlopeBytesPerHour: Math.round(slope(underLoad.map((s) => [s.seconds, s.heapBytes])) * 3600),
    heapFirstBytes: (samples[0] as Sample).heapBytes,
    heapLastBytes: last.heapBytes,
    loadAverage: { start: loadStart, end: loadavg() },
    samples,
  };
}

function watchKubeConfig(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'w', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'c', cluster: 'w', user: 'u' }],
    currentContext: 'c',
  });
  return kc;
}
