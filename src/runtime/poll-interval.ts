/**
 * The drift-check interval of an object: the `<group>/poll-interval` annotation when valid, clamped
 * to a documented range (5 s … 24 h) so that neither a typo like `1ms` nor `1000h` (beyond
 * what a timer can hold) turns into a hot loop or a check that never comes. Clamping is
 * reported (Warning event `InvalidPollInterval`), never silent.
 */
import { parseDuration } from './duration.js';
import { Annotation } from './reasons.js';
import type { ManagedObject } from './types.js';

/** Shortest poll interval honoured (annotation and --poll-interval). */
export const MIN_POLL_INTERVAL_MS = 5_000;
/** Longest poll interval honoured: a day (drift is found at least daily). */
export const MAX_POLL_INTERVAL_MS = 86_400_000;

/** The object's poll interval and, when the annotation was clamped or ignored, why. */
export function resolvePollInterval(
  obj: ManagedObject,
  fallbackMs: number,
): { ms: number; problem?: string } {
  const raw = obj.metadata.annotations?.[Annotation.PollInterval];
  if (!raw) return { ms: fallbackMs };
  let ms: number;
  try {
    ms = parseDuration(raw);
  } catch (err) {
    return {
      ms: fallbackMs,
      problem: `annotation ${Annotation.PollInterval} "${raw}" is invalid (${(err as Error).message}); using ${fallbackMs} ms`,
    };
  }
  const clamped = Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, ms));
  if (clamped === ms) return { ms };
  return {
    ms: clamped,
    problem: `annotation ${Annotation.PollInterval} "${raw}" is outside 5s..24h; using ${clamped} ms`,
  };
}
