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
 * Memory: one record per flow with items waiting (or with debt, until the others catch up);
 * every record goes when the queue is empty. Neutral code (src/common): no Kubernetes or CDN.
 */

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

interface Flow<T> {
  lanes: Array<Set<T>>;
  size: number;
  /** Virtual start time of the flow's next item (cost units served so far). */
  vt: number;
  /** Per priority: items of other priorities served while it waited (aging). */
  waited: number[];
}

/** See the module comment. */
export class FairQueue<T> {
  readonly #flows = new Map<string, Flow<T>>();
  readonly #costs: readonly number[];
  readonly #streak: number;
  #size = 0;
  /** Start time of the item served last: where an idle flow starts again. */
  #vnow = 0;

  constructor(options: FairQueueOptions) {
    if (options.costs.length === 0 || options.costs.some((c) => !(c > 0)))
      throw new RangeError('cannot build a fair queue: every cost must be > 0');
    this.#costs = options.costs;
    this.#streak = options.streak;
  }

  /** Items waiting. */
  get size(): number {
    return this.#size;
  }

  /** Flows with items waiting (tests, metrics). */
  get flows(): number {
    let n = 0;
    for (const f of this.#flows.values()) if (f.size > 0) n++;
    return n;
  }

  /**
   * Queues `item` in `flow` at `priority` (at the end, or at the front of its lane with
   * `front`, for an item that had its turn and must wait again). False when it waits already.
   */
  push(item: T, flow: string, priority: number, front = false): boolean {
    const f = this.#flowFor(flow);
    const lane = f.lanes[this.#priority(priority)]!;
    if (lane.has(item)) return false;
    if (front) {
      const rest = [...lane];
      lane.clear();
      lane.add(item);
      for (const x of rest) lane.add(x);
    } else lane.add(item);
    f.size++;
    this.#size++;
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
    return true;
  }

  /**
   * Takes the next item (see the module comment) of a flow `eligible` accepts (default: any),
   * or undefined when none waits there.
   */
  shift(eligible?: (flow: string) => boolean): Served<T> | undefined {
    const next = this.#pickFlow(eligible);
    if (!next) return undefined;
    const [name, f] = next;
    const priority = this.#pickPriority(f);
    const lane = f.lanes[priority]!;
    const item = lane.values().next().value as T;
    this.#vnow = Math.max(this.#vnow, f.vt);
    f.vt += this.#costs[priority]!;
    for (let p = 0; p < f.lanes.length; p++)
      f.waited[p] = p === priority || f.lanes[p]!.size === 0 ? 0 : f.waited[p]! + 1;
    lane.delete(item);
    f.size--;
    this.#size--;
    if (this.#size === 0) this.#reset();
    return { item, flow: name, priority };
  }

  #priority(p: number): number {
    return Math.min(this.#costs.length - 1, Math.max(0, Math.trunc(p)));
  }

  #flowFor(name: string): Flow<T> {
    let f = this.#flows.get(name);
    if (!f) {
      f = {
        lanes: this.#costs.map(() => new Set<T>()),
        size: 0,
        vt: this.#vnow,
        waited: this.#costs.map(() => 0),
      };
      this.#flows.set(name, f);
    } else if (f.size === 0) f.vt = Math.max(f.vt, this.#vnow);
    return f;
  }

  /** True when an item of a flow `eligible` accepts waits. */
  canShift(eligible: (flow: string) => boolean): boolean {
    for (const [name, f] of this.#flows) if (f.size > 0 && eligible(name)) return true;
    return false;
  }

  /** The flow whose next item finishes first; drops idle flows without debt on the way. */
  #pickFlow(eligible?: (flow: string) => boolean): [string, Flow<T>] | undefined {
    let best: [string, Flow<T>] | undefined;
    let bestFinish = Infinity;
    for (const entry of this.#flows) {
      const f = entry[1];
      if (f.size === 0) {
        if (f.vt <= this.#vnow) this.#flows.delete(entry[0]);
        continue;
      }
      if (eligible && !eligible(entry[0])) continue;
      const finish = f.vt + this.#costs[this.#pickPriority(f)]!;
      if (finish < bestFinish || (finish === bestFinish && best && f.vt < best[1].vt)) {
        best = entry;
        bestFinish = finish;
      }
    }
    return best;
  }

  /** The priority a flow serves next: one that waited its streak out, else the highest. */
  #pickPriority(f: Flow<T>): number {
    let highest = -1;
    for (let p = 0; p < f.lanes.length; p++) {
      if (f.lanes[p]!.size === 0) continue;
      if (f.waited[p]! >= this.#streak) return p;
      if (highest < 0) highest = p;
    }
    return highest;
  }

  /** Nothing waits: no share to keep, every record goes. */
  #reset(): void {
    this.#flows.clear();
    this.#vnow = 0;
  }
}
