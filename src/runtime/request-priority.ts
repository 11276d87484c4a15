/**
 * The context of the platform requests a reconcile pass makes, carried with the pass's async
 * context:
 * - its priority: the controller runs a pass taken from the high lane (a change to an existing
 *   object, a deletion) as `high`, anything else (creates, drift checks, retries) as `low`, and
 *   the CDN client's per-account limiter lets `high` requests go first;
 * - its write fence: the leader-election check (`mayWrite`), asked again by the CDN client right
 *   before each write request goes on the wire. The ExternalClient-level fence (fence.ts) runs
 *   once per create/update/delete; an update made of several calls that was frozen (SIGSTOP, a
 *   long GC pause) between two of them would otherwise send the rest after the lease is gone.
 * Passing both as context keeps every ExternalClient and the reconciler free of them. Pure
 * Node, no Kubernetes code.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Priority of a platform request in the per-account limiter. */
export type RequestPriority = 'high' | 'low';

interface PassContext {
  priority: RequestPriority;
  mayWrite: (() => boolean) | undefined;
}

const store = new AsyncLocalStorage<PassContext>();

/**
 * Runs `fn` with `priority` as the priority of every platform request it makes and, when
 * given, `mayWrite` as the fence every platform write request is checked against.
 */
export function runWithRequestPriority<T>(
  priority: RequestPriority,
  fn: () => T,
  mayWrite?: () => boolean,
): T {
  return store.run({ priority, mayWrite }, fn);
}

/** The priority of the running pass, or undefined outside of one (CLI, tests). */
export function currentRequestPriority(): RequestPriority | undefined {
  return store.getStore()?.priority;
}

/** False when the running pass belongs to a replica that may no longer write (deposed leader). */
export function mayWriteNow(): boolean {
  return store.getStore()?.mayWrite?.() ?? true;
}
