/**
 * Where the client gets its API key. The key is fetched per request so that a rotated Secret
 * takes effect without rebuilding the client; it is never stored on an inspectable property.
 */
import { createHash, hkdfSync } from 'node:crypto';

/** Supplies the account's API key (the value of the `AccessKey` header). */
export interface CredentialProvider {
  getApiKey(): string | Promise<string>;
}

/** Wraps a plain key in a provider; the key lives only in a closure (not shown by inspect). */
export function toCredentialProvider(credentials: CredentialProvider | string): CredentialProvider {
  if (typeof credentials !== 'string') return credentials;
  const key = credentials;
  return { getApiKey: () => key };
}

/**
 * A stable, non-reversible account identifier derived from the API key: the first 16 hex
 * digits of its SHA-256. Used to share rate limiters between clients of one account and in
 * logs; it never reveals the key.
 */
export function accountIdFor(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16);
}

/**
 * The key that signs the operator's create-pending markers for this account: HKDF-SHA256 of
 * the API key with a fixed, purpose-bound salt and info. Not reversible to the key; whoever
 * can compute it holds the API key already. A rotated API key gives a new marker key.
 */
export function markerKeyFor(apiKey: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', apiKey, 'cdn-operator', 'create-pending-marker/v1', 32));
}
