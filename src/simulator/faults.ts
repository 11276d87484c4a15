/**
 * Fault injection for tests and benchmarks: latency (fixed, uniform or normal), a 5xx rate,
 * 429 with `Retry-After` from a token bucket, dropped connections (before any state change)
 * and "commit then drop" (the write is applied, then the socket is destroyed unanswered).
 *
 * `errorRoutes` scopes errorRate, dropConnectionRate and commitThenDropRate; latency and the
 * rate limit apply to every API route. Admin routes (`/_sim/`) are never faulted.
 */

/** Latency: fixed ms, uniform {min,max}, or normal {mean,stddev} (clamped at 0). */
export type LatencySpec = number | { min: number; max: number } | { mean: number; stddev: number };

/** Token bucket: `burst` tokens, refilled at `ratePerSecond`. */
export interface RateLimitSpec {
  ratePerSecond: number;
  burst: number;
  /** Fixed Retry-After seconds; default: time until one token is back, rounded up. */
  retryAfterSeconds?: number;
}

/** Fault configuration (`PUT /_sim/faults`, `--latency-ms`, `--error-rate`, `--rate-limit`). */
export interface FaultConfig {
  latencyMs?: LatencySpec;
  /** 0..1 share of requests answered 500. */
  errorRate?: number;
  /** Route patterns (`POST /pullzone/{id}`, `* /mc/*`); default: all routes. */
  errorRoutes?: string[];
  rateLimit?: RateLimitSpec;
  dropConnectionRate?: number;
  /** 0..1 share of writes (non-GET) applied and then left unanswered. */
  commitThenDropRate?: number;
  /**
   * Route patterns whose writes are refused with a 400 that echoes the request body (as some
   * platform validators do), to test that secret values in a body never leak from the client.
   */
  echoBodyRoutes?: string[];
}

type Json = Record<string, unknown>;

function isRate(v: unknown): boolean {
  return typeof v === 'number' && v >= 0 && v <= 1;
}

function isNonNegative(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

function latencyProblem(v: unknown): string | undefined {
  if (v === undefined || isNonNegative(v)) return undefined;
  const o = (typeof v === 'object' && v !== null ? v : {}) as Json;
  if (isNonNegative(o.min) && isNonNegative(o.max) && o.min <= o.max) return undefined;
  if (isNonNegative(o.mean) && isNonNegative(o.stddev)) return undefined;
  return 'latencyMs must be a number >= 0, {min,max} with 0 <= min <= max, or {mean,stddev} >= 0';
}

function isPositive(v: unknown, min: number): boolean {
  return typeof v === 'number' && Number.isFinite(v) && v >= min;
}

function rateLimitProblem(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const o = (typeof v === 'object' && v !== null ? v : {}) as Json;
  const retry = o.retryAfterSeconds;
  const retryOk = retry === undefined || (Number.isInteger(retry) && isPositive(retry, 1));
  const ok = isPositive(o.ratePerSecond, Number.MIN_VALUE) && isPositive(o.burst, 1) && retryOk;
  return ok
    ? undefined
    : 'rateLimit must be {ratePerSecond > 0, burst >= 1, retryAfterSeconds? integer >= 1}';
}

const KNOWN = [
  'latencyMs',
  'errorRate',
  'errorRoutes',
  'rateLimit',
  'dropConnectionRate',
  'commitThenDropRate',
  'echoBodyRoutes',
];

function ratesProblem(o: Json): string | undefined {
  const bad = ['errorRate', 'dropConnectionRate', 'commitThenDropRate'].find(
    (name) => o[name] !== undefined && !isRate(o[name]),
  );
  return bad ? `${bad} must be a number between 0 and 1` : undefined;
}

function routesProblem(routes: unknown): string | undefined {
  if (routes === undefined) return undefined;
  const ok = Array.isArray(routes) && routes.every((r) => typeof r === 'string');
  return ok ? undefined : 'errorRoutes must be an array of route patterns';
}

/** Validates a fault configuration; returns the problem or undefined. */
export function checkFaultConfig(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return 'faults must be a JSON object';
  }
  const o = input as Json;
  const unknown = Object.keys(o).find((k) => !KNOWN.includes(k));
  if (unknown) return `${unknown} is not a fault setting (known: ${KNOWN.join(', ')})`;
  return (
    ratesProblem(o) ??
    routesProblem(o.errorRoutes) ??
    routesProblem(o.echoBodyRoutes) ??
    latencyProblem(o.latencyMs) ??
    rateLimitProblem(o.rateLimit)
  );
}

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Decides, per request, which fault applies. */
export class FaultInjector {
  private config: FaultConfig = {};
  private routeMatchers: RegExp[] | undefined;
  private echoMatchers: RegExp[] = [];
  private tokens = 0;
  private refilledAt = 0;

  constructor(
    config: FaultConfig = {},
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {
    this.set(config);
  }

  /** Replaces the configuration (validate with checkFaultConfig first); refills the bucket. */
  set(config: FaultConfig): void {
    this.config = structuredClone(config);
    this.routeMatchers = config.errorRoutes?.map(patternToRegExp);
    this.echoMatchers = (config.echoBodyRoutes ?? []).map(patternToRegExp);
    this.tokens = config.rateLimit?.burst ?? 0;
    this.refilledAt = this.now();
  }

  /** Current configuration. */
  get(): FaultConfig {
    return structuredClone(this.config);
  }

  /** Milliseconds to delay this request. */
  sampleLatency(): number {
    const spec = this.config.latencyMs;
    if (spec === undefined) return 0;
    if (typeof spec === 'number') return spec;
    if ('min' in spec) return spec.min + this.random() * (spec.max - spec.min);
    // Box-Muller transform for a normal sample.
    const u = 1 - this.random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.random());
    return Math.max(0, spec.mean + z * spec.stddev);
  }

  /** Takes a token; returns Retry-After seconds when the bucket is empty, else undefined. */
  takeToken(): number | undefined {
    const limit = this.config.rateLimit;
    if (!limit) return undefined;
    const now = this.now();
    this.tokens = Math.min(
      limit.burst,
      this.tokens + ((now - this.refilledAt) / 1000) * limit.ratePerSecond,
    );
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    const wait = Math.ceil((1 - this.tokens) / limit.ratePerSecond);
    return limit.retryAfterSeconds ?? Math.max(1, wait);
  }

  private applies(routeKey: string): boolean {
    return !this.routeMatchers || this.routeMatchers.some((r) => r.test(routeKey));
  }

  private roll(rate: number | undefined, routeKey: string): boolean {
    return rate !== undefined && rate > 0 && this.applies(routeKey) && this.random() < rate;
  }

  /** Answer 500 instead of handling. */
  shouldFail(routeKey: string): boolean {
    return this.roll(this.config.errorRate, routeKey);
  }

  /** Destroy the connection before handling. */
  shouldDrop(routeKey: string): boolean {
    return this.roll(this.config.dropConnectionRate, routeKey);
  }

  /** Refuse the write with a 400 echoing its body (`echoBodyRoutes`). */
  shouldEchoBody(method: string, routeKey: string): boolean {
    return method !== 'GET' && this.echoMatchers.some((r) => r.test(routeKey));
  }

  /** Apply the write, then destroy the connection unanswered. */
  shouldCommitThenDrop(method: string, routeKey: string): boolean {
    return method !== 'GET' && this.roll(this.config.commitThenDropRate, routeKey);
  }
}
