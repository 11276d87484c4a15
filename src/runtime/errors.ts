/**
 * Error classes the runtime understands. Kinds map their own errors (e.g. the CDN client's
 * CdnApiError) to one of these with `ManagedKind.classifyError`; the reconciler decides on
 * conditions, requeue and backoff from the class alone.
 */

/** How the reconciler should treat a failure. */
export type ClassifiedError =
  /**
   * Invalid spec or another 4xx: Synced=False, no requeue until the spec (generation) changes.
   * `unavailable`: the failure also says the resource is not available (Ready=False, same reason).
   */
  | { class: 'terminal'; reason: string; message: string; unavailable?: boolean }
  /** 401/403: Synced=False reason Unauthorized, rechecked periodically (not in a tight loop). */
  | { class: 'unauthorized'; reason: string; message: string }
  /**
   * 429/5xx/network/timeout: retried with per-item backoff; retryAfterMs is a floor.
   * `notApplied`: the platform answered that it did not process the request (429, 503), so a
   * create that failed this way certainly made nothing and is sent again without waiting
   * for a late resource (see pending-create.ts); without it a failed create's outcome is
   * unknown.
   */
  | {
      class: 'retryable';
      reason: string;
      message: string;
      retryAfterMs?: number;
      notApplied?: boolean;
    }
  /** Waiting on another object (e.g. ReferenceNotReady): requeued after a short delay, no error event storm. */
  | { class: 'waiting'; reason: string; message: string; requeueAfterMs?: number }
  /** Kubernetes 409 (stale resourceVersion): silent immediate requeue. */
  | { class: 'conflict'; reason: string; message: string };

/**
 * Thrown by kinds for a spec problem found without calling the platform. `unavailable`: the
 * problem is also that the resource is not there (Ready=False as well as Synced=False).
 */
export class TerminalError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly unavailable = false,
  ) {
    super(message);
    this.name = 'TerminalError';
  }
}

/** The classification of a TerminalError (`fallback`: the reason when it has none). */
export function classifyTerminal(err: TerminalError, fallback = err.reason): ClassifiedError {
  return {
    class: 'terminal',
    reason: err.reason || fallback,
    message: err.message,
    ...(err.unavailable ? { unavailable: true } : {}),
  };
}

/** Thrown by kinds while a referenced object is not ready yet. */
export class WaitingError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly requeueAfterMs?: number,
  ) {
    super(message);
    this.name = 'WaitingError';
  }
}
