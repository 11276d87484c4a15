/**
 * Readers of the shield answers besides the `{data, error}` envelope (shield.ts): a bare
 * record whose failure comes in an `errorResponse` member (custom WAF rules, rate limits, the
 * triggered-rule review), a bare `GenericRequestResponse` (deletes, page uploads), and the
 * `page` block of the shield lists. A failure reported inside a 2xx answer becomes a
 * CdnApiError like an error status does.
 */
import type { HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { isRecord } from './response.js';
import { throwErrorMember } from './shield.js';

const MAX_PAGES_FOLLOWED = 10000;
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
