/**
 * The stall probe's figures (bench/lib/stall-preload.ts) summed per window of the bench's lag
 * scrapes: how late the event loop's 5 ms timer came, and how much of that the operator's
 * main thread spent running (its own work) or waiting for a CPU (the machine's).
 */

/** A lateness of at least this many ms counts as a stall (below it the probe keeps counts only). */
export const STALL_MS = 20;

/** One stalled tick: when it ran, how late, and the main thread's time since the tick before. */
export interface StallTick {
  /** Epoch ms when the late tick ran. */
  at: number;
  lateMs: number;
  /** Time the main thread was on a CPU since the previous tick. */
  ranMs: number;
  /** Time the main thread was runnable but waited for a CPU since the previous tick. */
  waitedMs: number;
}

/** One line of the probe: every stalled tick of one second, and how many ticks ran. */
export interface StallBatch {
  time: number;
  ticks: number;
  stalls: StallTick[];
}

/** See the module comment. */
export interface StallWindow {
  ticks: number;
  /**
   * p99 of the timer's lateness over the window's ticks (what the operator's /metrics reports,
   * measured here); {@link STALL_MS} stands for "below it" when fewer than 1 % of ticks stalled.
   */
  lateP99Ms: number;
  /** p99 over ticks of the time the thread ran beyond the tick's own 5 ms: its own work. */
  ranP99Ms: number;
  stalls: number;
  /** Sums over the stalls. */
  stallMs: number;
  stallRanMs: number;
  stallWaitedMs: number;
  worstMs: number;
  worstRanMs: number;
  worstWaitedMs: number;
}

/** The p99 of `ticks` values of which only those ≥ STALL_MS are known. */
function p99Above(known: number[], ticks: number): number {
  const rank = Math.max(1, Math.ceil(ticks * 0.01)); // the rank-th largest value
  const above = known.filter((v) => v >= STALL_MS).sort((a, b) => b - a);
  return above.length >= rank ? (above[rank - 1] as number) : STALL_MS;
}

/** Sums one window's ticks; see {@link StallWindow}. */
export function summarizeStalls(ticks: number, stalls: readonly StallTick[]): StallWindow {
  const worst = stalls.reduce<StallTick | undefined>(
    (w, t) => (w === undefined || t.lateMs > w.lateMs ? t : w),
    undefined,
  );
  const sum = (f: (t: StallTick) => number): number => stalls.reduce((s, t) => s + f(t), 0);
  return {
    ticks,
    lateP99Ms: p99Above(
      stalls.map((t) => t.lateMs),
      ticks,
    ),
    ranP99Ms: p99Above(
      stalls.map((t) => t.ranMs - 5),
      ticks,
    ),
    stalls: stalls.length,
    stallMs: sum((t) => t.lateMs),
    stallRanMs: sum((t) => t.ranMs),
    stallWaitedMs: sum((t) => t.waitedMs),
    worstMs: worst?.lateMs ?? 0,
    worstRanMs: worst?.ranMs ?? 0,
    worstWaitedMs: worst?.waitedMs ?? 0,
  };
}

/**
 * The probe's batches summed per `windowMs` from `from` up to `to` (the bench's scrape windows
 * of the create), as `[seconds since from at the window's end, window]`.
 */
export function stallWindows(
  batches: readonly StallBatch[],
  from: number,
  to: number,
  windowMs = 5000,
): Array<[number, StallWindow]> {
  const out: Array<[number, StallWindow]> = [];
  for (let start = from; start < to; start += windowMs) {
    const end = start + windowMs;
    // Ticks are counted per printed second; each stall is placed by its own time, so that the
    // second printed just after a window began does not bring the stalls before it.
    const ticks = batches
      .filter((b) => b.time > start && b.time <= end)
      .reduce((s, b) => s + b.ticks, 0);
    if (ticks === 0) continue;
    const stalls = batches.flatMap((b) => b.stalls).filter((t) => t.at > start && t.at <= end);
    out.push([(end - from) / 1000, summarizeStalls(ticks, stalls)]);
  }
  return out;
}
