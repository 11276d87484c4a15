/**
 * A token bucket used as the global rate limit of the work queues: at most `qps` keys per
 * second are handed to workers, with bursts up to `burst`.
 */

/** Token bucket; `qps <= 0` disables limiting. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
  }

  /**
   * Takes one token. Returns 0 when one was available, otherwise the milliseconds until the
   * caller may try again (the token is then already reserved for it).
   */
  reserve(): number {
    if (this.qps <= 0) return 0;
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return 0;
    return Math.ceil((-this.tokens / this.qps) * 1000);
  }
}
