/**
 * Exponential backoff with jitter, and a per-key failure counter on top of it.
 */

/** Options of {@link computeBackoff}. */
export interface BackoffOptions {
  /** Delay of the first retry (default 1 s). */
  baseMs: number;
  /** Cap (default 5 min). */
  maxMs: number;
  /** Fraction of random spread, 0..1 (default 0.2 → ±20 %). */
  jitter: number;
}

/** Default per-item backoff: 1 s doubling to 5 min, ±20 % jitter. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 300_000, jitter: 0.2 };

/**
 * Delay before retry number `attempt` (0-based): base·2^attempt capped at max, then spread by
 * ±jitter (never above max, never below 0). `random` is injectable for tests.
 */
export function computeBackoff(
  attempt: number,
  opts: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.min(Math.max(attempt, 0), 40));
  const spread = exp * opts.jitter * (random() * 2 - 1);
  return Math.round(Math.min(opts.maxMs, Math.max(0, exp + spread)));
}

/** Spreads a period by ±fraction so that many objects do not poll in lockstep. */
export function jitterDuration(
  ms: number,
  fraction = 0.1,
  random: () => number = Math.random,
): number {
  return Math.max(0, Math.round(ms + ms * fraction * (random() * 2 - 1)));
}

/** Counts consecutive failures per key and turns them into delays. */
export class ItemBackoff {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly opts: BackoffOptions = DEFAULT_BACKOFF,
    private readonly random: () => number = Math.random,
  ) {}

  /** Records a failure of `key` and returns the delay before its next attempt. */
  next(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return computeBackoff(n, this.opts, this.random);
  }

  /** Consecutive failures recorded for `key`. */
  count(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Forgets the failures of `key` (after a success). */
  reset(key: string): void {
    this.failures.delete(key);
  }
}
