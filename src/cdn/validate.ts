/** Argument checks done before any request, so bad input fails fast with a clear message. */
import type { HttpTransport } from './http.js';

/** Throws an `invalid` CdnApiError unless `value` is an integer in [min, max]. */
export function checkIntRange(
  http: HttpTransport,
  operation: string,
  field: string,
  value: number | undefined,
  min: number,
  max: number,
): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw http.failure(
      operation,
      'invalid',
      `${field} must be an integer from ${min} to ${max}, got ${String(value)}`,
      {
        field,
      },
    );
  }
}

/** Throws an `invalid` CdnApiError unless `value` is a positive integer id. */
export function checkId(
  http: HttpTransport,
  operation: string,
  field: string,
  value: number,
): void {
  checkIntRange(http, operation, field, value, 1, Number.MAX_SAFE_INTEGER);
}

/** Throws an `invalid` CdnApiError unless `value` is a non-empty string. */
export function checkNonEmpty(
  http: HttpTransport,
  operation: string,
  field: string,
  value: string,
): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw http.failure(operation, 'invalid', `${field} must be a non-empty string`, { field });
  }
}
