/**
 * `make soak`: long-running load against the runtime's two hot paths, with the heap measured
 * after a forced GC along the way (run with `node --expose-gc`).
 *
 * - CDN side: ≥ 1 M requests through the real CdnClient (per-account limiter, retry policy,
 *   per-attempt timeout, a process-lifetime caller signal) against cdn-sim in a child process.
 * - Watch side: an Informer on a fault-injecting watch server (bench/soak/fault-watch-server.ts)
 *   until ≥ 100 k watch events went through, including 410 ERROR events, other ERROR events,
 *   short watches, dropped connections and stalls.
 *
 * Reports the heap slope (bytes per 10 k requests, least squares over the samples after the
 * warm-up), watch restarts per minute by reason, and writes bench/results/soak-<date>.{json,md}
 * and an SVG chart of heap over time. `SOAK_QUICK=1` runs a small version (smoke test).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { CdnClient } from '../../src/cdn/client.js';
import { Informer } from '../../src/runtime/informer.js';
import { KubeClient } from '../../src/runtime/kube-client.js';
import { SECRETS } from '../../src/runtime/resource.js';
import { SimProcess } from '../lib/sim.js';
import { lineChart } from '../lib/svg.js';
import { startFaultWatchServer } from './fault-watch-server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const QUICK = process.env.SOAK_QUICK === '1';
const REQUESTS = Number(process.env.SOAK_REQUESTS ?? (QUICK ? 20_000 : 1_000_000));
const EVENTS = Number(process.env.SOAK_EVENTS ?? (QUICK ? 5_000 : 100_000));
const CONCURRENCY = 16;
const SAMPLE_EVERY_MS = QUICK ? 500 : 5_000;
const OUT_DIR = process.env.SOAK_OUT ?? resolve(ROOT, 'bench/results');
/** Optional wall-clock cap (seconds): the run stops early and the report says so. */
const MAX_SECONDS = Number(process.env.SOAK_MAX_SECONDS ?? 0);

interface Sample {
  seconds: number;
  requests: number;
  events: number;
  heapBytes: number;
  rssBytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('cannot measure the heap: run with node --expose-gc\n');
  process.exit(2);
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const apiKey = `soak-${process.pid}-key`;
  const sim = await SimProcess.start({ apiKeys: [apiKey], callLogLimit: 1000 });
  const watch = await startFaultWatchServer({ objects: 200, batch: 500 });
  const log = pino({ level: 'silent' });
  const lifetime = new AbortController();
  let requests = 0;
  let failures = 0;
  const cdn = new CdnClient({
    baseUrl: sim.url,
    credentials: apiKey,
    rateLimit: { requestsPerSecond: 1e6, burst: 1e6, maxConcurrent: CONCURRENCY },
    hooks: { onRequest: () => void requests++ },
  });
  const zone = await cdn.addPullZone({
    Name: `soak-${process.pid}`,
    OriginUrl: 'https://o.example',
  });

  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'w', server: watch.url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'c', cluster: 'w', user: 'u' }],
    currentContext: 'c',
  });
  const kube = await KubeClient.create(kc);
  const restarts: Record<string, number> = {};
  let relists = 0;
  const informer = new Informer({
    client: kube,
    type: SECRETS,
    namespace: 'soak',
    log,
    stallTimeoutMs: 2_000,
    hooks: {
      onRestart: (r) => (restarts[r] = (restarts[r] ?? 0) + 1),
      onRelist: () => void relists++,
    },
  });

  const started = Date.now();
  const timeUp = (): boolean => MAX_SECONDS > 0 && Date.now() - started > MAX_SECONDS * 1000;
  const samples: Sample[] = [];
  const sample = (): void => {
    samples.push({
      seconds: (Date.now() - started) / 1000,
      requests,
      events: watch.stats.events,
      heapBytes: heapAfterGc(),
      rssBytes: process.memoryUsage().rss,
    });
    const s = samples[samples.length - 1]!;
    process.stdout.write(
      `t=${s.seconds.toFixed(0)}s requests=${s.requests} events=${s.events} heap=${(s.heapBytes / 1048576).toFixed(2)}MiB\n`,
    );
  };
  informer.start();
  await informer.waitForSync();
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < REQUESTS && !timeUp()) {
      issued++;
      try {
        await cdn.getPullZone(zone.Id!, { signal: lifetime.signal });
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
  while (watch.stats.events < EVENTS && !timeUp()) await new Promise((r) => setTimeout(r, 200));
  const capped = timeUp();
  clearInterval(timer);
  sample();
  const seconds = (Date.now() - started) / 1000;
  await informer.stop();
  kube.close();
  cdn.close();
  await watch.close();
  await sim.stop();
  report({
    samples,
    seconds,
    failures,
    restarts,
    relists,
    watchStats: watch.stats,
    informerSize: informer.store.size,
    capped,
  });
}

function report(r: {
  samples: Sample[];
  seconds: number;
  failures: number;
  restarts: Record<string, number>;
  relists: number;
  watchStats: unknown;
  informerSize: number;
  capped: boolean;
}): void {
  const { samples } = r;
  const last = samples[samples.length - 1]!;
  const warm = samples.filter((s) => s.requests >= last.requests * 0.2);
  const perRequest = slope(warm.map((s) => [s.requests, s.heapBytes]));
  const per10k = perRequest * 10_000;
  const perEvent10k = slope(warm.map((s) => [s.events, s.heapBytes])) * 10_000;
  const perHour = slope(warm.map((s) => [s.seconds, s.heapBytes])) * 3600;
  const totalRestarts = Object.values(r.restarts).reduce((a, b) => a + b, 0);
  const date = new Date().toISOString().slice(0, 10);
  const base = `soak-${date}${QUICK ? '-quick' : ''}`;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    quick: QUICK,
    targets: { requests: REQUESTS, events: EVENTS },
    stoppedByTimeCap: r.capped ? MAX_SECONDS : false,
    durationSeconds: Math.round(r.seconds),
    cdnRequests: last.requests,
    cdnFailures: r.failures,
    watchEvents: last.events,
    watchServer: r.watchStats,
    informerRestarts: r.restarts,
    informerRelists: r.relists,
    watchRestartsPerMinute: +(totalRestarts / (r.seconds / 60)).toFixed(1),
    heapSlopeBytesPer10kRequests: Math.round(per10k),
    goalBytesPer10kRequests: 1024,
    heapSlopeBytesPer10kWatchEvents: Math.round(perEvent10k),
    heapSlopeBytesPerHour: Math.round(perHour),
    pass: per10k <= 1024 && r.informerSize === 200,
    heapFirstBytes: samples[0]!.heapBytes,
    heapLastBytes: last.heapBytes,
    samples,
  };
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(resolve(OUT_DIR, `${base}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const svg = lineChart({
    title: 'Heap after forced GC during the soak',
    xLabel: 'seconds',
    yLabel: 'MiB',
    series: [
      { name: 'heapUsed after GC', points: samples.map((s) => [s.seconds, s.heapBytes / 1048576]) },
    ],
  });
  writeFileSync(resolve(OUT_DIR, `${base}-heap.svg`), svg);
  const md = [
    `# Soak ${result.date}${QUICK ? ' (quick)' : ''}`,
    '',
    `Node ${result.node}; ${result.durationSeconds} s; produced by \`make soak\` (bench/soak/run.ts).`,
    r.capped
      ? `**Stopped by the ${MAX_SECONDS} s time cap before the targets (${REQUESTS} requests, ${EVENTS} events) were reached.**`
      : `Targets reached: ${REQUESTS} requests, ${EVENTS} watch events.`,
    '',
    '| Figure | Value |',
    '| --- | --- |',
    `| CDN requests (cdn-sim, child process) | ${result.cdnRequests} (${result.cdnFailures} failed) |`,
    `| Watch events through the informer | ${result.watchEvents} |`,
    `| Watch sessions by injected fault | ${JSON.stringify((r.watchStats as { faults: unknown }).faults)} |`,
    `| Informer restarts by reason | ${JSON.stringify(r.restarts)} |`,
    `| Relists | ${r.relists} |`,
    `| Watch restarts per minute | ${result.watchRestartsPerMinute} |`,
    `| Heap after GC, first → last | ${(result.heapFirstBytes / 1048576).toFixed(2)} → ${(result.heapLastBytes / 1048576).toFixed(2)} MiB |`,
    `| Heap slope (least squares after 20 % warm-up) | **${result.heapSlopeBytesPer10kRequests} bytes per 10 k requests** (goal ≤ 1024) |`,
    `| Heap slope against watch events / wall clock | ${result.heapSlopeBytesPer10kWatchEvents} bytes per 10 k events / ${(result.heapSlopeBytesPerHour / 1048576).toFixed(2)} MiB per hour |`,
    `| Verdict | ${result.pass ? 'pass' : 'FAIL'} |`,
    '',
    `![heap over time](${base}-heap.svg)`,
    '',
  ].join('\n');
  writeFileSync(resolve(OUT_DIR, `${base}.md`), md);
  process.stdout.write(`${md}\n`);
  if (!result.pass) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`soak failed: ${String((err as Error).stack ?? err)}\n`);
  process.exit(1);
});
