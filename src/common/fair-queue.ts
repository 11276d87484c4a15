/**
 * A queue with fair shares between flows and priorities within each flow, used at every place
 * reconcile work waits: the work queue's lanes (runtime/workqueue.ts), the platform slots
 * (runtime/platform-slots.ts) and each account's request limiter (cdn/rate-limit.ts). A flow is
 * a tenant (the object's namespace); the priorities are the lanes.
 *
 * - Between flows: start-time fair queuing. Each flow has a virtual time, the cost of the items
 *   it was served; the flow whose next item would finish first is served (ties: the flow
 *   served less, then the one waiting longest). A flow that was idle starts at the current
 *   virtual time, so it gets no credit for its idle time, and one that was just served keeps
 *   its debt, so emptying and refilling a flow gains nothing. Whatever one tenant queues, every
 *   other tenant with work waiting is served within a bounded number of items.
 * - Priorities keep their meaning: a higher priority costs less (`costs`), so between flows a
 *   change (high, cost 1) is served twice as often as a create (cost 2), never to the exclusion
 *   of it; within a flow the highest waiting priority goes first.
 * - Aging within a flow: a priority that waited while {@link FairQueueOptions.streak} items of
 *   other priorities of its flow were served gets the next turn, so no lane starves.
 *
 * Cost: a push, delete or take is O(log flows) (amortised: a take also drops the records that
 * became free), whatever the number of flows; a relist of 20,000 namespaces used to scan every
 * flow per take (bench/fair-queue.ts). Flows with items waiting sit in a heap ordered as above:
 * finish, then start, then the older record ("waiting longest"; a dropped record made again is
 * new). A take with an `eligible` test also looks at the flows it rejects ahead of the one it
 * serves. Flows with nothing waiting but debt sit in a second heap by virtual time, and a take
 * drops those the current virtual time has reached. A push to the `front` of a lane copies the
 * lane (a lane holds the calls of one tenant waiting for a slot there).
 *
 * Memory: one record per flow with items waiting, or with debt (dropped by the first take
 * after the others caught up: until then a refill still owes it); every record goes when the
 * queue is empty. Neutral code (src/common): no Kubernetes or CDN.
 */
import { IndexedHeap, type HeapEntry } from './indexed-heap.js';

/** Options of a {@link FairQueue}. */
export interface FairQueueOptions {
  /** Cost of serving one item, per priority (index 0 = highest); sets the shares between flows. */
  costs: readonly number[];
  /** Items of other priorities a waiting priority lets go first within its flow. */
  streak: number;
}

/** An item taken from the queue with its flow and priority. */
export interface Served<T> {
  item: T;
  flow: string;
  priority: number;
}

interface Flow<T> extends HeapEntry {
  name: string;
  /** Items per priority, a lane made when first used (most flows use one lane). */
  lanes: Array<Set<T> | undefined>;
  size: number;
  /** Virtual start time of the flow's next item (cost units served so far). */
  vt: number;
  /** Virtual finish time of the flow's next item (while items wait). */
  finish: number;
  /** Order of the record's creation: the tie-break of equal flows ("waiting longest"). */
  seq: number;
  /** Per priority: items of other priorities served while it waited (aging). */
  waited: number[];
}

/** The flow to serve first: earliest finish, then earliest start, then the oldest record. */
function servedBefore<T>(a: Flow<T>, b: Flow<T>): boolean {
  if (a.finish !== b.finish) return a.finish < b.finish;
  if (a.vt !== b.vt) return a.vt < b.vt;
  return a.seq < b.seq;
}

/** See the module comment. */
export class FairQueue<T> {
  readonly #flows = new Map<string, Flow<T>>();
  /** Flows with items waiting. */
  readonly #waiting = new IndexedHeap<Flow<T>>(servedBefore);
  /** Flows with nothing waiting, by virtual time: kept while they owe (debt), then dropped. */
  readonly #idle = new IndexedHeap<Flow<T>>((a, b) => a.vt < b.vt);
  readonly #costs: readonly number[];
  readonly #streak: number;
  #size = 0;
  #seq = 0;
  /** Start time of the item served last: where an idle flow starts again. */
  #vnow = 0;

  constructor(options: FairQueueOptions) {
    if (options.costs.length === 0 || options.costs.some((c) => !(c > 0 && c < Infinity)))
      throw new RangeError('cannot build a fair queue: every cost must be > 0 and finite');
    this.#costs = options.costs;
    this.#streak = options.streak;
  }

  /** Items waiting. */
  get size(): number {
    return this.#size;
  }

  /** Flows with items waiting (tests, metrics). */
  get flows(): number {
    return this.#waiting.size;
  }

  /** Flow records kept: flows with items waiting or with debt (tests: 0 once drained). */
  get records(): number {
    return this.#flows.size;
  }

  /**
   * Queues `item` in `flow` at `priority` (at the end, or at the front of its lane with
   * `front`, for an item that had its turn and must wait again). False when it waits already.
   */
  push(item: T, flow: string, priority: number, front = false): boolean {
    const p = this.#priority(priority);
    if (this.#flows.get(flow)?.lanes[p]?.has(item)) return false;
    const f = this.#flowFor(flow);
    const lane = (f.lanes[p] ??= new Set<T>());
    if (front) {
      const rest = [...lane];
      lane.clear();
      lane.add(item);
      for (const x of rest) lane.add(x);
    } else lane.add(item);
    f.size++;
    this.#size++;
    this.#refresh(f, f.size === 1);
    return true;
  }

  /** True when `item` waits in `flow` at `priority`. */
  has(item: T, flow: string, priority: number): boolean {
    return this.#flows.get(flow)?.lanes[this.#priority(priority)]?.has(item) ?? false;
  }

  /** Removes a waiting item; true when it was waiting. */
  delete(item: T, flow: string, priority: number): boolean {
    const f = this.#flows.get(flow);
    if (!f?.lanes[this.#priority(priority)]?.delete(item)) return false;
    f.size--;
    this.#size--;
    if (this.#size === 0) this.#reset();
    else if (f.size === 0) {
      this.#waiting.remove(f);
      this.#idle.push(f);
    } else this.#refresh(f, false);
    return true;
  }

  /**
   * Takes the next item (see the module comment) of a flow `eligible` accepts (default: any),
   * or undefined when none waits there. `eligible` is asked about the flows served before the
   * one it accepts, not about every flow: it must answer without side effects.
   */
  shift(eligible?: (flow: string) => boolean): Served<T> | undefined {
    this.#dropSettled();
    const f = this.#takeFlow(eligible);
    if (!f) return undefined;
    const priority = this.#pickPriority(f);
    const lane = f.lanes[priority]!;
    const item = lane.values().next().value as T;
    this.#vnow = Math.max(this.#vnow, f.vt);
    f.vt += this.#costs[priority]!;
    for (let p = 0; p < f.lanes.length; p++)
      f.waited[p] = p === priority || !f.lanes[p]?.size ? 0 : f.waited[p]! + 1;
    lane.delete(item);
    f.size--;
    this.#size--;
    if (this.#size === 0) this.#reset();
    else if (f.size === 0) this.#idle.push(f);
    else this.#refresh(f, true);
    return { item, flow: f.name, priority };
  }

  /** True when an item of a flow `eligible` accepts waits. */
  canShift(eligible: (flow: string) => boolean): boolean {
    return this.#waiting.some((f) => eligible(f.name));
  }

  #priority(p: number): number {
    return Math.min(this.#costs.length - 1, Math.max(0, Math.trunc(p)));
  }

  /** The flow's record, out of the idle heap (its debt kept) or new at the current time. */
  #flowFor(name: string): Flow<T> {
    let f = this.#flows.get(name);
    if (!f) {
      f = {
        name,
        lanes: this.#costs.map(() => undefined),
        size: 0,
        vt: this.#vnow,
        finish: 0,
        seq: this.#seq++,
        waited: this.#costs.map(() => 0),
        heapIndex: -1,
      };
      this.#flows.set(name, f);
    } else if (f.size === 0) {
      this.#idle.remove(f);
      f.vt = Math.max(f.vt, this.#vnow);
    }
    return f;
  }

  /** Sets the finish time of a flow with items waiting and files it (`added`: not filed yet). */
  #refresh(f: Flow<T>, added: boolean): void {
    f.finish = f.vt + this.#costs[this.#pickPriority(f)]!;
    if (added) this.#waiting.push(f);
    else this.#waiting.update(f);
  }

  /** Takes the first flow `eligible` accepts out of the heap; the rejected ones go back. */
  #takeFlow(eligible?: (flow: string) => boolean): Flow<T> | undefined {
    if (!eligible) return this.#waiting.pop();
    const rejected: Array<Flow<T>> = [];
    let f: Flow<T> | undefined;
    while ((f = this.#waiting.pop()) && !eligible(f.name)) rejected.push(f);
    for (const r of rejected) this.#waiting.push(r);
    return f;
  }

  /** Drops idle flows the current virtual time has reached: they owe nothing any more. */
  #dropSettled(): void {
    for (let f = this.#idle.peek(); f && f.vt <= this.#vnow; f = this.#idle.peek()) {
      this.#idle.pop();
      this.#flows.delete(f.name);
    }
  }

  /** The priority a flow serves next: one that waited its streak out, else the highest. */
  #pickPriority(f: Flow<T>): number {
    let highest = -1;
    for (let p = 0; p < f.lanes.length; p++) {
      if (!f.lanes[p]?.size) continue;
      if (f.waited[p]! >= this.#streak) return p;
      if (highest < 0) highest = p;
    }
    return highest;
  }

  /** Nothing waits: no share to keep, every record goes. */
  #reset(): void {
    this.#flows.clear();
    this.#waiting.clear();
    this.#idle.clear();
    this.#vnow = 0;
  }
}
