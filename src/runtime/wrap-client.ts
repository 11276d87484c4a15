/**
 * One way to put something around every call of an ExternalClient (the leader fence, the
 * platform slots): the wrapper keeps the client's identity and connect-time claims, which the
 * claim index reads, and runs each of the four calls through `around`.
 */
import type { ExternalClient, ExternalContext } from './types.js';

/** The four calls of an ExternalClient. */
export type ExternalOperation = 'observe' | 'create' | 'update' | 'delete';

/** Runs `call` (one ExternalClient call with its context) in whatever the wrapper adds. */
export type AroundCall = <T>(
  operation: ExternalOperation,
  ctx: ExternalContext,
  call: () => Promise<T>,
) => Promise<T>;

/** `client` with every call run through `around`. */
export function wrapClient(client: ExternalClient, around: AroundCall): ExternalClient {
  return {
    ...(client.account !== undefined ? { account: client.account } : {}),
    ...(client.claims !== undefined ? { claims: client.claims } : {}),
    observe: (obj, ctx) => around('observe', ctx, () => client.observe(obj, ctx)),
    create: (obj, ctx) => around('create', ctx, () => client.create(obj, ctx)),
    update: (obj, obs, ctx) => around('update', ctx, () => client.update(obj, obs, ctx)),
    delete: (obj, ctx, obs) => around('delete', ctx, () => client.delete(obj, ctx, obs)),
  };
}
