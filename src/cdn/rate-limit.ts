/**
 * Per-account request shaping: an adaptive request rate (adaptive-rate.ts) enforced by a token
 * bucket, a concurrency cap, two priorities and a shared pause that honours a server's
 * Retry-After for every caller of the account. Waiting callers are served in fair shares
 * between tenants (the namespace of the reconcile pass), `high` before `low` within a tenant
 * with aging, and `high` twice as often as `low` between tenants (src/common/fair-queue.ts):
 * a busy queue of changes never starves creates and drift checks, and one tenant with many
 * waiting requests does not take the account's rate from another. Limiters live in a
 * module-level registry keyed by a hash of the API key, so every client of the same account in
 * this process shares one limiter and many controllers cannot overrun it.
 */
import { AdaptiveRate } from './adaptive-rate.js';
import type { RateLimitOptions } from './options.js';
// Neutral helpers (no Kubernetes code): one clamp for every timer, the fair queue, priorities.
import { FairQueue } from '../common/fair-queue.js';
import type { RequestPriority } from '../common/pass-context.js';
import { setSafeTimeout } from '../common/timers.js';
/**
 * A token bucket. A caller takes a token when it is about to send; when the bucket is empty it
 * learns the time until one is back. Taking at send time (rather than reserving ahead) keeps
 * a stalled event loop from releasing a clump of requests at once: after any pause at most
 * `burst` requests go out together. The rate can change at any time (adaptive rate).
 */
export class TokenBucket {
  #tokens: number;
  #last: number;
  #rate: number;

  constructor(
    ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#rate = ratePerSecond;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Tokens added per second. */
  get ratePerSecond(): number {
    return this.#rate;
  }

  /** Changes the refill rate from now on (tokens earned so far are kept). */
  setRate(ratePerSecond: number): void {
    this.#refill();
    this.#rate = ratePerSecond;
  }

  /** Empties the bucket: after a refusal no burst goes out at the old rate. */
  drain(): void {
    this.#refill();
    this.#tokens = Math.min(this.#tokens, 0);
  }

  /** Takes one token and returns 0, or returns the milliseconds until a token is back. */
  take(): number {
    this.#refill();
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.#tokens) / this.#rate) * 1000));
  }

  /** Tokens available now. */
  get available(): number {
    this.#refill();
    return this.#tokens;
  }

  #refill(): void {
    const t = this.now();
    const elapsed = Math.max(0, t - this.#last) / 1000;
    this.#last = t;
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.#rate);
  }
}

/** Time source of a limiter: real timers in production, a virtual clock in tests. */
export interface LimiterClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const REAL_CLOCK: LimiterClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setSafeTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A caller waiting for its turn. */
interface Waiter {
  grant(): void;
}

/** Callers waited for a token this recently: the rate, not the demand, holds them back. */
const SATURATION_WINDOW_MS = 1000;

/** Requests of the other priority a waiting priority of one tenant lets go first (aging). */
const PRIORITY_STREAK = 8;

const rank = (p: RequestPriority): number => (p === 'high' ? 0 : 1);

/**
 * The bucket size under a ceiling: a known quota of R requests/s is typically a bucket of one
 * second (R requests), so a larger burst after an idle period would be refused in part, and
 * each refusal pauses the whole account for its Retry-After (at least a second). Without a
 * ceiling the configured burst stands.
 */
function burstWithin(options: RateLimitOptions): number {
  const max = options.maxRequestsPerSecond;
  if (!Number.isFinite(max)) return options.burst;
  return Math.max(1, Math.min(options.burst, Math.floor(max)));
}

/**
 * The limiter of one account: callers wait for a concurrency slot, the end of any shared
 * pause and a token, in that order, in fair shares between tenants and `high` before `low`
 * within one (changes to existing objects before creates and drift checks, so an update does
 * not queue behind a burst of either; see the module comment for the aging). The answer to
 * each request feeds the adaptive rate ({@link AccountLimiter.onAnswer}).
 */
export class AccountLimiter {
  readonly bucket: TokenBucket;
  readonly rate: AdaptiveRate;
  readonly #queue = new FairQueue<Waiter>({ costs: [1, 2], streak: PRIORITY_STREAK });
  #inFlight = 0;
  #pausedUntil = 0;
  #timer: unknown;
  #timerAt = 0;
  #waitedForTokenAt = Number.NEGATIVE_INFINITY;
  /** Last time a caller asked for this limiter (registry eviction). */
  lastUsed = Date.now();

  readonly #clock: LimiterClock;

  constructor(
    readonly options: RateLimitOptions,
    clock: LimiterClock = REAL_CLOCK,
  ) {
    this.#clock = clock;
    const now = (): number => clock.now();
    this.rate = new AdaptiveRate(
      {
        initial: options.requestsPerSecond,
        min: options.minRequestsPerSecond,
        max: options.maxRequestsPerSecond,
      },
      now,
    );
    this.bucket = new TokenBucket(this.rate.current, burstWithin(options), now);
  }

  /** Requests holding a slot now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Callers waiting for their turn. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** True when nobody holds a slot and no pause is pending: safe to forget. */
  isIdle(now: number): boolean {
    return this.#inFlight === 0 && this.waiting === 0 && this.#pausedUntil <= now;
  }

  /** Holds every caller of this account back until `ms` from now (a server's Retry-After). */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  /**
   * Waits for a slot, the end of any pause and a token, in the share of `tenant`; resolves to
   * the release function of the slot (call exactly once, after the answer). The pause is
   * checked right before the caller is let go, so a Retry-After that arrives while a caller
   * waits still holds it back.
   */
  acquire(
    signal?: AbortSignal,
    priority: RequestPriority = 'high',
    tenant = '',
  ): Promise<() => void> {
    this.lastUsed = Date.now();
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#queue.delete(waiter, tenant, rank(priority));
        reject(signal?.reason as Error);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#releaser());
        },
      };
      this.#queue.push(waiter, tenant, rank(priority));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pump();
    });
  }

  /**
   * The release function of a slot when one can be granted at once (nobody waiting, a free
   * slot, no pause, a token), else undefined without queueing: the caller then knows it has to
   * wait for its account, and waits outside any shared capacity it holds (pass-context.ts).
   */
  tryAcquire(): (() => void) | undefined {
    this.lastUsed = Date.now();
    if (this.#queue.size > 0 || this.#inFlight >= this.options.maxConcurrent) return undefined;
    if (this.#pausedUntil > this.#clock.now()) return undefined;
    if (this.bucket.take() > 0) {
      this.#waitedForTokenAt = this.#clock.now();
      return undefined;
    }
    this.#inFlight++;
    return this.#releaser();
  }

  /**
   * Feeds the answer to a request sent at `sentAt` to the adaptive rate: a 429 or a Retry-After
   * lowers it, any other answer lets it grow while callers wait for tokens. No answer (network
   * error, timeout) says nothing about the platform's limit.
   */
  onAnswer(status: number | undefined, retryAfter: boolean, sentAt: number): void {
    if (status === undefined) return;
    if (status === 429 || retryAfter) {
      if (this.rate.onRefused(sentAt)) {
        this.bucket.setRate(this.rate.current);
        this.bucket.drain();
      }
      return;
    }
    this.rate.onAccepted(this.#clock.now() - this.#waitedForTokenAt < SATURATION_WINDOW_MS);
    this.bucket.setRate(this.rate.current);
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      this.#pump();
    };
  }

  /** Lets waiters go, in their fair order, while a slot, no pause and a token allow it. */
  #pump(): void {
    for (;;) {
      if (this.#queue.size === 0 || this.#inFlight >= this.options.maxConcurrent) return;
      const paused = this.#pausedUntil - this.#clock.now();
      if (paused > 0) return this.#wakeIn(paused);
      const wait = this.bucket.take();
      if (wait > 0) {
        this.#waitedForTokenAt = this.#clock.now();
        return this.#wakeIn(wait);
      }
      this.#inFlight++;
      this.#queue.shift()?.item.grant();
    }
  }

  #wakeIn(ms: number): void {
    const at = this.#clock.now() + ms;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#clock.setTimer(() => {
      this.#timer = undefined;
      this.#pump();
    }, ms);
  }
}

const registry = new Map<string, AccountLimiter>();
/** A limiter unused this long is dropped (rotated keys, deleted accounts): no unbounded map. */
export const LIMITER_IDLE_MS = 3_600_000;
let lastPrune = 0;

/** Drops limiters idle for {@link LIMITER_IDLE_MS}; runs at most once a minute unless forced. */
export function pruneIdleLimiters(now = Date.now(), force = false): void {
  if (!force && now - lastPrune < 60_000) return;
  lastPrune = now;
  for (const [id, l] of registry)
    if (now - l.lastUsed > LIMITER_IDLE_MS && l.isIdle(now)) registry.delete(id);
}

/** The current adaptive rate of every account with a limiter, by account id (metrics). */
export function accountRates(): Array<{ account: string; requestsPerSecond: number }> {
  return [...registry].map(([account, l]) => ({
    account,
    requestsPerSecond: l.rate.current,
  }));
}

/** Accounts with a limiter (tests, soak). */
export function limiterCount(): number {
  return registry.size;
}

/**
 * The shared limiter of an account (by {@link accountIdFor} hash, never the key). The first
 * caller's options create it; later callers get the same limiter whatever options they pass.
 */
export function limiterFor(accountId: string, options: RateLimitOptions): AccountLimiter {
  pruneIdleLimiters();
  let limiter = registry.get(accountId);
  if (!limiter) {
    limiter = new AccountLimiter(options);
    registry.set(accountId, limiter);
  }
  return limiter;
}
