/**
 * Error classification. The runtime classifies what it knows itself — Kubernetes API errors
 * from its own writes, TerminalError/WaitingError thrown by kinds, network failures — and
 * hands everything else to the kind's `classifyError`. The reconciler acts on the class only.
 */
import { classifyTerminal, TerminalError, WaitingError, type ClassifiedError } from './errors.js';
import { KubeApiError } from './kube-client.js';
import { ReadyReason, SyncedReason } from './reasons.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Classifies a Kubernetes API error from the runtime's own reads and writes. */
export function classifyKubeError(err: KubeApiError): ClassifiedError {
  const s = err.statusCode;
  const message = `Kubernetes API: ${err.message}`;
  if (s === 409) return { class: 'conflict', reason: 'Conflict', message };
  if (s === undefined || s === 429 || s >= 500) return retryable(err, message);
  // 401/403 from Kubernetes means the operator's RBAC is wrong: not fixable by a retry, but
  // an admin may fix the role, so recheck periodically like a CDN Unauthorized.
  if (s === 401 || s === 403)
    return { class: 'unauthorized', reason: SyncedReason.Unauthorized, message };
  // 404 on our own write: when the object is gone the reconciler ends its passes before this
  // is asked (reconciler.ts `vanished`); what is left is a CRD without the status
  // subresource, retried with backoff.
  if (s === 404) return { class: 'conflict', reason: 'NotFound', message };
  // Only a validation answer (400 BadRequest, 422 Invalid) is a verdict on what we sent; any
  // other 4xx (408, 425, 413...) is retried with backoff and stays visible in conditions.
  if (s === 400 || s === 422)
    return { class: 'terminal', reason: SyncedReason.ReconcileError, message };
  return retryable(err, message);
}

function retryable(err: KubeApiError, message: string): ClassifiedError {
  return {
    class: 'retryable',
    reason: SyncedReason.ReconcileError,
    message,
    ...(err.retryAfterMs ? { retryAfterMs: err.retryAfterMs } : {}),
  };
}

/** True for Node network errors that carry a transient errno code. */
export function isNetworkError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return (
    (typeof code === 'string' && NETWORK_CODES.has(code)) ||
    (typeof cause === 'string' && NETWORK_CODES.has(cause))
  );
}

/**
 * Classifies any error: runtime-known errors first, then the kind's classifier; a
 * classifier that throws or returns garbage yields a retryable error (never a crash).
 */
export function classifyError(
  err: unknown,
  kindClassifier: (err: unknown) => ClassifiedError,
): ClassifiedError {
  if (err instanceof KubeApiError) return classifyKubeError(err);
  if (err instanceof TerminalError) return classifyTerminal(err, SyncedReason.InvalidSpec);
  if (err instanceof WaitingError) {
    return {
      class: 'waiting',
      reason: err.reason || ReadyReason.ReferenceNotReady,
      message: err.message,
      ...(err.requeueAfterMs !== undefined ? { requeueAfterMs: err.requeueAfterMs } : {}),
    };
  }
  try {
    const c = kindClassifier(err);
    if (c && typeof c.class === 'string') return c;
  } catch {
    // fall through to the generic answer
  }
  return { class: 'retryable', reason: SyncedReason.ReconcileError, message: errorMessage(err) };
}

/** A short message of an unknown thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : 'unknown error';
}
