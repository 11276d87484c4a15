/**
 * One CdnClient per account (API key) and base URL, shared by the three controllers so that
 * they share the client's per-account token bucket and concurrency cap.
 */
import { CdnClient } from '../../cdn/client.js';
import { accountIdFor } from '../../cdn/credentials.js';
import type { ControllerDeps } from './deps.js';

interface PooledClient {
  client: CdnClient;
  lastUsed: number;
}

const clients = new Map<string, PooledClient>();
/**
 * A client unused this long is closed and dropped: a rotated key or a deleted account must not
 * keep a client, its key and its keep-alive sockets for the life of the process.
 */
export const CLIENT_IDLE_MS = 3_600_000;
let lastPrune = 0;

/** Closes and drops clients idle for {@link CLIENT_IDLE_MS}; at most once a minute unless forced. */
export function pruneIdleCdnClients(now = Date.now(), force = false): void {
  if (!force && now - lastPrune < 60_000) return;
  lastPrune = now;
  for (const [id, entry] of clients) {
    if (now - entry.lastUsed <= CLIENT_IDLE_MS) continue;
    clients.delete(id);
    entry.client.close();
  }
}

/** Cached clients (tests, soak). */
export function cdnClientCount(): number {
  return clients.size;
}

/** Returns the shared client for this API key (keyed by a hash, never by the key itself). */
export function getCdnClient(deps: ControllerDeps, apiKey: string, now = Date.now()): CdnClient {
  pruneIdleCdnClients(now);
  const id = `${deps.apiBaseUrl}#${accountIdFor(apiKey)}`;
  const entry = clients.get(id);
  if (entry) {
    entry.lastUsed = now;
    return entry.client;
  }
  const client = new CdnClient({
    baseUrl: deps.apiBaseUrl,
    credentials: apiKey,
    logger: deps.log,
    ...(deps.onCdnRequest ? { hooks: { onRequest: deps.onCdnRequest } } : {}),
    ...(deps.cdnRateLimit ? { rateLimit: deps.cdnRateLimit } : {}),
  });
  clients.set(id, { client, lastUsed: now });
  return client;
}

/** Forgets every cached client (tests). */
export function resetCdnClients(): void {
  clients.clear();
  lastPrune = 0;
}
