/**
 * Platform-call slots of one controller: at most `--workers` ExternalClient calls (observe,
 * create, update, delete) of one kind are on the platform at a time, while up to
 * `--max-concurrent-reconciles` passes run. A pass holds a slot only for its platform calls,
 * not for its Kubernetes round trips (the create-pending marker before a create, the status
 * write after it), so those overlap with other passes' platform calls instead of idling a
 * worker: with 8 workers and a platform answering in L, creates approach 8 ÷ L per second
 * whatever the apiserver's write latency (docs/runtime.md, Workers and platform slots).
 *
 * Two rules keep one tenant from stalling the others (issue 28):
 * - a call never holds its slot while it waits for its own account: a request the account's
 *   limiter holds back (no token, a Retry-After pause) or the sleep before a retry runs through
 *   the pass context's `waitOutside`, which gives the slot back for the wait and queues for one
 *   again (at the front of its lane) before the request is sent;
 * - waiting calls are served in fair shares between tenants (the pass's namespace) with
 *   priorities within them (src/common/fair-queue.ts): a change (`high`) of one tenant goes
 *   twice as often as a create (`low`) of another, never to the exclusion of it.
 * Pure Node, no CDN or Kubernetes code.
 */
import { FairQueue } from '../common/fair-queue.js';
import {
  currentTenant,
  currentWaitOutside,
  runWithinPass,
  type RequestPriority,
} from '../common/pass-context.js';
import type { ExternalClient } from './types.js';
import { wrapClient } from './wrap-client.js';

interface Waiter {
  grant(): void;
}

/** Items of the other priority a waiting priority of one tenant lets go first (aging). */
const SLOT_STREAK = 8;

const rank = (p: RequestPriority): number => (p === 'high' ? 0 : 1);

/** The slot of one running call: given back while the call waits for its account. */
interface Holding {
  held: boolean;
  /** The call has ended: a late wait must not take a slot again. */
  closed: boolean;
  reacquiring?: Promise<void>;
}

/** See the module comment. */
export class PlatformSlots {
  #inUse = 0;
  readonly #queue = new FairQueue<Waiter>({ costs: [1, 2], streak: SLOT_STREAK });

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`cannot size platform slots: ${String(size)} is not an integer >= 1`);
  }

  /** Slots held now (tests, metrics). */
  get inUse(): number {
    return this.#inUse;
  }

  /** Calls waiting for a slot (tests, metrics). */
  get waiting(): number {
    return this.#queue.size;
  }

  /**
   * Runs `fn` while holding a slot, in fair shares between `tenant`s (default: the running
   * pass's namespace). Rejects without running `fn` when `signal` aborts while waiting. Inside
   * `fn`, a wait for the call's own account (pass-context.ts `waitOutside`) gives the slot back.
   */
  async run<T>(
    priority: RequestPriority,
    fn: () => Promise<T>,
    signal?: AbortSignal,
    tenant: string = currentTenant() ?? '',
  ): Promise<T> {
    await this.#acquire(priority, tenant, signal, false);
    const holding: Holding = { held: true, closed: false };
    // An enclosing layer's capacity (the pass's own slot) is given back during the wait too.
    const outer = currentWaitOutside();
    try {
      return await runWithinPass(
        {
          waitOutside: (wait) =>
            this.#waitOutside(holding, priority, tenant, outer ? () => outer(wait) : wait),
        },
        fn,
      );
    } finally {
      holding.closed = true;
      if (holding.held) {
        holding.held = false;
        this.#release();
      }
    }
  }

  /** Gives the slot back for `wait`, then waits for one again (front of its lane). */
  async #waitOutside<T>(
    holding: Holding,
    priority: RequestPriority,
    tenant: string,
    wait: () => Promise<T>,
  ): Promise<T> {
    if (holding.closed) return wait();
    if (holding.held) {
      holding.held = false;
      this.#release();
    }
    try {
      return await wait();
    } finally {
      if (!holding.closed && !holding.held) {
        holding.reacquiring ??= this.#acquire(priority, tenant, undefined, true).then(() => {
          holding.reacquiring = undefined;
          // The call ended meanwhile (a parallel branch failed): the slot goes straight back.
          if (holding.closed) this.#release();
          else holding.held = true;
        });
        await holding.reacquiring;
      }
    }
  }

  #acquire(
    priority: RequestPriority,
    tenant: string,
    signal: AbortSignal | undefined,
    front: boolean,
  ): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.#inUse < this.size && this.#queue.size === 0) {
      this.#inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#queue.delete(waiter, tenant, rank(priority));
        reject(abortError());
      };
      const waiter: Waiter = {
        // The slot is counted by release() before grant runs (handed over, never freed).
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter, tenant, rank(priority), front);
    });
  }

  #release(): void {
    const next = this.#queue.shift();
    if (next) {
      next.item.grant();
      return;
    }
    this.#inUse--;
  }
}

function abortError(): Error {
  const err = new Error('cannot wait for a platform slot: the operator is shutting down');
  err.name = 'AbortError';
  return err;
}

/**
 * `client` whose calls each hold one of `slots` for their duration (except while waiting for
 * their own account), at the priority the running pass was taken with (`priorityOf`, read per
 * call) and in the share of the pass's tenant.
 */
export function slotClient(
  client: ExternalClient,
  slots: PlatformSlots,
  priorityOf: () => RequestPriority,
): ExternalClient {
  return wrapClient(client, (_operation, ctx, call) => slots.run(priorityOf(), call, ctx.signal));
}
