/**
 * Keyed delays on one timer: a binary min-heap of due times plus a map of the live entry per
 * key, the shape of client-go's delaying queue. The work queue keeps one pending delay per
 * managed object (the next drift check, a retry); a Node `Timeout` per key costs a timer
 * object, a closure and its context — several hundred bytes per object for as long as the
 * object exists (docs/runtime.md, Memory). Here a key costs one small entry.
 *
 * Re-scheduling or cancelling a key leaves its old heap entry behind (it no longer matches
 * the live entry and is skipped when it surfaces); the heap is rebuilt from the live entries
 * when stale ones outnumber them, so it never grows beyond twice the live keys.
 */
import { clampDelay, setSafeTimeout } from '../common/timers.js';

interface Entry<V> {
  key: string;
  due: number;
  value: V;
}

/** Called for each key whose delay has passed, with the value it was scheduled with. */
export type DueFn<V> = (key: string, value: V) => void;

/** See the module comment. */
export class DelayHeap<V> {
  private readonly live = new Map<string, Entry<V>>();
  private heap: Entry<V>[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Due time the timer is armed for (Infinity: not armed). */
  private armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly onDue: DueFn<V>,
    private readonly now: () => number = () => Math.ceil(performance.now()),
  ) {}

  /** Fires `key` after `delayMs` (clamped to the timer range), replacing any earlier delay. */
  set(key: string, delayMs: number, value: V): void {
    const entry: Entry<V> = { key, due: this.now() + clampDelay(delayMs), value };
    this.live.set(key, entry);
    this.push(entry);
    if (this.heap.length > 2 * this.live.size + 64) this.rebuild();
    if (entry.due < this.armedFor) this.arm();
  }

  /** Cancels the delay of `key`; true when it had one. */
  delete(key: string): boolean {
    return this.live.delete(key);
  }

  /** True when `key` has a pending delay. */
  has(key: string): boolean {
    return this.live.has(key);
  }

  /** Pending delays. */
  get size(): number {
    return this.live.size;
  }

  /** Heap entries, stale ones included (tests: bounded by twice the live keys plus 64). */
  get heapSize(): number {
    return this.heap.length;
  }

  /** Cancels every delay and the timer. */
  clear(): void {
    this.live.clear();
    this.heap = [];
    this.disarm();
  }

  private isLive(e: Entry<V>): boolean {
    return this.live.get(e.key) === e;
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  /** Points the one timer at the earliest live entry. */
  private arm(): void {
    this.disarm();
    while (this.heap.length > 0 && !this.isLive(this.heap[0]!)) this.pop();
    const top = this.heap[0];
    if (!top) return;
    this.armedFor = top.due;
    this.timer = setSafeTimeout(() => this.fire(), top.due - this.now());
    // The timer alone must never keep the process alive (as the per-key timers never did).
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    // Collected first, called after: a callback that schedules again (even with no delay)
    // waits for the next timer instead of looping here.
    const due: Entry<V>[] = [];
    while (this.heap.length > 0 && this.heap[0]!.due <= now) {
      const e = this.pop()!;
      if (!this.isLive(e)) continue;
      this.live.delete(e.key);
      due.push(e);
    }
    this.arm();
    for (const e of due) this.onDue(e.key, e.value);
  }

  private rebuild(): void {
    this.heap = [...this.live.values()];
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private push(e: Entry<V>): void {
    this.heap.push(e);
    let i = this.heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.heap[parent]!.due <= e.due) break;
      this.heap[i] = this.heap[parent]!;
      i = parent;
    }
    this.heap[i] = e;
  }

  private pop(): Entry<V> | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top !== undefined && last !== undefined && this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private down(i: number): void {
    const h = this.heap;
    const e = h[i]!;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= h.length) break;
      if (child + 1 < h.length && h[child + 1]!.due < h[child]!.due) child++;
      if (h[child]!.due >= e.due) break;
      h[i] = h[child]!;
      i = child;
    }
    h[i] = e;
  }
}
