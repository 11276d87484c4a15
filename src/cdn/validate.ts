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

/**
 * A date argument as the ISO date-time the documents' `date-time` parameters take; undefined
 * stays undefined. Throws an `invalid` CdnApiError naming `field` when it is not a date.
 */
export function isoDate(
  http: HttpTransport,
  operation: string,
  field: string,
  value: Date | string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(t))
    throw http.failure(operation, 'invalid', `${field} must be a date`, { field });
  return new Date(t).toISOString();
}
