/**
 * Fault injection for tests and benchmarks: latency (fixed, uniform or normal), a 5xx rate,
 * 429 with `Retry-After` from a token bucket, dropped connections (before any state change),
 * "commit then drop" (the write is applied, then the socket is destroyed unanswered), "slow
 * commit" (a write is held, then applied, typically after the client's timeout: the platform
 * commits a create the client already gave up on) and a listing delay (a new resource is left
 * out of its collection's listing for a while: eventually consistent listings).
 *
 * `errorRoutes` scopes errorRate, dropConnectionRate and commitThenDropRate; latency and the
 * rate limit apply to every API route. Admin routes (`/_sim/`) are never faulted.
 */
import {
  ECHO_ENCODINGS,
  encodeEcho,
  isEchoEncodingList,
  type EchoEncoding,
} from './echo-encodings.js';
import type { SimResponse } from './types.js';

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
  /**
   * How the echoing 400 spells the body (echo-encodings.ts: `raw`, `json`, `url`, `url-lower`,
   * `form`, `html`, `html-hex`); several repeat it once per spelling. Default `['raw']`.
   */
  echoBodyEncodings?: EchoEncoding[];
  /** The echoing 400 also repeats the request's `AccessKey` header (in the same spellings). */
  echoAccessKey?: boolean;
  /**
   * Writes on these route patterns (`POST /pullzone`) are held `delayMs` before they are
   * handled: with a delay above the client's timeout the client gives up first and the
   * platform commits afterwards (the answer goes to a closed connection).
   */
  slowCommit?: SlowCommitSpec;
  /**
   * A resource created by a POST to a collection (`POST /pullzone`, `/storagezone`, `/mc/apps`)
   * is left out of that collection's listing (`GET` of the same route) for this many ms after
   * the create; reads by id see it at once.
   */
  listingDelayMs?: number;
}

/** See {@link FaultConfig.slowCommit}. */
export interface SlowCommitSpec {
  routes: string[];
  delayMs: number;
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
  'echoBodyEncodings',
  'echoAccessKey',
  'slowCommit',
  'listingDelayMs',
];

function slowCommitProblem(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const o = (typeof v === 'object' && v !== null ? v : {}) as Json;
  const routes = Array.isArray(o.routes) && o.routes.every((r) => typeof r === 'string');
  return routes && isNonNegative(o.delayMs)
    ? undefined
    : 'slowCommit must be {routes: [route patterns], delayMs >= 0}';
}

function listingDelayProblem(v: unknown): string | undefined {
  return v === undefined || isNonNegative(v) ? undefined : 'listingDelayMs must be a number >= 0';
}

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
    rateLimitProblem(o.rateLimit) ??
    slowPlatformProblem(o)
  );
}

/** Problems of the slow-platform settings (`slowCommit`, `listingDelayMs`) and the echo. */
function slowPlatformProblem(o: Json): string | undefined {
  return slowCommitProblem(o.slowCommit) ?? listingDelayProblem(o.listingDelayMs) ?? echoProblem(o);
}

/** Problems of the echo's spellings (`echoBodyEncodings`, `echoAccessKey`). */
function echoProblem(o: Json): string | undefined {
  if (o.echoBodyEncodings !== undefined && !isEchoEncodingList(o.echoBodyEncodings))
    return `echoBodyEncodings must be a list of ${ECHO_ENCODINGS.join(', ')}`;
  if (o.echoAccessKey !== undefined && typeof o.echoAccessKey !== 'boolean')
    return 'echoAccessKey must be true or false';
  return undefined;
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
  private slowMatchers: RegExp[] = [];
  /** Per collection route (`GET /pullzone`): ids of new resources and when they show. */
  private readonly unlisted = new Map<string, Map<string, number>>();

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
    this.slowMatchers = (config.slowCommit?.routes ?? []).map(patternToRegExp);
    if (!config.listingDelayMs) this.unlisted.clear();
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

  /** What the echoing 400 repeats: the body (and the AccessKey header), in each spelling. */
  echoText(rawBody: string, accessKey: string | string[] | undefined): string {
    const quoted = this.config.echoAccessKey
      ? `AccessKey: ${String(accessKey)} ${rawBody}`
      : rawBody;
    const encodings = this.config.echoBodyEncodings ?? ['raw'];
    return encodings.map((e) => encodeEcho(quoted, e)).join(' ');
  }

  /** Apply the write, then destroy the connection unanswered. */
  shouldCommitThenDrop(method: string, routeKey: string): boolean {
    return method !== 'GET' && this.roll(this.config.commitThenDropRate, routeKey);
  }

  /** Milliseconds to hold this write before it is handled (`slowCommit`); 0 for none. */
  commitDelay(method: string, routeKey: string): number {
    if (method === 'GET' || !this.slowMatchers.some((r) => r.test(routeKey))) return 0;
    return this.config.slowCommit?.delayMs ?? 0;
  }

  /**
   * The answer as the client gets it under `listingDelayMs`: a create's new resource is noted
   * (by its `Id`/`id`), and a listing of the same collection leaves out the resources still in
   * their delay. Returns `response` itself when nothing applies.
   */
  shapeResponse(method: string, routeKey: string, response: SimResponse): SimResponse {
    const delayMs = this.config.listingDelayMs;
    if (!delayMs || response.status >= 300) return response;
    const collection = routeKey.replace(/^[A-Z]+ /, 'GET ');
    if (method === 'POST') {
      const id = idOf(response.body);
      if (id !== undefined) this.noteUnlisted(collection, id, this.now() + delayMs);
      return response;
    }
    const hidden = method === 'GET' ? this.visibleFilter(routeKey) : undefined;
    return hidden ? { ...response, body: withoutItems(response.body, hidden) } : response;
  }

  private noteUnlisted(collection: string, id: string, until: number): void {
    const ids = this.unlisted.get(collection) ?? new Map<string, number>();
    ids.set(id, until);
    this.unlisted.set(collection, ids);
  }

  /** Ids still unlisted in `collection` (expired ones dropped); undefined when none. */
  private visibleFilter(collection: string): Set<string> | undefined {
    const ids = this.unlisted.get(collection);
    if (!ids) return undefined;
    const now = this.now();
    for (const [id, until] of ids) if (until <= now) ids.delete(id);
    if (ids.size === 0) this.unlisted.delete(collection);
    return ids.size > 0 ? new Set(ids.keys()) : undefined;
  }
}

/** The id of a created resource in an answer body (`Id` or `id`). */
function idOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const id = (body as Json).Id ?? (body as Json).id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
}

/** A listing body (array, `{Items}` or `{items}`) without the items whose id is in `hidden`. */
function withoutItems(body: unknown, hidden: Set<string>): unknown {
  const keep = (items: unknown[]): unknown[] =>
    items.filter((item) => {
      const id = idOf(item);
      return id === undefined || !hidden.has(id);
    });
  if (Array.isArray(body)) return keep(body);
  if (typeof body !== 'object' || body === null) return body;
  const o = body as Json;
  if (Array.isArray(o.Items)) return { ...o, Items: keep(o.Items) };
  if (Array.isArray(o.items)) return { ...o, items: keep(o.items) };
  return body;
}
