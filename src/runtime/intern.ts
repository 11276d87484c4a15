/**
 * Shared copies of strings that many cached objects repeat. Every object parsed from a list
 * or watch carries its own copy of values such as `cdn.operator.io/v1alpha1`, a condition's
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
