/** Options of {@link CdnClient} and the defaults applied when they are omitted. */
import type { Logger } from 'pino';
import type { CredentialProvider } from './credentials.js';
import type { CdnErrorKind } from './errors.js';
import { VERSION } from '../version.js';

/** The platform's public API host, from the `servers` entry of the official documents. */
export const DEFAULT_BASE_URL = 'https://api.bunny.net';
/** Sent as `User-Agent` unless overridden. */
export const DEFAULT_USER_AGENT = `cdn-operator/${VERSION} (node/${process.versions.node})`;

/** Retry policy for idempotent calls, and for writes the platform refused with a 429. */
export interface RetryOptions {
  /** Attempts in total, including the first (default 4; 1 disables retries). */
  maxAttempts: number;
  /** Backoff base: attempt n waits a jittered delay up to `baseDelayMs * 2^(n-1)` (default 200). */
  baseDelayMs: number;
  /** Upper bound of one backoff delay before jitter (default 5000). */
  maxDelayMs: number;
  /** Wall-clock budget for all attempts of one call; no retry starts past it (default 20000). */
  budgetMs: number;
}

/**
 * Per-account request shaping, shared by every client using the same API key. The rate adapts
 * (adaptive-rate.ts): it starts at `requestsPerSecond`, grows while the platform answers and
 * callers wait for tokens, and drops on a 429, always within [`minRequestsPerSecond`,
 * `maxRequestsPerSecond`]. Setting all three equal gives a fixed rate.
 */
export interface RateLimitOptions {
  /** Starting rate before the platform's limit is known (requests per second; default 20). */
  requestsPerSecond: number;
  /** Floor of the adaptive rate (default 1). */
  minRequestsPerSecond: number;
  /** Ceiling of the adaptive rate, e.g. a known quota (default Infinity: no ceiling). */
  maxRequestsPerSecond: number;
  /** Bucket size: requests that may start at once after an idle period (default 40). */
  burst: number;
  /**
   * Requests in flight at the same time (default 32: above what the workers of the three kinds
   * send at once, so at 200-300 ms platform latency the rate, not this cap, sets the pace).
   */
  maxConcurrent: number;
}

/** One finished HTTP attempt, for metrics. */
export interface RequestEvent {
  /** Stable client method name, e.g. `updatePullZone`. */
  operation: string;
  method: string;
  /** HTTP status, undefined when no response arrived (network error, timeout). */
  status: number | undefined;
  /** Error kind when the attempt failed. */
  kind?: CdnErrorKind;
  durationMs: number;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/** Observability callbacks; exceptions thrown by hooks are swallowed. */
export interface CdnClientHooks {
  onRequest?(e: RequestEvent): void;
}

/** Options of one client. */
export interface CdnClientOptions {
  /** API root (default {@link DEFAULT_BASE_URL}); `/mc` and `/shield` paths are appended to it. */
  baseUrl?: string;
  /** A credential provider, or the API key itself. */
  credentials: CredentialProvider | string;
  /** Per-attempt timeout in milliseconds (default 30000). */
  timeoutMs?: number;
  userAgent?: string;
  retry?: Partial<RetryOptions>;
  /**
   * Per-account limits; the first client created for an account (or, with a credential
   * provider, the first request) fixes them for the process.
   */
  rateLimit?: Partial<RateLimitOptions>;
  hooks?: CdnClientHooks;
  logger?: Logger;
  /** Replaces node-fetch (tests wrap it to capture request bodies). Same signature as fetch. */
  fetch?: FetchLike;
}

/** Per-call options accepted as the last argument of every client method. */
export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Turn in the account's limiter: `high` goes before `low` (default: the priority of the
   * running reconcile pass, see common/pass-context.ts, else `high`).
   */
  priority?: 'high' | 'low';
  /**
   * A background read (a list sweep, observe by pages): sent once, never retried, and a refusal
   * (429, Retry-After) neither pauses the account nor lowers its rate. The caller backs off on
   * its own, so the account's writes never pay for it.
   */
  background?: boolean;
}

/** Call options of the methods that follow pages. */
export interface PagedCallOptions extends CallOptions {
  /** Items requested per page (default: the largest page the endpoint allows). */
  pageSize?: number;
}

/** The subset of the fetch API the client needs. */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    /** Text (JSON, a zone file) or bytes (an image upload). */
    body?: string | Uint8Array;
    signal: AbortSignal;
    agent?: unknown;
  },
) => Promise<{
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  budgetMs: 20000,
};

export const DEFAULT_RATE_LIMIT: RateLimitOptions = {
  requestsPerSecond: 20,
  minRequestsPerSecond: 1,
  maxRequestsPerSecond: Number.POSITIVE_INFINITY,
  burst: 40,
  maxConcurrent: 32,
};

export const DEFAULT_TIMEOUT_MS = 30000;

/**
 * Longest Retry-After honoured (10 min). A longer answer is treated as a temporary outage of
 * that one call (normal per-item backoff), never as a pause of the whole account.
 */
export const MAX_RETRY_AFTER_MS = 600_000;
