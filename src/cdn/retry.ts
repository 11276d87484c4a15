/**
 * Retry decisions and backoff. Pure functions: the transport feeds them the error, the attempt
 * number and the elapsed time, and sleeps for what they return.
 */
import { isRetryableKind, type CdnApiError } from './errors.js';
import type { RetryOptions } from './options.js';
// Neutral timer helper (no Kubernetes code): one clamp for every timer in the process.
import { setSafeTimeout } from '../common/timers.js';

/**
 * Jittered exponential backoff ("equal jitter"): half of the capped exponential delay plus a
 * random share of the other half, so retries of many callers spread out but never collapse to 0.
 */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exp = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/** Input of {@link retryDelay}. */
export interface RetryState {
  error: CdnApiError;
  /** The attempt that just failed (1 = first). */
  attempt: number;
  elapsedMs: number;
  /** Whether the request may be sent again without risk (reads). */
  idempotent: boolean;
}

/**
 * Whether a failed attempt may be sent again. A 429 is a refusal before any work (the platform
 * counts the request against the rate, not the resource), so even a create is safe to resend;
 * a 5xx, timeout or dropped connection of a write may have been applied, and resending a
 * create could make a second resource.
 */
function mayResend(state: RetryState): boolean {
  if (!isRetryableKind(state.error.kind)) return false;
  return state.idempotent || state.error.kind === 'rateLimited';
}

/**
 * How long to wait before the next attempt, or undefined when the call must fail now: the
 * error is not transient, the request is a write that may have been applied, attempts are used
 * up, or the wait (at least the server's Retry-After) would end past the budget.
 */
export function retryDelay(
  state: RetryState,
  options: RetryOptions,
  random?: () => number,
): number | undefined {
  if (!mayResend(state)) return undefined;
  if (state.attempt >= options.maxAttempts) return undefined;
  const delay = Math.max(
    backoffDelay(state.attempt, options, random),
    state.error.retryAfterMs ?? 0,
  );
  if (state.elapsedMs + delay > options.budgetMs) return undefined;
  return delay;
}

/**
 * Parses a `Retry-After` header (delay in seconds or an HTTP date) into milliseconds from
 * `now`; undefined when absent or unparseable. Negative dates yield 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * A Retry-After within `maxMs`, or undefined beyond it: a server asking for hours is having an
 * outage, and the caller's ordinary backoff (not an account-wide freeze) is the right answer.
 */
export function boundRetryAfter(ms: number | undefined, maxMs: number): number | undefined {
  return ms !== undefined && ms <= maxMs ? ms : undefined;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setSafeTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
