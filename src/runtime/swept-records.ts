/**
 * The swept-record cache of observe by pages (docs/scaling.md): per account and resource type,
 * the records the latest list sweeps saw, each with the monotonic time its sweep STARTED (a
 * sweep reflects every write made before it started, maybe not one made while it ran).
 *
 * Records are kept as their JSON text: one string per record is a fraction of the heap of the
 * parsed object (the bench reports the heap per record), comparing two sweeps' records is a
 * string comparison, and a read hands out a fresh copy no caller can alter in the cache.
 *
 * A complete sweep drops what it did not see: a resource deleted on the platform is never
 * served from an older sweep once a newer one missed it (offset paging may miss an item that
 * moved between two pages; a missed record is read by id, never hidden).
 */

/** One cached record. */
interface Entry {
  json: string;
  /** Monotonic start time of the sweep that saw it. */
  startedAt: number;
}

/** A cached record as a read gets it. */
export interface SweptRecord {
  record: unknown;
  /** Monotonic start time of the sweep that saw it. */
  startedAt: number;
}

/** What storing one listed record did. */
export type PutOutcome = 'new' | 'same' | 'changed';

/** The cache key of an account and a resource type. */
export function storeKeyOf(account: string, type: string): string {
  return `${account}\u0000${type}`;
}

/** See the module comment. One instance per manager; stores keyed by {@link storeKeyOf}. */
export class SweptRecords {
  private readonly stores = new Map<string, Map<string, Entry>>();

  /** Stores `record` as seen by the sweep started at `startedAt`; says whether it changed. */
  put(store: string, id: string, record: unknown, startedAt: number): PutOutcome {
    let entries = this.stores.get(store);
    if (!entries) {
      entries = new Map();
      this.stores.set(store, entries);
    }
    const json = JSON.stringify(record);
    const before = entries.get(id);
    entries.set(id, { json, startedAt });
    if (!before) return 'new';
    return before.json === json ? 'same' : 'changed';
  }

  /**
   * Ends a complete sweep started at `startedAt`: every record it did not see is dropped (gone
   * from the platform, or missed by the paging); their ids are returned.
   */
  finish(store: string, startedAt: number): string[] {
    const entries = this.stores.get(store);
    if (!entries) return [];
    const dropped: string[] = [];
    for (const [id, e] of entries)
      if (e.startedAt < startedAt) {
        entries.delete(id);
        dropped.push(id);
      }
    return dropped;
  }

  /** The cached record of `id`, parsed afresh, or undefined. */
  get(store: string, id: string): SweptRecord | undefined {
    const e = this.stores.get(store)?.get(id);
    return e && { record: JSON.parse(e.json) as unknown, startedAt: e.startedAt };
  }

  /** Forgets a whole store (no object of that account and type is left). */
  drop(store: string): void {
    this.stores.delete(store);
  }

  /** Records cached in `store`, or in every store. */
  size(store?: string): number {
    if (store !== undefined) return this.stores.get(store)?.size ?? 0;
    let n = 0;
    for (const entries of this.stores.values()) n += entries.size;
    return n;
  }
}
