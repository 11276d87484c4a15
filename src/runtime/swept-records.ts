/**
 * The swept-record cache of observe by pages (docs/scaling.md): per account and resource type,
 * the records the latest list sweeps saw, each with the monotonic time its sweep STARTED (a
 * sweep reflects every write made before it started, maybe not one made while it ran).
 *
 * Records are kept as JSON text: one string per record is a fraction of the heap of the parsed
 * object, comparing two sweeps' records is a string comparison, and a read hands out a fresh
 * copy no caller can alter in the cache. The records of one listing share their members (a
 * pull zone has 170), so a record with the store's members, in the same order, is kept as the
 * JSON array of its values only: 1.0 KiB instead of 4.7 KiB per pull zone.
 *
 * A complete sweep drops what it did not see: a resource deleted on the platform is never
 * served from an older sweep once a newer one missed it (offset paging may miss an item that
 * moved between two pages; a missed record is read by id, never hidden).
 */

/** One cached record. */
interface Entry {
  /** The record's JSON, or the JSON array of its values when `packed`. */
  json: string;
  /** The values follow the store's member names. */
  packed: boolean;
  /** Monotonic start time of the sweep that saw it. */
  startedAt: number;
}

/** The records of one account and type. */
interface Store {
  entries: Map<string, Entry>;
  /** The member names the first record had: packed records have exactly these, in order. */
  names?: string[];
  shape?: string;
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
  private readonly stores = new Map<string, Store>();

  /** Stores `record` as seen by the sweep started at `startedAt`; says whether it changed. */
  put(store: string, id: string, record: unknown, startedAt: number): PutOutcome {
    let s = this.stores.get(store);
    if (!s) {
      s = { entries: new Map() };
      this.stores.set(store, s);
    }
    const entry = { ...encode(s, record), startedAt };
    const before = s.entries.get(id);
    s.entries.set(id, entry);
    if (!before) return 'new';
    return before.json === entry.json && before.packed === entry.packed ? 'same' : 'changed';
  }

  /**
   * Ends a complete sweep started at `startedAt`: every record it did not see is dropped (gone
   * from the platform, or missed by the paging); their ids are returned.
   */
  finish(store: string, startedAt: number): string[] {
    const entries = this.stores.get(store)?.entries;
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
    const s = this.stores.get(store);
    const e = s?.entries.get(id);
    return e && { record: decode(s, e), startedAt: e.startedAt };
  }

  /** Forgets a whole store (no object of that account and type is left). */
  drop(store: string): void {
    this.stores.delete(store);
  }

  /** Records cached in `store`, or in every store. */
  size(store?: string): number {
    if (store !== undefined) return this.stores.get(store)?.entries.size ?? 0;
    let n = 0;
    for (const s of this.stores.values()) n += s.entries.size;
    return n;
  }
}

/** A record's JSON, packed when it has the store's members (the first record's) in order. */
function encode(s: Store, record: unknown): Pick<Entry, 'json' | 'packed'> {
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    return { json: JSON.stringify(record), packed: false };
  const names = Object.keys(record);
  const shape = names.join('\u0000');
  if (s.shape === undefined) {
    s.shape = shape;
    s.names = names;
  }
  if (shape !== s.shape) return { json: JSON.stringify(record), packed: false };
  return { json: JSON.stringify(Object.values(record)), packed: true };
}

function decode(s: Store | undefined, e: Entry): unknown {
  const parsed = JSON.parse(e.json) as unknown;
  if (!e.packed || !s?.names) return parsed;
  const values = parsed as unknown[];
  return Object.fromEntries(s.names.map((name, i) => [name, values[i]]));
}
