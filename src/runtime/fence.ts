/**
 * Leader fencing for platform writes. A replica that lost its lease (SIGSTOP, GC pause,
 * partition) may still have a pass in flight when it resumes; before any create, update or
 * delete reaches the platform the fence is asked again, so a deposed leader never writes
 * after its renew deadline, even before its timers have run.
 */
import type { ExternalClient } from './types.js';

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
  const check = (operation: string): void => {
    if (!mayWrite()) throw new FencedError(operation);
  };
  return {
    // Identity and connect-time claims must survive the wrapping (the claim index reads them).
    ...(client.account !== undefined ? { account: client.account } : {}),
    ...(client.claims !== undefined ? { claims: client.claims } : {}),
    observe: (obj, ctx) => client.observe(obj, ctx),
    create: async (obj, ctx) => {
      check('create');
      return client.create(obj, ctx);
    },
    update: async (obj, obs, ctx) => {
      check('update');
      return client.update(obj, obs, ctx);
    },
    delete: async (obj, ctx) => {
      check('delete');
      return client.delete(obj, ctx);
    },
  };
}
