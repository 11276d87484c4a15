/**
 * The priority of the platform requests a reconcile pass makes, carried with the pass's async
 * context: the controller runs a pass taken from the high lane (a change to an existing
 * object, a deletion) as `high`, anything else (creates, drift checks, retries) as `low`, and
 * the CDN client's per-account limiter lets `high` requests go first. Passing it as context
 * keeps every ExternalClient and the reconciler free of it. Pure Node, no Kubernetes code.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Priority of a platform request in the per-account limiter. */
export type RequestPriority = 'high' | 'low';

const store = new AsyncLocalStorage<RequestPriority>();

/** Runs `fn` with `priority` as the priority of every platform request it makes. */
export function runWithRequestPriority<T>(priority: RequestPriority, fn: () => T): T {
  return store.run(priority, fn);
}

/** The priority of the running pass, or undefined outside of one (CLI, tests). */
export function currentRequestPriority(): RequestPriority | undefined {
  return store.getStore();
}
