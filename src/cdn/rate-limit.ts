/**
 * Per-account request shaping: a token bucket (sustained rate + burst), a concurrency cap and
 * a shared pause that honours a server's Retry-After for every caller of the account. Limiters
 * live in a module-level registry keyed by a hash of the API key, so every client of the same
 * account in this process shares one limiter and many controllers cannot overrun it.
 */
import type { RateLimitOptions } from './options.js';
import { sleep } from './retry.js';

/**
 * A token bucket. Callers take a token when they are about to send; a caller that finds the
 * bucket empty sleeps for the time until one is back and tries again. Taking at send time
 * (rather than reserving ahead) keeps a stalled event loop from releasing a clump of
 * requests at once: after any pause at most `burst` requests go out together.
 */
export class TokenBucket {
  #tokens: number;
  #last: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token and returns 0, or returns the milliseconds until a token is back. */
  take(): number {
    this.#refill();
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.#tokens) / this.ratePerSecond) * 1000));
  }

  /** Tokens available now (negative while reservations are outstanding). */
  get available(): number {
    this.#refill();
    return this.#tokens;
  }

  #refill(): void {
    const t = this.now();
    const elapsed = Math.max(0, t - this.#last) / 1000;
    this.#last = t;
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.ratePerSecond);
  }
}

/** A counting semaphore with a FIFO wait queue. */
export class Semaphore {
  #free: number;
  readonly #waiters: Array<() => void> = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  /** Waits for a slot; resolves to the function that releases it (call exactly once). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (this.#free > 0) {
      this.#free--;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.#waiters.indexOf(grant);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(signal?.reason as Error);
      };
      this.#waiters.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.#releaser();
  }

  /** Requests currently holding a slot. */
  get inUse(): number {
    return this.size - this.#free;
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
      if (next) next();
      else this.#free++;
    };
  }
}

/** The limiter of one account. */
export class AccountLimiter {
  readonly bucket: TokenBucket;
  readonly slots: Semaphore;
  #pausedUntil = 0;
  /** Last time a caller asked for this limiter (registry eviction). */
  lastUsed = Date.now();

  constructor(readonly options: RateLimitOptions) {
    this.bucket = new TokenBucket(options.requestsPerSecond, options.burst);
    this.slots = new Semaphore(options.maxConcurrent);
  }

  /** True when nobody holds a slot and no pause is pending: safe to forget. */
  isIdle(now: number): boolean {
    return this.slots.inUse === 0 && this.#pausedUntil <= now;
  }

  /** Holds every caller of this account back until `ms` from now (a server's Retry-After). */
  pauseFor(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, Date.now() + ms);
  }

  /**
   * Waits for a concurrency slot, then for any pause to end and a token; resolves to the
   * release function of the slot. The pause is checked last, right before the caller sends,
   * so a Retry-After that arrives while a caller waits for a slot or a token still holds it back.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    this.lastUsed = Date.now();
    const release = await this.slots.acquire(signal);
    try {
      await this.#waitForPauseAndToken(signal);
      return release;
    } catch (err) {
      release();
      throw err;
    }
  }

  async #waitForPauseAndToken(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const paused = this.#pausedUntil - Date.now();
      if (paused > 0) {
        await sleep(paused, signal);
        continue;
      }
      const wait = this.bucket.take();
      if (wait <= 0) return;
      await sleep(wait, signal);
    }
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
