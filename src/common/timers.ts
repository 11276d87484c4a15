/**
 * Timer delays that are always safe. Node turns a `setTimeout` delay above 2^31-1 ms (about
 * 24.8 days), a negative one or NaN into 1 ms (with only a TimeoutOverflowWarning), so an
 * unbounded delay — a huge poll interval, a Retry-After of years — becomes a hot loop. Every
 * timer in the runtime and the CDN client goes through {@link clampDelay}. This module has no
 * Kubernetes or CDN imports, so both layers may use it.
 */

/** The largest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` rounded and limited to 0 … {@link MAX_TIMER_MS}; NaN becomes 0. */
export function clampDelay(ms: number): number {
  if (!Number.isFinite(ms)) return Number.isNaN(ms) || ms < 0 ? 0 : MAX_TIMER_MS;
  return Math.min(MAX_TIMER_MS, Math.max(0, Math.round(ms)));
}

/** `setTimeout` with a clamped delay. */
export function setSafeTimeout(fn: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(fn, clampDelay(ms));
}

/** Resolves after `ms` (clamped), or at once when `signal` aborts; never rejects. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setSafeTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
