/**
 * Figures read from the operator's own /metrics (prom-client default metrics are registered
 * with the `cdn_operator_` prefix by src/runtime/metrics.ts).
 */
import type { OperatorProcess } from '../../test/e2e/support/operator.js';
import { parseProm, sumProm, type PromSample } from './prom.js';
import { sleep } from './stats.js';

const P = 'cdn_operator_';

/** One scrape of the figures the bench reports. */
export interface OperatorSample {
  t: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  rssBytes: number;
  /** p99 event-loop delay since the previous scrape (prom-client resets it per scrape). */
  eventLoopLagP99Seconds: number;
  samples: PromSample[];
}

/** Scrapes /metrics once. */
export async function scrapeOperator(op: OperatorProcess): Promise<OperatorSample> {
  const samples = parseProm(await op.metrics());
  return {
    t: Date.now(),
    heapUsedBytes: sumProm(samples, `${P}nodejs_heap_size_used_bytes`),
    heapTotalBytes: sumProm(samples, `${P}nodejs_heap_size_total_bytes`),
    rssBytes: sumProm(samples, `${P}process_resident_memory_bytes`),
    eventLoopLagP99Seconds: sumProm(samples, `${P}nodejs_eventloop_lag_p99_seconds`),
    samples,
  };
}

/** Memory after things settled: the lowest heap (after a GC) and highest RSS over `count` scrapes. */
export async function settledMemory(
  op: OperatorProcess,
  count = 8,
  intervalMs = 2000,
): Promise<{ heapUsedBytes: number; rssBytes: number }> {
  let heap = Infinity;
  let rss = 0;
  for (let i = 0; i < count; i++) {
    const s = await scrapeOperator(op);
    heap = Math.min(heap, s.heapUsedBytes);
    rss = Math.max(rss, s.rssBytes);
    if (i < count - 1) await sleep(intervalMs);
  }
  return { heapUsedBytes: heap, rssBytes: rss };
}

/** A metric summed over labels from one scrape. */
export function metric(
  s: OperatorSample,
  name: string,
  labels: Record<string, string> = {},
): number {
  return sumProm(s.samples, `${P}${name}`, labels);
}

/** Entry of an operator process that answers SIGUSR2 with a forced GC (bench/lib/operator-main.ts). */
export const OPERATOR_ENTRY = new URL('./operator-main.ts', import.meta.url).pathname;

/** Heap after a forced full GC (the operator must run from {@link OPERATOR_ENTRY}). */
export async function forcedGcHeap(
  op: OperatorProcess,
  timeoutMs = 30_000,
): Promise<{ heapUsedBytes: number; rssBytes: number }> {
  const seen = op.logs().length;
  process.kill(op.pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = op
      .logs()
      .slice(seen)
      .find((l) => l.benchGc === true);
    if (line)
      return { heapUsedBytes: line.heapUsedBytes as number, rssBytes: line.rssBytes as number };
    await sleep(100);
  }
  throw new Error(
    'cannot read the heap after a forced GC: no answer to SIGUSR2 (preload missing?)',
  );
}
