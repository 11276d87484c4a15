/**
 * Container registries of Magic Containers (`/mc/registries`). The password of a request is
 * registered as a secret with the transport before it is sent, so no error text can echo it;
 * reads never contain it, and the pieces of it the platform returns (`firstPasswordSymbols`,
 * `lastPasswordSymbols`) are dropped before a read reaches the caller. Writes answer a save
 * result whose `status` other than `saved` becomes a CdnApiError; writes are retried only
 * after a 429.
 */
import type { CdnErrorKind } from './errors.js';
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import { registerSentSecret } from './secret-forms.js';
import type { ContainerRegistry, ContainerRegistryRequest } from './security-types.js';
import { checkId, checkNonEmpty } from './validate.js';

/** What a save or remove `status` other than success means to a caller. */
const STATUS_KINDS: Record<string, CdnErrorKind> = {
  secretsValidationFailed: 'invalid',
  invalidInput: 'invalid',
  notFound: 'notFound',
  inUse: 'conflict',
  unknownErrorOccured: 'server',
};

/** A registry as the caller sees it: without the password pieces. */
function withoutPasswordPieces(raw: Record<string, unknown>): ContainerRegistry {
  const { firstPasswordSymbols: _first, lastPasswordSymbols: _last, ...rest } = raw;
  return rest;
}

function registerPassword(http: HttpTransport, body: ContainerRegistryRequest): void {
  registerSentSecret(http, body.passwordCredentials?.password);
}

function checkRequest(
  http: HttpTransport,
  operation: string,
  body: ContainerRegistryRequest,
): void {
  checkNonEmpty(http, operation, 'displayName', body.displayName);
  const length = [...body.displayName].length;
  if (length > 50) {
    const why = `displayName must be at most 50 characters, got ${length}`;
    throw http.failure(operation, 'invalid', why, { field: 'displayName' });
  }
}

/** Throws what a save or remove result reports when it is not a success. */
function checkStatus(
  http: HttpTransport,
  operation: string,
  result: Record<string, unknown>,
  success: string,
): void {
  const status = typeof result.status === 'string' ? result.status : success;
  if (status === success) return;
  const apps = Array.isArray(result.applications) ? ` (${result.applications.join(', ')})` : '';
  const detail = typeof result.error === 'string' && result.error ? `: ${result.error}` : '';
  throw http.failure(operation, STATUS_KINDS[status] ?? 'server', `${status}${apps}${detail}`, {
    errorKey: status,
  });
}

/** Every registry of the account, the platform's public ones included. */
export async function listRegistries(
  http: HttpTransport,
  opts?: CallOptions,
): Promise<ContainerRegistry[]> {
  const operation = 'listRegistries';
  const res = await http.request({ operation, method: 'GET', path: '/mc/registries' }, opts);
  const body = expectObject<{ items?: unknown }>(http, operation, res.body);
  const items = Array.isArray(body.items) ? body.items : [];
  return items.filter(isRecord).map(withoutPasswordPieces);
}

/** One registry (`notFound` when it does not exist). */
export async function getRegistry(
  http: HttpTransport,
  registryId: number,
  opts?: CallOptions,
): Promise<ContainerRegistry> {
  const operation = 'getRegistry';
  checkId(http, operation, 'registryId', registryId);
  const res = await http.request(
    { operation, method: 'GET', path: pathOf`/mc/registries/${registryId}` },
    opts,
  );
  return withoutPasswordPieces(expectObject(http, operation, res.body));
}

/** Adds a registry; returns its id. */
export async function addRegistry(
  http: HttpTransport,
  body: ContainerRegistryRequest,
  opts?: CallOptions,
): Promise<number> {
  const operation = 'addRegistry';
  registerPassword(http, body);
  checkRequest(http, operation, body);
  const res = await http.request({ operation, method: 'POST', path: '/mc/registries', body }, opts);
  const result = expectObject<Record<string, unknown>>(http, operation, res.body);
  checkStatus(http, operation, result, 'saved');
  if (typeof result.id !== 'number')
    throw http.failure(operation, 'server', 'unexpected answer: no registry id');
  return result.id;
}

/**
 * `PUT`: replaces the name and type; credentials are replaced when given (a rotation) and kept
 * when left out.
 */
export async function replaceRegistry(
  http: HttpTransport,
  registryId: number,
  body: ContainerRegistryRequest,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'replaceRegistry';
  registerPassword(http, body);
  checkId(http, operation, 'registryId', registryId);
  checkRequest(http, operation, body);
  const res = await http.request(
    { operation, method: 'PUT', path: pathOf`/mc/registries/${registryId}`, body },
    opts,
  );
  checkStatus(http, operation, expectObject(http, operation, res.body), 'saved');
}

/** Deletes a registry: `notFound` when it is gone, `conflict` while applications use it. */
export async function deleteRegistry(
  http: HttpTransport,
  registryId: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteRegistry';
  checkId(http, operation, 'registryId', registryId);
  const res = await http.request(
    { operation, method: 'DELETE', path: pathOf`/mc/registries/${registryId}` },
    opts,
  );
  checkStatus(http, operation, expectObject(http, operation, res.body), 'removed');
}
