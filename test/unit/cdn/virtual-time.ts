/**
 * A virtual clock for the account limiter (LimiterClock): timers fire in time order and promise
 * continuations run between them, so minutes of simulated traffic take milliseconds and the
 * counts do not depend on how loaded the machine is.
 */
import type { LimiterClock } from '../../../src/cdn/rate-limit.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** See the module comment. */
export class VirtualTime implements LimiterClock {
  t = 0;
  #seq = 0;
  #timers: Timer[] = [];

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): Timer {
    const timer = { at: this.t + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return timer;
  }

  clearTimer(handle: unknown): void {
    (handle as Timer).cancelled = true;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }

  /** Runs timers until none is left before `untilMs`. */
  async run(untilMs: number): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      this.#timers = this.#timers.filter((x) => !x.cancelled);
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers.shift();
      if (!next || next.at > untilMs) return;
      this.t = next.at;
      next.fn();
    }
  }
}
