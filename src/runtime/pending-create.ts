/**
 * The pending-create window: how a later pass decides that a create whose answer was lost
 * (client timeout, connection reset, the process died) really did not happen before it sends
 * another one.
 *
 * The platform may commit a create after the client gave up, and its listings may show a new
 * resource only some time after that. So while an object's create is pending (create-guard.ts)
 * and its lookup by name misses, the runtime does not create again: it looks again with growing
 * delays (1 s, 2 s, 4 s ... the time elapsed so far) and adopts the resource as soon as a lookup
 * finds it. Only a lookup that still misses once `windowMs` has passed since the attempt ended
 * presumes it did not happen; then a new attempt (with a new marker) is sent. For kinds with
 * unique names this closes the "name taken by our own late resource" leak, for the others the
 * duplicate. The window is measured on the monotonic clock of this process, from when the
 * attempt ended here, or, when this process did not make it (a restart, a new leader), from
 * the first pass that found it pending: never from the marker's wall-clock time, which a
 * restart or a slow limiter queue before the request could already have eaten up.
 *
 * Entries exist only for objects with a pending create and go with the object (`forget`).
 */

interface Entry {
  uid: string | undefined;
  /** Monotonic ms the window started at. */
  at: number;
}

/** What a pass does about a pending create its lookup did not find. */
export interface PendingDecision {
  /** The window has passed: presume the create did not happen, create again. */
  expired: boolean;
  /** Otherwise: look again after this many ms. */
  lookAgainMs: number;
}

/** Shortest delay between two lookups of one pending create. */
const MIN_LOOKUP_DELAY_MS = 1000;

/** See the module comment. */
export class PendingCreates {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** The create of `key` was sent and no answer came back: its window starts now. */
  attemptEnded(key: string, uid: string | undefined): void {
    this.entries.set(key, { uid, at: this.now() });
  }

  /**
   * A pass found the create of `key` pending and its lookup missed: whether to create again
   * or when to look again. Starts the window now when this process knows nothing of it.
   */
  decide(key: string, uid: string | undefined): PendingDecision {
    let entry = this.entries.get(key);
    if (!entry || entry.uid !== uid) {
      entry = { uid, at: this.now() };
      this.entries.set(key, entry);
    }
    const elapsed = this.now() - entry.at;
    const remaining = this.windowMs - elapsed;
    if (remaining <= 0) {
      this.entries.delete(key);
      return { expired: true, lookAgainMs: 0 };
    }
    return {
      expired: false,
      lookAgainMs: Math.min(remaining, Math.max(MIN_LOOKUP_DELAY_MS, elapsed)),
    };
  }

  /** The create of `key` is resolved (found, recorded, refused) or the object is gone. */
  resolve(key: string): void {
    this.entries.delete(key);
  }

  /** Objects with a pending create known to this process (tests, soak). */
  get size(): number {
    return this.entries.size;
  }
}
