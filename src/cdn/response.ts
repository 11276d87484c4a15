/** Checks on 2xx answers: the client refuses to hand a caller a body of the wrong shape. */
import type { HttpTransport } from './http.js';

/** True for a plain JSON object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Returns the body as T when it is a JSON object; otherwise throws a `server` CdnApiError. */
export function expectObject<T>(http: HttpTransport, operation: string, body: unknown): T {
  if (isRecord(body)) return body as T;
  throw http.failure(
    operation,
    'server',
    `unexpected answer: expected a JSON object, got ${describe(body)}`,
  );
}

/** Returns the body as T[] when it is a JSON array; otherwise throws a `server` CdnApiError. */
export function expectArray<T>(http: HttpTransport, operation: string, body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  throw http.failure(
    operation,
    'server',
    `unexpected answer: expected a JSON array, got ${describe(body)}`,
  );
}

function describe(v: unknown): string {
  if (v === undefined) return 'an empty body';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return 'text that is not JSON';
  return typeof v;
}
