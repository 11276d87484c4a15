/**
 * A keyed work queue with the semantics of client-go's rate-limited delaying queue:
 *
 * - keys are `namespace/name`; adding a key that is already waiting collapses into one entry;
 * - a key is never handed to two workers at once: an add while it is processing marks it
 *   dirty and it is queued again when the worker calls `done`;
 * - three lanes: `high` (changes to objects that exist on the platform, deletions, referenced
 *   objects), `normal` (creates of new objects) and `low` (periodic drift checks, retries, the
 *   initial list of objects already in sync), so that an update never queues behind a burst of
 *   creates or a poll wave;
 * - fair shares between namespaces ({@link FairQueue}, src/common/fair-queue.ts): namespaces
 *   with keys waiting are served in turn, a change counting half a create and a quarter of a
 *   drift check, so one tenant's backlog delays another tenant's key by a bounded number of
 *   keys, not by the backlog, and a tenant who keeps changing objects cannot starve another's
 *   creates; within a namespace the lanes go in order, but a waiting lane gets a turn after
 *   {@link LANE_STREAK} keys of the others (aging);
 * - `schedule` (requeueAfter) and `addRateLimited` (per-item exponential backoff) keep one
 *   pending delay per key (all keys share one timer, {@link DelayHeap}), the latest call wins,
 *   and taking a key cancels its delay: every pass decides when the next one happens;
 * - an optional global {@link TokenBucket} limits how fast keys are handed out.
 */
import { FairQueue } from '../common/fair-queue.js';
import { ItemBackoff } from './backoff.js';
import { DelayHeap } from './delay-heap.js';
import type { TokenBucket } from './rate-limiter.js';
import { setSafeTimeout } from '../common/timers.js';

/** Lane of a queued key. */
export type Priority = 'high' | 'normal' | 'low';

/** Lanes in the order they are served. */
const LANES: readonly Priority[] = ['high', 'normal', 'low'];

function rank(p: Priority): number {
  return LANES.indexOf(p);
}

/** Keys taken from other lanes of a namespace while a lane waits before that lane gets a turn. */
export const LANE_STREAK = 8;

/** Cost of a key per lane in the shares between namespaces: a change is half a create. */
const LANE_COSTS = [1, 2, 4];

function namespaceOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** Metric hooks; all optional. */
export interface WorkQueueHooks {
  onAdd?(): void;
  onRetry?(): void;
  onDepth?(depth: number): void;
  /** Seconds a key waited between being queued and being taken. */
  onLatency?(seconds: number): void;
}

/** Options of {@link WorkQueue}. */
export interface WorkQueueOptions {
  backoff?: ItemBackoff;
  limiter?: TokenBucket;
  hooks?: WorkQueueHooks;
  now?: () => number;
  /**
   * Keys of one namespace processing at a time at most (default: no limit). Keys of a
   * namespace at its limit stay queued while other namespaces' keys are handed out, so that one
   * tenant's passes (e.g. waiting for its throttled account) never take every worker.
   */
  maxInFlightPerNamespace?: number;
}

interface Pending {
  priority: Priority;
  addedAt: number;
}

/** See the module comment. */
export class WorkQueue {
  /** Waiting keys by namespace (flow) and lane (priority index, see {@link LANES}). */
  private readonly waiting = new FairQueue<string>({ costs: LANE_COSTS, streak: LANE_STREAK });
  private readonly dirty = new Map<string, Pending>();
  /** Keys being processed and the lane each was taken from. */
  private readonly processing = new Map<string, Priority>();
  /** Keys processing per namespace (only namespaces with keys processing). */
  private readonly perNamespace = new Map<string, number>();
  /** A namespace may get another key (below maxInFlightPerNamespace). */
  private readonly eligible = (ns: string): boolean =>
    (this.perNamespace.get(ns) ?? 0) < (this.opts.maxInFlightPerNamespace ?? Infinity);
  /** Pending delays (requeueAfter, backoff): one entry per key, one timer for all. */
  private readonly timers = new DelayHeap<Priority>((key, priority) => this.add(key, priority));
  private waiters: Array<() => void> = [];
  private drainers: Array<() => void> = [];
  private stopped = false;
  private readonly backoff: ItemBackoff;
  private readonly now: () => number;

  constructor(private readonly opts: WorkQueueOptions = {}) {
    this.backoff = opts.backoff ?? new ItemBackoff();
    this.now = opts.now ?? Date.now;
  }

  /** Queues `key` now; collapses with a waiting entry and promotes it to a higher lane if asked. */
  add(key: string, priority: Priority = 'low'): void {
    if (this.stopped) return;
    const pending = this.dirty.get(key);
    if (pending) {
      if (rank(priority) < rank(pending.priority)) {
        const ns = namespaceOf(key);
        if (this.waiting.delete(key, ns, rank(pending.priority)))
          this.waiting.push(key, ns, rank(priority));
        pending.priority = priority;
      }
      return;
    }
    this.dirty.set(key, { priority, addedAt: this.now() });
    this.opts.hooks?.onAdd?.();
    if (this.processing.has(key)) return;
    this.waiting.push(key, namespaceOf(key), rank(priority));
    this.reportDepth();
    this.wakeOne();
  }

  /** Queues `key` (default: low lane) after `delayMs`, replacing any earlier schedule of the key. */
  schedule(key: string, delayMs: number, priority: Priority = 'low'): void {
    if (this.stopped) return;
    this.cancelTimer(key);
    if (delayMs <= 0) {
      this.add(key, priority);
      return;
    }
    this.timers.set(key, delayMs, priority);
  }

  /** Schedules a retry after the key's next backoff delay (at least `minDelayMs`); returns it. */
  addRateLimited(key: string, minDelayMs = 0): number {
    const delay = Math.max(this.backoff.next(key), minDelayMs);
    this.opts.hooks?.onRetry?.();
    this.schedule(key, delay);
    return delay;
  }

  /** Clears the failure count of `key` (call after a successful pass). */
  forget(key: string): void {
    this.backoff.reset(key);
  }

  /** Consecutive failures of `key`. */
  failures(key: string): number {
    return this.backoff.count(key);
  }

  /**
   * Waits for the next key (fair shares between namespaces, lanes in order within one; subject
   * to the global rate limit) and marks it processing. Resolves `undefined` once the queue is
   * shut down.
   */
  async get(): Promise<string | undefined> {
    for (;;) {
      if (this.stopped) return undefined;
      if (!this.waiting.canShift(this.eligible)) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const wait = this.opts.limiter?.reserve() ?? 0;
      if (wait > 0) await new Promise((resolve) => setSafeTimeout(() => resolve(undefined), wait));
      if (this.stopped) return undefined;
      const key = this.take();
      if (key !== undefined) return key;
    }
  }

  /** Marks `key` finished; queues it again if it was added while processing. */
  done(key: string): void {
    if (!this.processing.delete(key)) return;
    const ns = namespaceOf(key);
    const n = (this.perNamespace.get(ns) ?? 1) - 1;
    if (n > 0) this.perNamespace.set(ns, n);
    else this.perNamespace.delete(ns);
    const pending = this.dirty.get(key);
    if (pending && !this.stopped) {
      this.waiting.push(key, ns, rank(pending.priority));
      this.reportDepth();
    }
    // A key was queued again, or its namespace may now get another one.
    this.wakeOne();
    if (this.processing.size === 0) {
      const drainers = this.drainers;
      this.drainers = [];
      for (const d of drainers) d();
    }
  }

  /** Keys waiting (not processing, not scheduled). */
  len(): number {
    return this.waiting.size;
  }

  /** The lane a key being processed was taken from (undefined when it is not processing). */
  takenFrom(key: string): Priority | undefined {
    return this.processing.get(key);
  }

  /** Keys being processed now. */
  inFlight(): number {
    return this.processing.size;
  }

  /** True when `key` waits in a lane. */
  isQueued(key: string): boolean {
    const pending = this.dirty.get(key);
    return pending !== undefined && this.waiting.has(key, namespaceOf(key), rank(pending.priority));
  }

  /** True when `key` has a pending schedule/backoff timer. */
  isScheduled(key: string): boolean {
    return this.timers.has(key);
  }

  /** Stops handing out keys and drops timers; workers blocked in `get` receive `undefined`. */
  shutdown(): void {
    this.stopped = true;
    this.timers.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves true when no key is processing, or false after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.processing.size === 0) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setSafeTimeout(() => resolve(false), timeoutMs);
      this.drainers.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private take(): string | undefined {
    const next = this.waiting.shift(this.eligible);
    if (next === undefined) return undefined;
    this.perNamespace.set(next.flow, (this.perNamespace.get(next.flow) ?? 0) + 1);
    const key = next.item;
    const pending = this.dirty.get(key);
    this.dirty.delete(key);
    this.processing.set(key, LANES[next.priority] ?? 'low');
    this.cancelTimer(key);
    if (pending) this.opts.hooks?.onLatency?.((this.now() - pending.addedAt) / 1000);
    this.reportDepth();
    return key;
  }

  private cancelTimer(key: string): void {
    this.timers.delete(key);
  }

  private wakeOne(): void {
    this.waiters.shift()?.();
  }

  private reportDepth(): void {
    this.opts.hooks?.onDepth?.(this.len());
  }
}
