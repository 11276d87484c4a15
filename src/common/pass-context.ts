/**
 * The context of the platform requests a reconcile pass makes, carried with the pass's async
 * context so that no ExternalClient and not the reconciler have to pass it along:
 * - its priority: the controller runs a pass taken from the high lane (a change to an existing
 *   object, a deletion) as `high`, anything else (creates, drift checks, retries) as `low`;
 * - its tenant: the namespace of the object, the key of the fair shares at every place the
 *   pass's work waits (platform slots, the account limiter's queue; see fair-queue.ts);
 * - its write fence: the leader-election check (`mayWrite`), asked again by the CDN client right
 *   before each write request goes on the wire. The ExternalClient-level fence (fence.ts) runs
 *   once per create/update/delete; an update made of several calls that was frozen (SIGSTOP, a
 *   long GC pause) between two of them would otherwise send the rest after the lease is gone;
 * - how to wait for the pass's own account (`waitOutside`): a request held back by its
 *   account's limiter (no token, a Retry-After pause) or sleeping before a retry waits without
 *   holding shared capacity. The platform-slot wrapper gives its slot back for such a wait and
 *   takes one again before the request is sent, so a throttled account stalls only itself.
 *
 * Neutral code (src/common): no Kubernetes and no CDN imports; the runtime sets the context,
 * the CDN client reads it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Priority of a platform request in the per-account limiter and the platform slots. */
export type RequestPriority = 'high' | 'low';

/** Runs a wait for the pass's own account outside of any shared capacity the pass holds. */
export type WaitOutside = <T>(wait: () => Promise<T>) => Promise<T>;

/** See the module comment. */
export interface PassContext {
  priority: RequestPriority;
  /** Fairness key: the object's namespace. */
  tenant?: string;
  mayWrite?: () => boolean;
  waitOutside?: WaitOutside;
}

const store = new AsyncLocalStorage<PassContext>();

/** Runs `fn` as (part of) a pass with `pass` as its context. */
export function runInPass<T>(pass: PassContext, fn: () => T): T {
  return store.run(pass, fn);
}

/** Runs `fn` in the current pass's context with `extra` on top (e.g. a slot's waitOutside). */
export function runWithinPass<T>(extra: Partial<PassContext>, fn: () => T): T {
  const current = store.getStore();
  return store.run({ priority: 'low', ...current, ...extra }, fn);
}

/** The priority of the running pass, or undefined outside of one (CLI, tests). */
export function currentRequestPriority(): RequestPriority | undefined {
  return store.getStore()?.priority;
}

/** The tenant (namespace) of the running pass, or undefined outside of one. */
export function currentTenant(): string | undefined {
  return store.getStore()?.tenant;
}

/** False when the running pass belongs to a replica that may no longer write (deposed leader). */
export function mayWriteNow(): boolean {
  return store.getStore()?.mayWrite?.() ?? true;
}

/**
 * The running pass's way to wait for its own account, if any. A layer that holds capacity of
 * its own (a pass permit, then a platform slot inside it) wraps it: its hook gives its capacity
 * back, then calls this one, so every layer's capacity is free during the wait.
 */
export function currentWaitOutside(): WaitOutside | undefined {
  return store.getStore()?.waitOutside;
}

/**
 * Runs `wait` (a wait for the pass's own account) the way the running pass asks: without the
 * shared capacity it holds, when it holds any. Outside of a pass, just `wait()`.
 */
export function waitOutside<T>(wait: () => Promise<T>): Promise<T> {
  const outside = store.getStore()?.waitOutside;
  return outside ? outside(wait) : wait();
}
