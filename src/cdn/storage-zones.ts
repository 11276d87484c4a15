/**
 * Storage zone endpoints (`/storagezone...`). Every password the API returns is registered as
 * a secret with the transport, so no error text can echo it.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectArray, expectObject, isRecord } from './response.js';
import type { StorageZone, StorageZoneAddRequest, StorageZoneSettings } from './types.js';
import { checkId, checkNonEmpty } from './validate.js';
import { samePlatformName } from './platform-names.js';

const MAX_PAGES_FOLLOWED = 10000;

/** Registers the zone's passwords as secrets of the transport; answers the zone. */
export function registerPasswords(http: HttpTransport, zone: StorageZone): StorageZone {
  for (const secret of [zone.Password, zone.ReadOnlyPassword]) {
    if (typeof secret === 'string' && secret !== '') http.registerSecret(secret);
  }
  return zone;
}

/** Every storage zone, following pages (`search` filters by name). */
export async function listStorageZones(
  http: HttpTransport,
  query: { search?: string },
  opts?: CallOptions,
): Promise<StorageZone[]> {
  const all: StorageZone[] = [];
  for (let page = 1; page <= MAX_PAGES_FOLLOWED; page++) {
    const res = await http.request(
      {
        operation: 'listStorageZones',
        method: 'GET',
        path: '/storagezone',
        query: { page, perPage: 1000, search: query.search },
      },
      opts,
    );
    // A plain array is the unpaged form: it is the whole list.
    if (Array.isArray(res.body)) {
      all.push(...expectArray<StorageZone>(http, 'listStorageZones', res.body));
      break;
    }
    const body = expectObject<{ Items?: StorageZone[] | null; HasMoreItems?: boolean }>(
      http,
      'listStorageZones',
      res.body,
    );
    const items = body.Items ?? [];
    all.push(...items);
    if (body.HasMoreItems !== true || items.length === 0) break;
  }
  return all.map((z) => registerPasswords(http, z));
}

export async function getStorageZone(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<StorageZone> {
  checkId(http, 'getStorageZone', 'id', id);
  const res = await http.request(
    { operation: 'getStorageZone', method: 'GET', path: pathOf`/storagezone/${id}` },
    opts,
  );
  return registerPasswords(http, expectObject<StorageZone>(http, 'getStorageZone', res.body));
}

/**
 * `POST /storagezone`; retried only after a 429 (a lost answer may still have created the zone).
 */
export async function addStorageZone(
  http: HttpTransport,
  body: StorageZoneAddRequest,
  opts?: CallOptions,
): Promise<StorageZone> {
  checkNonEmpty(http, 'addStorageZone', 'Name', body.Name);
  checkNonEmpty(http, 'addStorageZone', 'Region', body.Region);
  const res = await http.request(
    { operation: 'addStorageZone', method: 'POST', path: '/storagezone', body },
    opts,
  );
  if (isRecord(res.body) && typeof res.body.Id === 'number') {
    return registerPasswords(http, res.body);
  }
  const found = (await listStorageZones(http, { search: body.Name }, opts)).find((z) =>
    samePlatformName('storageZone', z.Name, body.Name),
  );
  if (!found) {
    throw http.failure(
      'addStorageZone',
      'server',
      `created storage zone ${body.Name} but cannot find it by name`,
    );
  }
  return found;
}

/** `POST /storagezone/{id}`: only the properties present change; answers 204. */
export async function updateStorageZone(
  http: HttpTransport,
  id: number,
  settings: StorageZoneSettings,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'updateStorageZone', 'id', id);
  await http.request(
    {
      operation: 'updateStorageZone',
      method: 'POST',
      path: pathOf`/storagezone/${id}`,
      body: settings,
      idempotent: true,
    },
    opts,
  );
}

export async function deleteStorageZone(
  http: HttpTransport,
  id: number,
  deleteLinkedPullZones: boolean,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'deleteStorageZone', 'id', id);
  await http.request(
    {
      operation: 'deleteStorageZone',
      method: 'DELETE',
      path: pathOf`/storagezone/${id}`,
      query: { deleteLinkedPullZones },
    },
    opts,
  );
}

/** Replaces the zone's password (`read-write`) or read-only password. Retried only after a 429. */
export async function resetStorageZonePassword(
  http: HttpTransport,
  id: number,
  which: 'read-write' | 'read-only',
  opts?: CallOptions,
): Promise<void> {
  const operation = 'resetStorageZonePassword';
  checkId(http, operation, 'id', id);
  const spec =
    which === 'read-write'
      ? { path: pathOf`/storagezone/${id}/resetPassword` }
      : { path: '/storagezone/resetReadOnlyPassword', query: { id } };
  await http.request({ operation, method: 'POST', ...spec, idempotent: false }, opts);
}
