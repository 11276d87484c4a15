/**
 * Shared copies of strings that many cached objects repeat. Every object parsed from a list
 * or watch carries its own copy of values such as an `apiVersion`, a condition's
 * `ReconcileSuccess`, or a timestamp that hundreds of objects created in the same second
 * share; keeping one copy of each is a large part of the heap per cached object
 * (docs/runtime.md, Memory).
 *
 * A table is bounded: when it holds `max` strings it starts afresh, so values that never
 * repeat (a stream of distinct timestamps) cost at most `max` entries and strings that do
 * repeat are shared again from the next occurrence on.
 */

/** See the module comment. */
export class Interner {
  private table = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The shared copy of `value`. */
  intern(value: string): string {
    const hit = this.table.get(value);
    if (hit !== undefined) return hit;
    if (this.table.size >= this.max) this.table = new Map();
    this.table.set(value, value);
    return value;
  }

  /** Strings held (tests). */
  get size(): number {
    return this.table.size;
  }
}

/** A record whose members are all strings, numbers, booleans or null. */
type FlatRecord = Record<string, string | number | boolean | null>;

function isFlatRecord(value: unknown): value is FlatRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') return false;
  return true;
}

/**
 * Shared, frozen copies of small records that many cached objects repeat: the condition
 * `Ready/True/Available` written in one second by fifty objects, an identical
 * `status.ownership`. Keyed by their JSON text (member order included, so a shared copy is
 * indistinguishable from the original); bounded like {@link Interner}.
 *
 * Frozen because one copy is now part of many objects: code that mutated a cached record
 * would otherwise change every object sharing it; frozen, it throws (ES modules are strict).
 */
export class SharedRecords {
  private table = new Map<string, object>();

  constructor(private readonly max: number) {}

  /**
   * The shared copy of `value` when it is a record of scalars (frozen: `value` itself
   * becomes the shared copy when it is the first), else `value` unchanged.
   */
  share<T>(value: T): T {
    if (!isFlatRecord(value)) return value;
    return this.lookup(JSON.stringify(value), value);
  }

  /**
   * The shared copy of an array of records of scalars, its records shared too (both frozen);
   * any other array unchanged.
   */
  shareList<T>(list: readonly T[]): readonly T[] {
    if (!list.every(isFlatRecord)) return list;
    const shared = list.map((r) => this.share(r));
    return this.lookup(JSON.stringify(shared), shared);
  }

  private lookup<T>(key: string, value: T): T {
    const hit = this.table.get(key);
    if (hit !== undefined) return hit as T;
    if (this.table.size >= this.max) this.table = new Map();
    this.table.set(key, Object.freeze(value));
    return value;
  }

  /** Records held (tests). */
  get size(): number {
    return this.table.size;
  }
}
