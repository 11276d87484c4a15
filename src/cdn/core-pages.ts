/**
 * Lists paged the way the core and compute documents page them: `page` (1..2147483647) and
 * `perPage` (5..1000) query parameters, answers `{Items, CurrentPage, TotalItems, HasMoreItems}`.
 * Every page is followed unless the caller asks for one; the ranges are checked before sending.
 */
import type { HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject } from './response.js';
import { checkIntRange } from './validate.js';

const MAX_PAGE = 2147483647;
const MAX_PAGES_FOLLOWED = 10000;

/** Paging of a list call: one page when `page` is given, else every page. */
export interface Paging {
  page?: number;
  perPage?: number;
}

interface Page<T> {
  Items?: T[] | null;
  HasMoreItems?: boolean;
}

/** Query values of a list call (an array is sent once per item, `type=1&type=2`). */
export type ListQuery = Record<string, string | number | boolean | readonly number[] | undefined>;

/** The items of one page (`paging.page`) or of every page, in order. */
export async function fetchPages<T>(
  http: HttpTransport,
  call: { operation: string; path: string; query: ListQuery },
  paging: Paging,
  opts?: CallOptions,
): Promise<T[]> {
  checkIntRange(http, call.operation, 'page', paging.page, 1, MAX_PAGE);
  checkIntRange(http, call.operation, 'perPage', paging.perPage, 5, 1000);
  const all: T[] = [];
  const first = paging.page ?? 1;
  const last = paging.page ?? MAX_PAGES_FOLLOWED;
  for (let page = first; page <= last; page++) {
    const res = await http.request(
      {
        operation: call.operation,
        method: 'GET',
        path: call.path,
        query: { ...call.query, page, perPage: paging.perPage ?? 1000 },
      },
      opts,
    );
    const body = expectObject<Page<T>>(http, call.operation, res.body);
    const items = body.Items ?? [];
    all.push(...items);
    if (body.HasMoreItems !== true || items.length === 0) break;
  }
  return all;
}
