/**
 * Gives an external client the key that signs its create-pending markers (see
 * src/runtime/create-guard.ts), derived from the account's API key.
 */
import { markerKeyFor } from '../../cdn/credentials.js';
import type { ExternalClient } from '../../runtime/types.js';

/**
 * Sets `markerKey` on `client` as a non-enumerable property (not shown by logs, inspect or
 * spreads) and returns the client. The key is derived per connect (one HKDF, microseconds),
 * so no copy outlives the client.
 */
export function withMarkerKey<C extends ExternalClient>(client: C, apiKey: string): C {
  Object.defineProperty(client, 'markerKey', { value: markerKeyFor(apiKey), enumerable: false });
  return client;
}
