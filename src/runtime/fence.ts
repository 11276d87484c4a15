/**
 * Leader fencing for platform writes. A replica that lost its lease (SIGSTOP, GC pause,
 * partition) may still have a pass in flight when it resumes; before any create, update or
 * delete reaches the platform the fence is asked again, so a deposed leader never writes
 * after its renew deadline, even before its timers have run.
 */
import type { ExternalClient } from './types.js';
import { wrapClient } from './wrap-client.js';

/** Thrown instead of a platform write once leadership is gone. */
export class FencedError extends Error {
  constructor(operation: string) {
    super(`cannot ${operation} the external resource: this replica is no longer the leader`);
    this.name = 'FencedError';
  }
}

/** `client` whose writes first check `mayWrite`; reads pass through. */
export function fenceClient(client: ExternalClient, mayWrite?: () => boolean): ExternalClient {
  if (!mayWrite) return client;
  return wrapClient(client, async (operation, _ctx, call) => {
    if (operation !== 'observe' && !mayWrite()) throw new FencedError(operation);
    return call();
  });
}
