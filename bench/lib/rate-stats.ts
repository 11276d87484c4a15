/**
 * Platform request rate over a phase, from the sim's call log: how many requests the platform
 * served per second (answers other than 429), how many it refused with 429, and a per-second
 * series for the charts.
 */
import type { CallLogEntry } from '../../src/simulator/calls.js';

/** Rate figures of one phase. */
export interface RateStats {
  requests: number;
  tooMany: number;
  /** 429 answers ÷ all requests. */
  tooManyShare: number;
  /**
   * Served requests (not 429) per second over the central 80 % of the phase, so that the
   * ramp-up of the first seconds and the tail of the last objects do not count.
   */
  sustainedPerSecond: number;
  /** [second since phase start, served requests that second, 429s that second]. */
  perSecond: Array<[number, number, number]>;
}

/** Computes {@link RateStats} of the entries within [from, to]. */
export function rateStats(log: CallLogEntry[], from: number, to: number): RateStats {
  const inside = log.filter((e) => e.t >= from && e.t <= to);
  const tooMany = inside.filter((e) => e.status === 429).length;
  const seconds = Math.max(1, Math.ceil((to - from) / 1000));
  const perSecond: Array<[number, number, number]> = Array.from({ length: seconds }, (_, i) => [
    i,
    0,
    0,
  ]);
  for (const e of inside) {
    const slot = perSecond[Math.min(seconds - 1, Math.floor((e.t - from) / 1000))];
    if (!slot) continue;
    if (e.status === 429) slot[2]++;
    else slot[1]++;
  }
  const a = from + (to - from) * 0.1;
  const b = from + (to - from) * 0.9;
  const served = inside.filter((e) => e.t >= a && e.t <= b && e.status !== 429).length;
  return {
    requests: inside.length,
    tooMany,
    tooManyShare: inside.length > 0 ? tooMany / inside.length : 0,
    sustainedPerSecond: b > a ? served / ((b - a) / 1000) : 0,
    perSecond,
  };
}
