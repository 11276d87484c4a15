/**
 * The honest ceiling of a timed phase (issue 32): the larger of the platform ceiling (what
 * the simulated platform allows, bench/lib/matrix.ts) and the null controller's time for the
 * same phase on the same machine in the same run (what the apiserver, etcd and a controller's
 * Kubernetes writes cost here with no platform at all). A phase is machine-bound only when
 * the null time is the larger.
 */

/** A phase's ratio to its honest ceiling. */
export interface HonestRatio {
  /** The null controller's time for the phase, ms. */
  nullMs: number;
  /** max(platform ceiling, null time), ms. */
  ceilingMs: number;
  /** Phase time ÷ the honest ceiling. */
  ratio: number;
  /** True when the null time is above the platform ceiling: the machine bounds the phase. */
  machineBound: boolean;
}

/**
 * The phase's ratio to max(`platformCeilingMs`, `nullMs`); undefined when the phase or the
 * baseline did not finish (no ratio can be honest then).
 */
export function honestRatio(
  timeMs: number | null | undefined,
  platformCeilingMs: number,
  nullMs: number | null | undefined,
): HonestRatio | undefined {
  if (timeMs === null || timeMs === undefined || nullMs === null || nullMs === undefined)
    return undefined;
  const ceilingMs = Math.max(platformCeilingMs, nullMs);
  return { nullMs, ceilingMs, ratio: timeMs / ceilingMs, machineBound: nullMs > platformCeilingMs };
}
