/**
 * The request rate of one account, found by probing instead of guessed (AIMD with a memory of
 * the last limit, in the spirit of TCP congestion control):
 *
 * - probing: while the platform answers and callers are waiting for tokens (the rate, not the
 *   demand, is what holds them back), the rate doubles every second;
 * - on a 429 (or any answer with Retry-After) the rate drops to {@link DECREASE_FACTOR} times
 *   the rate the platform actually accepted over the last second, and that accepted rate is
 *   remembered as the known limit — but only when that second measured the platform, not the
 *   demand: callers had to wait for tokens within that second (demand exceeded the rate), the
 *   platform accepted something, and no decrease happened within it (not the fading tail of
 *   the time before a spell of refusals). A refusal while the account sent less than its rate (2
 *   requests/s of demand) or during a spell where the platform refuses everything (an
 *   outage-like run of 429s) lowers the rate but leaves the known limit alone, so the rate
 *   doubles (or climbs back to the known limit) within seconds once callers wait again,
 *   instead of probing slowly up from a "limit" that was only the demand. Only answers to requests
 *   sent after the previous decrease count, so one overload episode (every request in flight
 *   refused at once) is one decrease;
 * - below the known limit the rate climbs back quickly (half the gap every half second), then
 *   probes above it slowly (+{@link PROBE_SHARE_PER_S} of the limit per second), so refusals
 *   stay rare and the sustained rate stays close to the limit. A rate that gets well past the
 *   known limit without a refusal forgets it (the platform raised its limit) and doubles again;
 * - always within [min, max].
 *
 * Pure apart from the clock passed in: the limiter feeds it answers and reads `current`.
 */

/** Share of the accepted rate kept on a refusal. */
export const DECREASE_FACTOR = 0.9;
/** Above the known limit the rate grows by this share of it per second. */
export const PROBE_SHARE_PER_S = 0.005;
/** Growing this far past the known limit without a refusal forgets the limit. */
const FORGET_LIMIT_FACTOR = 1.5;
/** Below the known limit the gap halves every this many milliseconds. */
const RECOVERY_HALF_LIFE_MS = 500;
/** Near the known limit (this share of it) recovery turns into slow probing. */
const RECOVERY_TARGET = 0.97;
/** Growth is computed over at most this much time per answer (a quiet gap is not credit). */
const MAX_GROWTH_STEP_MS = 1000;
/** The accepted rate is measured over this window (and must be saturated all of it). */
const MEASURE_WINDOW_MS = 1000;

/** Bounds and start of an {@link AdaptiveRate}. */
export interface AdaptiveRateOptions {
  /** Rate before anything is known (requests per second). */
  initial: number;
  /** Floor: the rate never drops below it. */
  min: number;
  /** Ceiling: the rate never probes above it (Infinity: no ceiling). */
  max: number;
}

/** See the module comment. */
export class AdaptiveRate {
  #rate: number;
  #knownLimit: number | undefined;
  #decreasedAt = Number.NEGATIVE_INFINITY;
  #grownAt: number | undefined;
  // Last accepted answers while callers waited for tokens (saturated) and while none did.
  // Last accepted answer while callers waited for tokens (demand exceeded the rate).
  #saturatedAt = Number.NEGATIVE_INFINITY;
  // Successful answers in the current and the previous one-second window (accepted rate).
  #windowStart: number;
  #windowCount = 0;
  #previousCount = 0;

  constructor(
    readonly options: AdaptiveRateOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.#rate = clamp(options.initial, options.min, options.max);
    this.#windowStart = now();
  }

  /** The rate to send at now (requests per second). */
  get current(): number {
    return this.#rate;
  }

  /** The accepted rate the last refusal revealed, if any. */
  get knownLimit(): number | undefined {
    return this.#knownLimit;
  }

  /**
   * Records an answer that was not a refusal. `saturated` says whether callers recently had to
   * wait for a token; only then does the rate grow (an idle account must not inflate it).
   */
  onAccepted(saturated: boolean): void {
    const t = this.now();
    this.#count(t);
    this.#windowCount++;
    if (saturated) this.#saturatedAt = t;
    const since = this.#grownAt === undefined ? 0 : t - this.#grownAt;
    this.#grownAt = t;
    if (!saturated || since <= 0) return;
    this.#grow(Math.min(since, MAX_GROWTH_STEP_MS));
  }

  /**
   * Records a refusal (429 or Retry-After) of a request sent at `sentAt`. Returns true when the
   * rate was lowered; false for a request sent before the previous decrease (same episode).
   */
  onRefused(sentAt: number): boolean {
    const t = this.now();
    this.#count(t);
    if (sentAt < this.#decreasedAt) return false;
    const accepted = this.#acceptedRate(t);
    // With no accepted answer in the window the platform accepts less than we can measure.
    const basis = accepted > 0 ? Math.min(this.#rate, accepted) : this.#rate;
    if (accepted > 0 && this.#measuredPlatform(t)) this.#knownLimit = basis;
    this.#rate = clamp(basis * DECREASE_FACTOR, this.options.min, this.options.max);
    this.#decreasedAt = t;
    this.#grownAt = t;
    return true;
  }

  /**
   * True when the last second's accepted rate is the platform's answer to more than it
   * accepts, not the account's demand nor an echo: callers had to wait for tokens within it
   * (demand exceeded the rate), and no decrease happened within it (during a spell where the
   * platform refuses everything, what the window still holds is the fading tail of the time
   * before, plus the odd straggler).
   */
  #measuredPlatform(t: number): boolean {
    const from = t - MEASURE_WINDOW_MS;
    return this.#saturatedAt >= from && this.#decreasedAt <= from;
  }

  #grow(dtMs: number): void {
    const limit = this.#knownLimit;
    let next: number;
    if (limit === undefined) next = this.#rate * 2 ** (dtMs / 1000);
    else if (this.#rate < limit * RECOVERY_TARGET)
      next = limit - (limit - this.#rate) * 0.5 ** (dtMs / RECOVERY_HALF_LIFE_MS);
    else next = this.#rate + limit * PROBE_SHARE_PER_S * (dtMs / 1000);
    if (limit !== undefined && next > limit * FORGET_LIMIT_FACTOR) this.#knownLimit = undefined;
    this.#rate = clamp(next, this.options.min, this.options.max);
  }

  #count(t: number): void {
    const elapsed = t - this.#windowStart;
    if (elapsed >= 2000) {
      this.#previousCount = 0;
      this.#windowCount = 0;
      this.#windowStart = t;
    } else if (elapsed >= 1000) {
      this.#previousCount = this.#windowCount;
      this.#windowCount = 0;
      this.#windowStart += 1000;
    }
  }

  /** Accepted answers per second over the last second (sliding over two fixed windows). */
  #acceptedRate(t: number): number {
    const into = Math.min(1, Math.max(0, (t - this.#windowStart) / 1000));
    return this.#windowCount + this.#previousCount * (1 - into);
  }
}

function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}
