/**
 * A binary min-heap whose entries know their place in it, so that an entry whose key changed
 * can be moved, or any entry removed, in O(log n) without a search. The fair queue keeps its
 * flows in two of them (fair-queue.ts). An entry is in at most one heap at a time: the place
 * is one field of the entry (`heapIndex`, -1 outside any heap).
 *
 * runtime/delay-heap.ts is a different shape (keyed by string, stale entries skipped lazily,
 * one timer) and lives in a layer src/common may not import.
 */

/** What an entry of an {@link IndexedHeap} carries: its place, kept by the heap. */
export interface HeapEntry {
  /** Index in the heap's array; -1 when in no heap. Only the heap writes it. */
  heapIndex: number;
}

/** Strict order of the heap: true when `a` must come out before `b`. */
export type Before<T> = (a: T, b: T) => boolean;

/** See the module comment. */
export class IndexedHeap<T extends HeapEntry> {
  readonly #items: T[] = [];

  constructor(private readonly before: Before<T>) {}

  /** Entries in the heap. */
  get size(): number {
    return this.#items.length;
  }

  /** The first entry, left in place. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds an entry that is in no heap. */
  push(entry: T): void {
    entry.heapIndex = this.#items.length;
    this.#items.push(entry);
    this.#up(entry.heapIndex);
  }

  /** Takes the first entry out. */
  pop(): T | undefined {
    const top = this.#items[0];
    if (top !== undefined) this.remove(top);
    return top;
  }

  /** Takes `entry` out of this heap (it must be in it). */
  remove(entry: T): void {
    const i = entry.heapIndex;
    const last = this.#items.pop()!;
    entry.heapIndex = -1;
    if (last === entry) return;
    this.#place(last, i);
    this.update(last);
  }

  /** Moves `entry` to its place after its key changed either way. */
  update(entry: T): void {
    this.#down(this.#up(entry.heapIndex));
  }

  /** True when `test` accepts an entry; entries in no particular order, stops at the first. */
  some(test: (entry: T) => boolean): boolean {
    return this.#items.some(test);
  }

  /** Takes every entry out. */
  clear(): void {
    for (const e of this.#items) e.heapIndex = -1;
    this.#items.length = 0;
  }

  #place(entry: T, i: number): void {
    this.#items[i] = entry;
    entry.heapIndex = i;
  }

  /** Sifts the entry at `i` up; returns where it settled. */
  #up(i: number): number {
    const e = this.#items[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = this.#items[parent]!;
      if (!this.before(e, p)) break;
      this.#place(p, i);
      i = parent;
    }
    this.#place(e, i);
    return i;
  }

  #down(i: number): void {
    const h = this.#items;
    const e = h[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= h.length) break;
      if (child + 1 < h.length && this.before(h[child + 1]!, h[child]!)) child++;
      if (!this.before(h[child]!, e)) break;
      this.#place(h[child]!, i);
      i = child;
    }
    this.#place(e, i);
  }
}
