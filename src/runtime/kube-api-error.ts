/** The error type of every Kubernetes API call of the runtime (kube-client.ts re-exports it). */

/** A failed Kubernetes API call (HTTP status, or a network error without one). */
export class KubeApiError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
    readonly reason?: string,
    readonly retryAfterMs?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}
