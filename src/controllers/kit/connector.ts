/**
 * The connector every kind shares: the object's credentials → the account's pooled client →
 * the account fingerprint (claims conflict only within one account) → the marker key that
 * signs create-pending markers and makes create tokens (runtime/create-guard.ts). A kind gives
 * only how to build its external client from the connection.
 */
import { accountIdFor, markerKeyFor } from '../../cdn/credentials.js';
import type { CdnClient } from '../../cdn/client.js';
import type { ConnectContext, ExternalClient, ManagedObject } from '../../runtime/types.js';
import { getCdnClient } from '../shared/client-pool.js';
import { resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';

/** What a kind builds its external client from. */
export interface Connection {
  client: CdnClient;
  /** Non-secret account fingerprint. */
  account: string;
  /**
   * The account's marker key (cdn/credentials.ts), derived from the API key: signs what only
   * the operator may make (create-pending markers, ACME challenge records). Absent where no
   * key is at hand (`cdnctl diff`'s planners get a client only).
   */
  markerKey?: Uint8Array;
}

/** Builds a kind's external client for one object. */
export type BuildExternal<T extends ManagedObject> = (
  conn: Connection,
  obj: T,
  ctx: ConnectContext,
) => ExternalClient<T> | Promise<ExternalClient<T>>;

/** The connection of `obj`'s account, the key and all; the key itself stays inside. */
async function connectWithKey(
  deps: ControllerDeps,
  obj: ManagedObject,
  ctx: ConnectContext,
): Promise<{ conn: Required<Connection>; apiKey: string }> {
  const apiKey = await resolveApiKey(obj, ctx, deps);
  const conn = {
    client: getCdnClient(deps, apiKey),
    account: accountIdFor(apiKey),
    markerKey: markerKeyFor(apiKey),
  };
  return { conn, apiKey };
}

/**
 * The connection of `obj`'s account (its `credentialsRef`, `accountRef` or the default
 * account), as every kind connects: for code outside the kinds that acts for an object, the
 * DNS-01 solver writing in a DnsZone's zone. Rejects as a kind's connect does (the account not
 * open to the namespace, a missing Secret), naming the object's references, never the key.
 */
export async function connectAccount(
  deps: ControllerDeps,
  obj: ManagedObject,
  ctx: ConnectContext,
): Promise<Required<Connection>> {
  return (await connectWithKey(deps, obj, ctx)).conn;
}

/** `ManagedKind.connect` of a kind whose client `build` makes (see the module comment). */
export function connector<T extends ManagedObject>(
  deps: ControllerDeps,
  build: BuildExternal<T>,
): (obj: T, ctx: ConnectContext) => Promise<ExternalClient<T>> {
  return async (obj, ctx) => {
    const { conn, apiKey } = await connectWithKey(deps, obj, ctx);
    return withMarkerKey(await build(conn, obj, ctx), apiKey);
  };
}
