/**
 * `page` / `perPage` query parameters of the core list endpoints. Ranges from the official
 * document (the contract states them by range only): page 1..2147483647, perPage 5..1000.
 */
import type { JsonObject } from '../json.js';
import type { SettingsProblem } from './pullzone-settings.js';

/** Parsed paging. `page` 0 means "not paged" where the endpoint allows it. */
export interface PageQuery {
  page: number;
  perPage: number;
}

const PAGE_MAX = 2147483647;

function parseInteger(
  query: URLSearchParams,
  name: string,
  fallback: number,
): number | SettingsProblem {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) {
    return {
      errorKey: 'validation.invalid_value',
      field: name,
      message: `${name} must be an integer`,
    };
  }
  return Number(raw);
}

function outOfRange(name: string, value: number, min: number, max: number): SettingsProblem {
  return {
    errorKey: 'validation.out_of_range',
    field: name,
    message: `${name} must be between ${min} and ${max}, got ${value}`,
  };
}

/** Parses and range-checks paging; a page of 0 is accepted only when `pageDefault` is 0. */
export function pageQueryProblem(
  query: URLSearchParams,
  defaults: { pageDefault: number; perPageDefault: number },
): PageQuery | SettingsProblem {
  const page = parseInteger(query, 'page', defaults.pageDefault);
  if (typeof page !== 'number') return page;
  const perPage = parseInteger(query, 'perPage', defaults.perPageDefault);
  if (typeof perPage !== 'number') return perPage;
  const pageMin = defaults.pageDefault === 0 ? 0 : 1;
  if (page < pageMin || page > PAGE_MAX) return outOfRange('page', page, pageMin, PAGE_MAX);
  if (perPage < 5 || perPage > 1000) return outOfRange('perPage', perPage, 5, 1000);
  return { page, perPage };
}

/**
 * One page of `items` in the documents' pagination envelope, each item of the page rendered by
 * `render`: only the page is rendered, so a page of a large account (100,000 zones) costs its
 * 1,000 items, not the whole list.
 */
export function pageOf<T = JsonObject>(
  items: readonly T[],
  paging: PageQuery,
  render: (item: T) => JsonObject = (item) => item as JsonObject,
): JsonObject {
  const start = (paging.page - 1) * paging.perPage;
  return {
    Items: items.slice(start, start + paging.perPage).map(render),
    CurrentPage: paging.page,
    TotalItems: items.length,
    HasMoreItems: start + paging.perPage < items.length,
  };
}
