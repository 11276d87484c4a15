/**
 * The front proxy's configuration as the kube-apiserver publishes it for aggregated API servers:
 * the ConfigMap `kube-system/extension-apiserver-authentication`, keys
 * `requestheader-client-ca-file` (PEM), `requestheader-allowed-names`,
 * `requestheader-username-headers` and `requestheader-group-headers` (each a JSON array of
 * strings, as the apiserver writes them).
 */
import type { RequestHeaderAuth } from './webhook-server.js';

/** Where the apiserver publishes it. */
export const REQUEST_HEADER_CONFIG_MAP = {
  namespace: 'kube-system',
  name: 'extension-apiserver-authentication',
} as const;

/** A ConfigMap whose request-header keys cannot be read (the message names the key). */
export class RequestHeaderConfigError extends Error {}

function stringList(data: Record<string, string>, key: string): string[] {
  const raw = data[key];
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string'))
    throw new RequestHeaderConfigError(
      `cannot read ${key} of ${REQUEST_HEADER_CONFIG_MAP.namespace}/${REQUEST_HEADER_CONFIG_MAP.name}: expected a JSON array of strings, got ${JSON.stringify(raw.slice(0, 80))}`,
    );
  return parsed.filter((x: string) => x !== '');
}

/**
 * The request-header configuration in the ConfigMap's `data`, or undefined when the apiserver
 * has no front proxy (no client CA, or no username header: nobody could be named). Throws
 * {@link RequestHeaderConfigError} on a list that is not a JSON array of strings.
 */
export function parseRequestHeaderConfig(
  data: Record<string, string> | undefined,
): RequestHeaderAuth | undefined {
  if (!data) return undefined;
  const clientCa = data['requestheader-client-ca-file']?.trim() ?? '';
  const allowedNames = stringList(data, 'requestheader-allowed-names');
  const usernameHeaders = stringList(data, 'requestheader-username-headers');
  const groupHeaders = stringList(data, 'requestheader-group-headers');
  if (clientCa === '' || usernameHeaders.length === 0) return undefined;
  return { clientCa, allowedNames, usernameHeaders, groupHeaders };
}
