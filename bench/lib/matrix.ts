/**
 * The bench matrix: the platform settings each configuration simulates, what the operator is
 * told about them, and the ceiling every timed phase is divided by.
 */

/** One platform configuration of the matrix. */
export interface MatrixConfig {
  /** Short id used by `--configs` and in the report. */
  id: string;
  /** Added latency of every platform call, ms (L). */
  latencyMs: number;
  /** Platform rate limit, requests/s (token bucket, burst = 1 s of rate); none when absent. */
  platformLimit?: number;
  /** Whether the operator is given the limit (its ceiling flag); false = it must find it. */
  limitKnown: boolean;
  /** Human description for the report. */
  label: string;
}

/** The four configurations of issue 17, in the order they run. */
export const MATRIX: MatrixConfig[] = [
  { id: 'l50', latencyMs: 50, limitKnown: false, label: 'L = 50 ms, no platform limit' },
  {
    id: 'l50-r100-unknown',
    latencyMs: 50,
    platformLimit: 100,
    limitKnown: false,
    label: 'L = 50 ms, platform limit 100/s unknown to the operator',
  },
  { id: 'l200', latencyMs: 200, limitKnown: false, label: 'L = 200 ms, no platform limit' },
  {
    id: 'l50-r20',
    latencyMs: 50,
    platformLimit: 20,
    limitKnown: true,
    label: 'L = 50 ms, platform limit 20/s (known to the operator)',
  },
];

/** The ceiling formula as printed in the report. */
export const CEILING_FORMULA =
  'ceiling = N × platform calls per object ÷ min(platform limit, workers ÷ L)';

/** Platform requests per second the operator can reach at best: min(limit, workers ÷ L). */
export function ceilingRate(c: MatrixConfig, workers: number): number {
  const byWorkers = workers / (c.latencyMs / 1000);
  return Math.min(c.platformLimit ?? Infinity, byWorkers);
}

/** The ceiling of a phase of `n` objects costing `callsPerObject` platform calls each, ms. */
export function ceilingMs(
  c: MatrixConfig,
  workers: number,
  n: number,
  callsPerObject: number,
): number {
  return ((n * Math.max(1, callsPerObject)) / ceilingRate(c, workers)) * 1000;
}

/** Picks configurations by id (comma list; empty = all); throws on an unknown id. */
export function pickConfigs(ids: string): MatrixConfig[] {
  if (ids.trim() === '') return MATRIX;
  return ids.split(',').map((id) => {
    const c = MATRIX.find((m) => m.id === id.trim());
    if (!c)
      throw new Error(`cannot pick config ${id}: known are ${MATRIX.map((m) => m.id).join(', ')}`);
    return c;
  });
}

/** The sim's fault settings for a configuration. */
export function simFaults(c: MatrixConfig): {
  latencyMs: number;
  rateLimit?: { ratePerSecond: number; burst: number };
} {
  return {
    latencyMs: c.latencyMs,
    ...(c.platformLimit !== undefined
      ? { rateLimit: { ratePerSecond: c.platformLimit, burst: c.platformLimit } }
      : {}),
  };
}
