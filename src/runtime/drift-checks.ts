/**
 * Drift checks a sweep asked for (observe by pages, docs/scaling.md): a sweep that saw an
 * object's resource change queues the object in the `high` lane, ahead of the periodic polls
 * (at 100,000 objects a poll wave holds the `low` lane for minutes, and a drift found within a
 * sweep must not wait behind it), yet its pass is still a drift check: it may read the
 * swept-record cache, so that a sweep seeing the operator's own write costs no read by id.
 *
 * Any other reason to queue the key (a watch event, a reference, a write answered with a
 * newer generation) makes its pass a change again: the mark is cleared, and the pass reads by id.
 */
import type { Priority } from './workqueue.js';

/** The keys queued by a sweep and by nothing else since. One per controller. */
export class DriftChecks {
  private readonly keys = new Set<string>();

  /** A sweep saw `key`'s resource change. */
  mark(key: string): void {
    this.keys.add(key);
  }

  /** Something else queued `key` (or it is gone): its next pass is not a drift check. */
  clear(key: string): void {
    this.keys.delete(key);
  }

  /**
   * Whether the pass of `key` taken from `lane` is periodic (may read the cache): a poll from
   * the `low` lane, or a sweep's drift check. Consumes the mark.
   */
  takePeriodic(key: string, lane: Priority | undefined): boolean {
    const marked = this.keys.delete(key);
    return lane === 'low' || (marked && lane === 'high');
  }

  /** Marks held (tests: cleaned on delete). */
  size(): number {
    return this.keys.size;
  }
}
