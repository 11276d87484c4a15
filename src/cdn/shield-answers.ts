/**
 * Readers of the shield answers: the `{data, error}` envelope, a bare
 * record whose failure comes in an `errorResponse` member (custom WAF rules, rate limits, the
 * triggered-rule review), a bare `GenericRequestResponse` (deletes, page uploads), and the
 * `page` block of the shield lists. A failure reported inside a 2xx answer becomes a
 * CdnApiError like an error status does.
 */
import { kindForStatus, type CdnErrorKind } from './errors.js';
import type { HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { isRecord } from './response.js';
import { checkIntRange } from './validate.js';

const MAX_PAGES_FOLLOWED = 10000;
const INT32_MAX = 2147483647;

/** Returns `data` of an envelope, or throws what the envelope reports instead. */
export function unwrapData(http: HttpTransport, operation: string, body: unknown): unknown {
  if (!isRecord(body)) {
    throw http.failure(operation, 'server', 'unexpected answer: expected a JSON object');
  }
  if (isRecord(body.error)) throwErrorMember(http, operation, body.error);
  if (body.data === undefined || body.data === null) {
    const status = statusOf(body.statusCode);
    const why =
      status > 0 ? `the API reported status ${status} without data` : 'unexpected answer: no data';
    throw http.failure(operation, kindOf(status), why, status > 0 ? { status } : {});
  }
  return body.data;
}

/** Throws the failure an `error` member reports; returns when it reports success. */
export function throwErrorMember(
  http: HttpTransport,
  operation: string,
  error: Record<string, unknown>,
): void {
  const status = statusOf(error.statusCode);
  if (error.success !== false && status < 400) return;
  const message =
    typeof error.message === 'string' && error.message ? error.message : `status ${status}`;
  const extra =
    typeof error.errorKey === 'string' && error.errorKey ? { errorKey: error.errorKey } : {};
  throw http.failure(operation, kindOf(status), message, {
    ...extra,
    ...(status > 0 ? { status } : {}),
  });
}

/** Kind of a status stated in a body; anything that is not an error status counts as `server`. */
function kindOf(status: number): CdnErrorKind {
  return status >= 400 ? kindForStatus(status) : 'server';
}

function statusOf(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** A shield zone id in a `/shield/shield-zone/{shieldZoneId}/...` path (int32 there). */
export function checkShieldZoneId(http: HttpTransport, operation: string, id: number): void {
  checkIntRange(http, operation, 'shieldZoneId', id, 1, INT32_MAX);
}

/** Page size the client asks the shield lists for. */
export const SHIELD_LIST_PAGE_SIZE = 100;

/** The record of a bare answer, after its `errorResponse` member (if any) is checked. */
export function unwrapRecord<T>(http: HttpTransport, operation: string, body: unknown): T {
  if (!isRecord(body))
    throw http.failure(operation, 'server', 'unexpected answer: expected a JSON object');
  if (isRecord(body.errorResponse)) throwErrorMember(http, operation, body.errorResponse);
  const { errorResponse: _checked, ...record } = body;
  return record as T;
}

/** Checks a bare `GenericRequestResponse` (an empty answer counts as success). */
export function checkGenericResult(http: HttpTransport, operation: string, body: unknown): void {
  if (body === undefined || body === '') return;
  if (!isRecord(body))
    throw http.failure(operation, 'server', 'unexpected answer: expected a JSON object');
  throwErrorMember(http, operation, body);
}

/** One page of a shield list: its items and the `page` block. */
export interface ShieldListPage<T> {
  data: T[];
  page: { nextPage?: number | null; totalPages?: number };
}

function nextPageOf(page: ShieldListPage<unknown>['page'], current: number): number | undefined {
  if (typeof page.nextPage === 'number' && page.nextPage > current) return page.nextPage;
  if (
    page.nextPage === undefined &&
    typeof page.totalPages === 'number' &&
    current < page.totalPages
  )
    return current + 1;
  return undefined;
}

/** Reads a `{data, page, error}` list answer. */
export function readShieldPage<T>(
  http: HttpTransport,
  operation: string,
  body: unknown,
): ShieldListPage<T> {
  if (!isRecord(body))
    throw http.failure(operation, 'server', 'unexpected answer: expected a JSON object');
  if (isRecord(body.error)) throwErrorMember(http, operation, body.error);
  const data = body.data ?? [];
  if (!Array.isArray(data))
    throw http.failure(operation, 'server', 'unexpected answer: data is not a list');
  return { data: data as T[], page: isRecord(body.page) ? body.page : {} };
}

/** Every item of a paged shield list: pages are fetched until the last one. */
export async function followShieldPages<T>(
  fetchPage: (page: number, perPage: number, opts?: CallOptions) => Promise<ShieldListPage<T>>,
  opts?: PagedCallOptions,
): Promise<T[]> {
  const perPage = opts?.pageSize ?? SHIELD_LIST_PAGE_SIZE;
  const all: T[] = [];
  let page = 1;
  for (let i = 0; i < MAX_PAGES_FOLLOWED; i++) {
    const res = await fetchPage(page, perPage, opts);
    all.push(...res.data);
    const next = nextPageOf(res.page, page);
    if (next === undefined || res.data.length === 0) break;
    page = next;
  }
  return all;
}
