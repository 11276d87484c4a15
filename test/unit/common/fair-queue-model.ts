/**
 * The fair queue's rules written as plainly as possible, for the equivalence test
 * (fair-queue-equivalence.test.ts): every take looks at every flow record, in the order the
 * records were made, as the queue did before it kept its flows in heaps (issue 53). Slow
 * (O(flows) per take) and obviously the documented rules; src/common/fair-queue.ts must
 * answer every call exactly as this does.
 */
import type { FairQueueOptions, Served } from '../../../src/common/fair-queue.js';

interface Rec<T> {
  name: string;
  /** Items per priority, first to serve first. */
  lanes: T[][];
  vt: number;
  waited: number[];
}

const isEmpty = <T>(r: Rec<T>): boolean => r.lanes.every((l) => l.length === 0);

/** See the module comment; the same calls as FairQueue. */
export class ScanningFairQueue<T> {
  /** Flow records, oldest first. */
  recs: Array<Rec<T>> = [];
  vnow = 0;
  size = 0;

  constructor(private readonly options: FairQueueOptions) {}

  get flows(): number {
    return this.recs.filter((r) => !isEmpty(r)).length;
  }

  get records(): number {
    return this.recs.length;
  }

  push(item: T, flow: string, priority: number, front = false): boolean {
    const p = this.clamp(priority);
    let rec = this.recs.find((r) => r.name === flow);
    if (rec?.lanes[p]!.includes(item)) return false;
    if (!rec) {
      const fresh = this.options.costs.map(() => 0);
      rec = { name: flow, lanes: fresh.map(() => []), vt: this.vnow, waited: fresh };
      this.recs.push(rec);
    } else if (isEmpty(rec)) rec.vt = Math.max(rec.vt, this.vnow);
    if (front) rec.lanes[p]!.unshift(item);
    else rec.lanes[p]!.push(item);
    this.size++;
    return true;
  }

  has(item: T, flow: string, priority: number): boolean {
    const rec = this.recs.find((r) => r.name === flow);
    return rec?.lanes[this.clamp(priority)]!.includes(item) ?? false;
  }

  delete(item: T, flow: string, priority: number): boolean {
    const lane = this.recs.find((r) => r.name === flow)?.lanes[this.clamp(priority)];
    const at = lane?.indexOf(item) ?? -1;
    if (at < 0) return false;
    lane!.splice(at, 1);
    this.removed();
    return true;
  }

  canShift(eligible: (flow: string) => boolean): boolean {
    return this.recs.some((r) => !isEmpty(r) && eligible(r.name));
  }

  shift(eligible?: (flow: string) => boolean): Served<T> | undefined {
    // Records with nothing waiting and no debt left go first.
    this.recs = this.recs.filter((r) => !isEmpty(r) || r.vt > this.vnow);
    let best: Rec<T> | undefined;
    for (const r of this.recs) {
      if (isEmpty(r) || (eligible && !eligible(r.name))) continue;
      const [finish, bestFinish] = [this.finish(r), best ? this.finish(best) : Infinity];
      if (finish < bestFinish || (finish === bestFinish && r.vt < best!.vt)) best = r;
    }
    if (!best) return undefined;
    const priority = this.lane(best);
    this.vnow = Math.max(this.vnow, best.vt);
    best.vt += this.options.costs[priority]!;
    best.waited = best.waited.map((w, p) =>
      p !== priority && best.lanes[p]!.length > 0 ? w + 1 : 0,
    );
    const item = best.lanes[priority]!.shift()!;
    this.removed();
    return { item, flow: best.name, priority };
  }

  private removed(): void {
    this.size--;
    if (this.size > 0) return;
    this.recs = [];
    this.vnow = 0;
  }

  private finish(r: Rec<T>): number {
    return r.vt + this.options.costs[this.lane(r)]!;
  }

  /** The lane served next: the first that waited its streak out, else the first with items. */
  private lane(r: Rec<T>): number {
    const aged = r.lanes.findIndex((l, p) => l.length > 0 && r.waited[p]! >= this.options.streak);
    return aged >= 0 ? aged : r.lanes.findIndex((l) => l.length > 0);
  }

  private clamp(p: number): number {
    return Math.min(this.options.costs.length - 1, Math.max(0, Math.trunc(p)));
  }
}
