/**
 * One CdnClient per account (API key) and base URL, shared by the three controllers so that
 * they share the client's per-account token bucket and concurrency cap.
 */
import { CdnClient } from '../../cdn/client.js';
import { accountIdFor } from '../../cdn/credentials.js';
import type { ControllerDeps } from './deps.js';

const clients = new Map<string, CdnClient>();

/** Returns the shared client for this API key (keyed by a hash, never by the key itself). */
export function getCdnClient(deps: ControllerDeps, apiKey: string): CdnClient {
  const id = `${deps.apiBaseUrl}#${accountIdFor(apiKey)}`;
  let client = clients.get(id);
  if (!client) {
    client = new CdnClient({
      baseUrl: deps.apiBaseUrl,
      credentials: apiKey,
      logger: deps.log,
      ...(deps.onCdnRequest ? { hooks: { onRequest: deps.onCdnRequest } } : {}),
      ...(deps.cdnRateLimit ? { rateLimit: deps.cdnRateLimit } : {}),
    });
    clients.set(id, client);
  }
  return client;
}

/** Forgets every cached client (tests). */
export function resetCdnClients(): void {
  clients.clear();
}
