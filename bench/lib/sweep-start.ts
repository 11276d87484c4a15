/**
 * Where a measuring window of the observe-by-pages scenario opens: on the first page of a
 * sweep. A window opened at an arbitrary time cuts one sweep at each end, and the pages of a
 * sweep are paced by the account's adaptive rate, so the two cut sweeps need not add up to one
 * (104 pages counted for 10 sweeps of 10 at 10,000 zones). Sweeps start at least
 * `--sweep-interval` apart, so a window of k intervals opened on a sweep's first page holds
 * exactly k whole sweeps (or fewer when sweeps run late), never part of another.
 */
import type { CallLogEntry } from '../../src/simulator/calls.js';

/** True for a sweep page of the pull-zone listing. */
export function isSweepPage(e: CallLogEntry): boolean {
  return e.method === 'GET' && e.path === '/pullzone';
}

/**
 * The time of the first sweep page in `entries` (sorted by time) that comes at least `gapMs`
 * after the sweep page before it (the previous sweep's last page), `previousPageAt` being the
 * last sweep page seen before `entries`; undefined when none yet.
 */
export function firstSweepStart(
  entries: readonly CallLogEntry[],
  gapMs: number,
  previousPageAt: number | undefined,
): number | undefined {
  let prev = previousPageAt;
  for (const e of entries) {
    if (!isSweepPage(e)) continue;
    if (prev !== undefined && e.t - prev >= gapMs) return e.t;
    prev = e.t;
  }
  return undefined;
}

/** The last sweep page's time in `entries`, or `fallback`. */
export function lastSweepPageAt(
  entries: readonly CallLogEntry[],
  fallback: number | undefined,
): number | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e && isSweepPage(e)) return e.t;
  }
  return fallback;
}
