/**
 * Pull zone endpoints of the core API (`/pullzone`). Bodies use the PascalCase field names of
 * the official document (`Hostname`, `ForceSSL`, `BlockedIp`, `Certificate`, `CertificateKey`).
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import type {
  CertificateUpload,
  PrivateKeyUpdate,
  PullZone,
  PullZoneAddRequest,
  PullZoneSettings,
} from './types.js';
import { checkId, checkIntRange, checkNonEmpty } from './validate.js';
import { samePlatformName } from './platform-names.js';

/** Hostname operations: all take `{Hostname}` on `/pullzone/{id}/<operation>`. */
export type HostnameOperation =
  | 'addHostname'
  | 'removeHostname'
  | 'removeCertificate'
  | 'addAllowedReferrer'
  | 'removeAllowedReferrer'
  | 'addBlockedReferrer'
  | 'removeBlockedReferrer';

/** The official document sends these two as DELETE with a JSON body; the rest are POST. */
const DELETE_OPERATIONS = new Set<HostnameOperation>(['removeHostname', 'removeCertificate']);

const MAX_PAGE = 2147483647;
const MAX_PAGES_FOLLOWED = 10000;

interface PullZonePage {
  Items?: PullZone[] | null;
  HasMoreItems?: boolean;
}

export async function listPullZones(
  http: HttpTransport,
  query: { search?: string; page?: number; perPage?: number },
  opts?: CallOptions,
): Promise<PullZone[]> {
  checkIntRange(http, 'listPullZones', 'page', query.page, 1, MAX_PAGE);
  checkIntRange(http, 'listPullZones', 'perPage', query.perPage, 5, 1000);
  if (query.page !== undefined)
    return (await fetchPullZonePage(http, query, query.page, opts)).items;
  const all: PullZone[] = [];
  for (let page = 1; page <= MAX_PAGES_FOLLOWED; page++) {
    const { items, more } = await fetchPullZonePage(http, query, page, opts);
    all.push(...items);
    if (!more || items.length === 0) break;
  }
  return all;
}

/**
 * One page of `GET /pullzone`. With `page` >= 1 the API answers a paged envelope
 * (`Items`, `HasMoreItems`); a plain array (the `page=0` form) is accepted too and is final.
 */
async function fetchPullZonePage(
  http: HttpTransport,
  query: { search?: string; perPage?: number },
  page: number,
  opts?: CallOptions,
): Promise<{ items: PullZone[]; more: boolean }> {
  const res = await http.request(
    {
      operation: 'listPullZones',
      method: 'GET',
      path: '/pullzone',
      query: { page, perPage: query.perPage ?? 1000, search: query.search },
    },
    opts,
  );
  if (Array.isArray(res.body)) return { items: res.body as PullZone[], more: false };
  const body = expectObject<PullZonePage>(http, 'listPullZones', res.body);
  return { items: body.Items ?? [], more: body.HasMoreItems === true };
}

export async function getPullZone(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<PullZone> {
  checkId(http, 'getPullZone', 'id', id);
  const res = await http.request(
    { operation: 'getPullZone', method: 'GET', path: pathOf`/pullzone/${id}` },
    opts,
  );
  return expectObject<PullZone>(http, 'getPullZone', res.body);
}

/**
 * `POST /pullzone`. The document lists 201 without a body; the live API answers the new
 * record. When no record comes back, the zone is looked up by its (unique) name instead.
 */
export async function addPullZone(
  http: HttpTransport,
  body: PullZoneAddRequest,
  opts?: CallOptions,
): Promise<PullZone> {
  checkNonEmpty(http, 'addPullZone', 'Name', body.Name);
  const res = await http.request(
    { operation: 'addPullZone', method: 'POST', path: '/pullzone', body },
    opts,
  );
  if (isRecord(res.body) && typeof res.body.Id === 'number') return res.body;
  const found = (await listPullZones(http, { search: body.Name }, opts)).find((z) =>
    samePlatformName('pullZone', z.Name, body.Name),
  );
  if (!found)
    throw http.failure(
      'addPullZone',
      'server',
      `created pull zone ${body.Name} but cannot find it by name`,
    );
  return found;
}

export async function updatePullZone(
  http: HttpTransport,
  id: number,
  settings: PullZoneSettings,
  opts?: CallOptions,
): Promise<PullZone> {
  checkId(http, 'updatePullZone', 'id', id);
  const res = await http.request(
    { operation: 'updatePullZone', method: 'POST', path: pathOf`/pullzone/${id}`, body: settings },
    opts,
  );
  return expectObject<PullZone>(http, 'updatePullZone', res.body);
}

export async function deletePullZone(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'deletePullZone', 'id', id);
  await http.request(
    { operation: 'deletePullZone', method: 'DELETE', path: pathOf`/pullzone/${id}` },
    opts,
  );
}

/** The seven `{Hostname}` operations on a pull zone. */
export async function hostnameCall(
  http: HttpTransport,
  operation: HostnameOperation,
  id: number,
  hostname: string,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, operation, 'id', id);
  checkNonEmpty(http, operation, 'Hostname', hostname);
  const method = DELETE_OPERATIONS.has(operation) ? 'DELETE' : 'POST';
  await http.request(
    {
      operation,
      method,
      path: `${pathOf`/pullzone/${id}`}/${operation}`,
      body: { Hostname: hostname },
    },
    opts,
  );
}

export async function blockedIpCall(
  http: HttpTransport,
  operation: 'addBlockedIp' | 'removeBlockedIp',
  id: number,
  ip: string,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, operation, 'id', id);
  checkNonEmpty(http, operation, 'BlockedIp', ip);
  await http.request(
    {
      operation,
      method: 'POST',
      path: `${pathOf`/pullzone/${id}`}/${operation}`,
      body: { BlockedIp: ip },
    },
    opts,
  );
}

export async function setForceSSL(
  http: HttpTransport,
  id: number,
  hostname: string,
  forceSSL: boolean,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'setForceSSL', 'id', id);
  checkNonEmpty(http, 'setForceSSL', 'Hostname', hostname);
  await http.request(
    {
      operation: 'setForceSSL',
      method: 'POST',
      path: pathOf`/pullzone/${id}/setForceSSL`,
      body: { Hostname: hostname, ForceSSL: forceSSL },
    },
    opts,
  );
}

/**
 * `GET /pullzone/loadFreeCertificate?hostname=`. A GET with a side effect (it issues a
 * certificate), so it is retried only after a 429 (refused before any work).
 */
export async function loadFreeCertificate(
  http: HttpTransport,
  hostname: string,
  opts?: CallOptions,
): Promise<void> {
  checkNonEmpty(http, 'loadFreeCertificate', 'hostname', hostname);
  await http.request(
    {
      operation: 'loadFreeCertificate',
      method: 'GET',
      path: '/pullzone/loadFreeCertificate',
      query: { hostname },
      idempotent: false,
    },
    opts,
  );
}

export async function addCertificate(
  http: HttpTransport,
  id: number,
  cert: CertificateUpload,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'addCertificate', 'id', id);
  checkNonEmpty(http, 'addCertificate', 'Hostname', cert.hostname);
  checkNonEmpty(http, 'addCertificate', 'Certificate', cert.certificate);
  checkNonEmpty(http, 'addCertificate', 'CertificateKey', cert.certificateKey);
  // The private key is a secret: make sure no error text can echo it.
  http.registerSecret(cert.certificateKey);
  await http.request(
    {
      operation: 'addCertificate',
      method: 'POST',
      path: pathOf`/pullzone/${id}/addCertificate`,
      body: {
        Hostname: cert.hostname,
        Certificate: cert.certificate,
        CertificateKey: cert.certificateKey,
      },
    },
    opts,
  );
}

export async function updatePrivateKeyType(
  http: HttpTransport,
  id: number,
  body: PrivateKeyUpdate,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'updatePrivateKeyType', 'id', id);
  checkNonEmpty(http, 'updatePrivateKeyType', 'Hostname', body.Hostname);
  await http.request(
    {
      operation: 'updatePrivateKeyType',
      method: 'POST',
      path: pathOf`/pullzone/${id}/updatePrivateKeyType`,
      body,
    },
    opts,
  );
}
