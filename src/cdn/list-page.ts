/**
 * One page of a core list endpoint (`page` >= 1, `perPage` up to 1,000), with whether more
 * follow: what a list sweep reads (observe by pages, docs/scaling.md). The paged envelope
 * (`Items`, `HasMoreItems`) is the answer; a plain array (the unpaged form some endpoints
 * answer) is taken as the whole list, final.
 */
import type { HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject } from './response.js';
import { checkIntRange } from './validate.js';

/** The largest page the core list endpoints answer. */
export const MAX_PER_PAGE = 1000;

/** The items of one page and whether another follows. */
export interface ListPage<T> {
  items: T[];
  more: boolean;
}

/** The list endpoints a sweep reads, by the operation name the client reports. */
export interface ListCall {
  operation: string;
  path: string;
}

/** Reads page `page` (1-based) of `call`, `perPage` items (default {@link MAX_PER_PAGE}). */
export async function fetchListPage<T>(
  http: HttpTransport,
  call: ListCall,
  page: number,
  opts?: CallOptions & { perPage?: number },
): Promise<ListPage<T>> {
  checkIntRange(http, call.operation, 'page', page, 1, 2147483647);
  const perPage = opts?.perPage ?? MAX_PER_PAGE;
  checkIntRange(http, call.operation, 'perPage', perPage, 5, MAX_PER_PAGE);
  const res = await http.request(
    { operation: call.operation, method: 'GET', path: call.path, query: { page, perPage } },
    opts,
  );
  if (Array.isArray(res.body)) return { items: res.body as T[], more: false };
  const body = expectObject<{ Items?: T[] | null; HasMoreItems?: boolean }>(
    http,
    call.operation,
    res.body,
  );
  const items = body.Items ?? [];
  return { items, more: body.HasMoreItems === true && items.length > 0 };
}
