/**
 * A kind's listing as a sweep source (observe by pages, docs/scaling.md): which page call of
 * the account's client lists the resources, their id, and how a listed item stands for what
 * the kind's read by id answers. The pages are background reads at low priority: never
 * retried, and a 429 backs off the sweep only, never the account's writes.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { ListPage } from '../../cdn/list-page.js';
import type { CallOptions } from '../../cdn/options.js';
import type { SweepSource } from '../../runtime/types.js';

/** A list record with the numeric id every core listing has. */
interface WithId {
  Id?: number | null;
}

/**
 * The sweep source of the listing `page` (one of the client's `*Page` calls). `toRecord` maps
 * a listed item to the read's answer, or undefined when the listing lacks what the read has
 * (that id is then read by id); default: the item itself (same model).
 */
export function listSweep<R extends WithId>(
  type: string,
  client: CdnClient,
  page: (n: number, opts: CallOptions) => Promise<ListPage<R>>,
  toRecord?: (item: R) => R | undefined,
): SweepSource<R> {
  return {
    type,
    listPage: (n, signal) => page(n, { signal, background: true, priority: 'low' }),
    idOf: (item) => String(item.Id),
    ...(toRecord ? { toRecord } : {}),
    accountRate: () => client.accountRate(),
  };
}
