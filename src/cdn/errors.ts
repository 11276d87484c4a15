/**
 * The one error model of the CDN client: every failure (HTTP error status, error member in a
 * 2xx body, network failure, timeout) becomes a `CdnApiError`. It never carries the API key,
 * request headers, request objects or raw response bodies, so it is safe to log or serialise.
 */

/** Failure classes a caller branches on. */
export type CdnErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'notFound'
  | 'conflict'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout';

/** One entry of a validation problem's `errors[]` list. */
export interface CdnFieldError {
  field: string;
  message: string;
}

/** Constructor input of {@link CdnApiError}. */
export interface CdnApiErrorInit {
  operation: string;
  kind: CdnErrorKind;
  message: string;
  /** The API's own explanation without the `cannot <operation>:` prefix. */
  detail?: string;
  status?: number;
  errorKey?: string;
  field?: string;
  fields?: CdnFieldError[];
  retryAfterMs?: number;
}

/**
 * A failed call to the management API. `operation` is the client method name
 * (`updatePullZone`), `status` the HTTP status when there was a response, `errorKey` and
 * `field` the API's own error key and offending field when it named them.
 */
export class CdnApiError extends Error {
  status?: number;
  kind: CdnErrorKind;
  errorKey?: string;
  field?: string;
  fields?: CdnFieldError[];
  retryAfterMs?: number;
  operation: string;
  /** The API's explanation (or the transport failure) without the operation prefix. */
  detail: string;

  constructor(init: CdnApiErrorInit) {
    super(init.message);
    this.name = 'CdnApiError';
    this.operation = init.operation;
    this.kind = init.kind;
    this.detail = init.detail ?? init.message;
    if (init.status !== undefined) this.status = init.status;
    if (init.errorKey !== undefined) this.errorKey = init.errorKey;
    if (init.field !== undefined) this.field = init.field;
    if (init.fields !== undefined && init.fields.length > 0) this.fields = init.fields;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  /** True for the kinds that may succeed when the same request is sent again later. */
  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }

  /** A plain object for logs and JSON output (message, kind, status, field, ...). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      operation: this.operation,
      kind: this.kind,
      status: this.status,
      errorKey: this.errorKey,
      field: this.field,
      fields: this.fields,
      retryAfterMs: this.retryAfterMs,
      message: this.message,
      detail: this.detail,
    };
  }
}

/** Type guard for {@link CdnApiError} (works across module copies by checking the shape). */
export function isCdnApiError(e: unknown): e is CdnApiError {
  if (e instanceof CdnApiError) return true;
  return (
    e instanceof Error &&
    e.name === 'CdnApiError' &&
    typeof (e as { kind?: unknown }).kind === 'string' &&
    typeof (e as { operation?: unknown }).operation === 'string'
  );
}

/** Kinds worth retrying: the request may not have been processed, or may succeed later. */
export function isRetryableKind(kind: CdnErrorKind): boolean {
  return kind === 'server' || kind === 'network' || kind === 'timeout' || kind === 'rateLimited';
}

/**
 * Maps an HTTP status to an error kind: 400/422 (and other 4xx not listed) invalid,
 * 401/403 unauthorized, 404/410 notFound, 409 conflict, 429 rateLimited, 5xx server.
 */
export function kindForStatus(status: number): CdnErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404 || status === 410) return 'notFound';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'server';
  // Only the API's validation answers describe the request itself; any other 4xx (408, 425,
  // 405...) is not a verdict on the spec and must be retried with backoff, never parked.
  return requestKindForStatus(status);
}

/** The kind of a 4xx that is neither auth, missing, conflict nor rate limiting. */
function requestKindForStatus(status: number): CdnErrorKind {
  if (status === 400 || status === 422) return 'invalid';
  if (status === 408) return 'timeout';
  return 'server';
}
