/**
 * Platform-call slots of one controller: at most `--workers` ExternalClient calls (observe,
 * create, update, delete) of one kind are on the platform at a time, while up to
 * `--max-concurrent-reconciles` passes run. A pass holds a slot only for its platform calls,
 * not for its Kubernetes round trips (the create-pending marker before a create, the status
 * write after it), so those overlap with other passes' platform calls instead of idling a
 * worker: with 8 workers and a platform answering in L, creates approach 8 ÷ L per second
 * whatever the apiserver's write latency (docs/runtime.md, Workers and platform slots).
 *
 * A slot freed goes to a waiting `high` pass first (a change to an existing object, a
 * deletion; request-priority.ts), then in arrival order. Pure Node, no CDN or Kubernetes code.
 */
import type { RequestPriority } from './request-priority.js';
import type { ExternalClient } from './types.js';
import { wrapClient } from './wrap-client.js';

interface Waiter {
  grant(): void;
}

/** See the module comment. */
export class PlatformSlots {
  #inUse = 0;
  readonly #high: Waiter[] = [];
  readonly #low: Waiter[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`cannot size platform slots: ${String(size)} is not an integer >= 1`);
  }

  /** Slots held now (tests, metrics). */
  get inUse(): number {
    return this.#inUse;
  }

  /** Passes waiting for a slot (tests, metrics). */
  get waiting(): number {
    return this.#high.length + this.#low.length;
  }

  /**
   * Runs `fn` while holding a slot. Waits for one (high before low); rejects without running
   * `fn` when `signal` aborts while waiting.
   */
  async run<T>(priority: RequestPriority, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(priority, signal);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(priority: RequestPriority, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.#inUse < this.size && this.waiting === 0) {
      this.#inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const queue = priority === 'high' ? this.#high : this.#low;
      const onAbort = (): void => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
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
      queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.#high.shift() ?? this.#low.shift();
    if (next) next.grant();
    else this.#inUse--;
  }
}

function abortError(): Error {
  const err = new Error('cannot wait for a platform slot: the operator is shutting down');
  err.name = 'AbortError';
  return err;
}

/**
 * `client` whose calls each hold one of `slots` for their duration, at the priority the
 * running pass was taken with (`priorityOf`, read per call).
 */
export function slotClient(
  client: ExternalClient,
  slots: PlatformSlots,
  priorityOf: () => RequestPriority,
): ExternalClient {
  return wrapClient(client, (_operation, ctx, call) => slots.run(priorityOf(), call, ctx.signal));
}
