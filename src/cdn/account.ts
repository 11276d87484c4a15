/** Core endpoints outside pull zones: video library referrers, storage zone names, API keys. */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject } from './response.js';
import type { ApiKeyList, StorageZoneAvailability } from './types.js';
import { checkId, checkIntRange, checkNonEmpty } from './validate.js';

export async function addVideoLibraryBlockedReferrer(
  http: HttpTransport,
  id: number,
  hostname: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'addVideoLibraryBlockedReferrer';
  checkId(http, operation, 'id', id);
  checkNonEmpty(http, operation, 'Hostname', hostname);
  await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/videolibrary/${id}/addBlockedReferrer`,
      body: { Hostname: hostname },
    },
    opts,
  );
}

/**
 * `POST {path}` with `{Name}`: whether the account can take the name (a storage zone name, a
 * DNS zone's domain). The answer's shape is not documented; the live API answers
 * `{Available: boolean}`, and a camelCase `available` is accepted too. A pure check, so it is
 * retried like a read.
 */
export async function checkNameAvailability(
  http: HttpTransport,
  call: { operation: string; path: string },
  name: string,
  opts?: CallOptions,
): Promise<boolean> {
  const { operation, path } = call;
  checkNonEmpty(http, operation, 'Name', name);
  const res = await http.request(
    { operation, method: 'POST', path, body: { Name: name }, idempotent: true },
    opts,
  );
  const body = expectObject<{ Available?: unknown; available?: unknown }>(
    http,
    operation,
    res.body,
  );
  const available = body.Available ?? body.available;
  if (typeof available !== 'boolean') {
    throw http.failure(operation, 'server', 'unexpected answer: no Available flag');
  }
  return available;
}

/** `POST /storagezone/checkavailability`: whether the storage zone name is free. */
export async function checkStorageZoneAvailability(
  http: HttpTransport,
  name: string,
  opts?: CallOptions,
): Promise<StorageZoneAvailability> {
  const call = {
    operation: 'checkStorageZoneAvailability',
    path: '/storagezone/checkavailability',
  };
  return { available: await checkNameAvailability(http, call, name, opts) };
}

/**
 * `GET /apikey?page=&perPage=` (names from the official document; page 1..2147483647,
 * perPage 5..1000). Every returned `Key` is registered as a secret for error scrubbing.
 */
export async function listApiKeys(
  http: HttpTransport,
  query: { page?: number; perPage?: number },
  opts?: CallOptions,
): Promise<ApiKeyList> {
  const operation = 'listApiKeys';
  checkIntRange(http, operation, 'page', query.page, 1, 2147483647);
  checkIntRange(http, operation, 'perPage', query.perPage, 5, 1000);
  const res = await http.request(
    {
      operation,
      method: 'GET',
      path: '/apikey',
      query: { page: query.page, perPage: query.perPage },
    },
    opts,
  );
  const list = expectObject<ApiKeyList>(http, operation, res.body);
  for (const item of list.Items ?? []) http.registerSecret(item.Key);
  return list;
}
