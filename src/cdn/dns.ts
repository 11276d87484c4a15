/**
 * DNS endpoints of the core API (`/dnszone...`) and the external-DNS certificate routes. Bodies
 * and parameters are the official document's (PascalCase members, integer enums, `page` 1..
 * 2147483647 and `perPage` 5..1000 checked before sending). Retries follow the client's rule:
 * reads, and writes that set an absolute state (zone settings, a record's fields, DNSSEC on or
 * off), are retried on transient failures; writes that create something (zone, record, import,
 * scan, certificate) only after a 429.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import type {
  DnsRecord,
  DnsRecordAddRequest,
  DnsRecordScanJob,
  DnsRecordScanTrigger,
  DnsRecordType,
  DnsRecordUpdate,
  DnsScanTarget,
  DnsSecDsRecord,
  DnsZone,
  DnsZoneAddRequest,
  DnsZoneAvailability,
  DnsZoneImportResult,
  DnsZoneSettings,
  DnsZoneStatistics,
  ExternalDnsChallenge,
} from './dns-types.js';
import { checkId, checkIntRange, checkNonEmpty, isoDate } from './validate.js';
import { fetchPages, type Paging } from './core-pages.js';
import { checkNameAvailability } from './account.js';
import { DNS_RECORD_TYPE_NAMES } from './dns-record-types.js';

export { DNS_RECORD_TYPE_NAMES };

/** Paging of a list call: one page when `page` is given, else every page. */
export type DnsPaging = Paging;

// ---- zones ----

/** Zones of the account (`search` filters by domain); every page unless `page` is given. */
export async function listDnsZones(
  http: HttpTransport,
  query: { search?: string } & DnsPaging,
  opts?: CallOptions,
): Promise<DnsZone[]> {
  return fetchPages<DnsZone>(
    http,
    { operation: 'listDnsZones', path: '/dnszone', query: { search: query.search } },
    query,
    opts,
  );
}

export async function getDnsZone(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<DnsZone> {
  checkId(http, 'getDnsZone', 'id', id);
  const res = await http.request(
    { operation: 'getDnsZone', method: 'GET', path: pathOf`/dnszone/${id}` },
    opts,
  );
  return expectObject<DnsZone>(http, 'getDnsZone', res.body);
}

/**
 * `POST /dnszone`; retried only after a 429 (a lost answer may still have created the zone).
 * The document shows no body for the 201: without one, the zone is looked up by its domain.
 */
export async function addDnsZone(
  http: HttpTransport,
  body: DnsZoneAddRequest,
  opts?: CallOptions,
): Promise<DnsZone> {
  checkNonEmpty(http, 'addDnsZone', 'Domain', body.Domain);
  const res = await http.request(
    { operation: 'addDnsZone', method: 'POST', path: '/dnszone', body },
    opts,
  );
  if (isRecord(res.body) && typeof res.body.Id === 'number') return res.body;
  const wanted = body.Domain.toLowerCase();
  const found = (await listDnsZones(http, { search: body.Domain }, opts)).find(
    (z) => z.Domain?.toLowerCase() === wanted,
  );
  if (!found) {
    throw http.failure(
      'addDnsZone',
      'server',
      `created DNS zone ${body.Domain} but cannot find it`,
    );
  }
  return found;
}

/** `POST /dnszone/{id}`: only the members present change; answers the zone. */
export async function updateDnsZone(
  http: HttpTransport,
  id: number,
  settings: DnsZoneSettings,
  opts?: CallOptions,
): Promise<DnsZone> {
  checkId(http, 'updateDnsZone', 'id', id);
  const res = await http.request(
    {
      operation: 'updateDnsZone',
      method: 'POST',
      path: pathOf`/dnszone/${id}`,
      body: settings,
      idempotent: true,
    },
    opts,
  );
  return expectObject<DnsZone>(http, 'updateDnsZone', res.body);
}

export async function deleteDnsZone(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'deleteDnsZone', 'id', id);
  await http.request(
    { operation: 'deleteDnsZone', method: 'DELETE', path: pathOf`/dnszone/${id}` },
    opts,
  );
}

/** `POST /dnszone/checkavailability` `{Name}`: whether the account can add the domain. */
export async function checkDnsZoneAvailability(
  http: HttpTransport,
  domain: string,
  opts?: CallOptions,
): Promise<DnsZoneAvailability> {
  const call = { operation: 'checkDnsZoneAvailability', path: '/dnszone/checkavailability' };
  return { available: await checkNameAvailability(http, call, domain, opts) };
}

// ---- records ----

/** Records of a zone (`type` and `search` filter); every page unless `page` is given. */
export async function listDnsRecords(
  http: HttpTransport,
  zoneId: number,
  query: { type?: DnsRecordType; search?: string } & DnsPaging,
  opts?: CallOptions,
): Promise<DnsRecord[]> {
  checkId(http, 'listDnsRecords', 'zoneId', zoneId);
  checkIntRange(http, 'listDnsRecords', 'type', query.type, 0, DNS_RECORD_TYPE_NAMES.length - 1);
  return fetchPages<DnsRecord>(
    http,
    {
      operation: 'listDnsRecords',
      path: pathOf`/dnszone/${zoneId}/records`,
      query: { type: query.type, search: query.search },
    },
    query,
    opts,
  );
}

/** `PUT /dnszone/{zoneId}/records`; retried only after a 429 (it creates a record). */
export async function addDnsRecord(
  http: HttpTransport,
  zoneId: number,
  record: DnsRecordAddRequest,
  opts?: CallOptions,
): Promise<DnsRecord> {
  checkId(http, 'addDnsRecord', 'zoneId', zoneId);
  const res = await http.request(
    {
      operation: 'addDnsRecord',
      method: 'PUT',
      path: pathOf`/dnszone/${zoneId}/records`,
      body: record,
      idempotent: false,
    },
    opts,
  );
  return expectObject<DnsRecord>(http, 'addDnsRecord', res.body);
}

/** `POST /dnszone/{zoneId}/records/{id}` with `Id` set from the path; answers 204. */
export async function updateDnsRecord(
  http: HttpTransport,
  zoneId: number,
  recordId: number,
  record: DnsRecordUpdate,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'updateDnsRecord', 'zoneId', zoneId);
  checkId(http, 'updateDnsRecord', 'recordId', recordId);
  await http.request(
    {
      operation: 'updateDnsRecord',
      method: 'POST',
      path: pathOf`/dnszone/${zoneId}/records/${recordId}`,
      body: { ...record, Id: recordId },
      idempotent: true,
    },
    opts,
  );
}

export async function deleteDnsRecord(
  http: HttpTransport,
  zoneId: number,
  recordId: number,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'deleteDnsRecord', 'zoneId', zoneId);
  checkId(http, 'deleteDnsRecord', 'recordId', recordId);
  await http.request(
    {
      operation: 'deleteDnsRecord',
      method: 'DELETE',
      path: pathOf`/dnszone/${zoneId}/records/${recordId}`,
    },
    opts,
  );
}

// ---- DNSSEC, import/export, statistics, certificates, scans ----

/** Turns DNSSEC on (`POST`) or off (`DELETE`); both answer the DS record state. */
export async function setDnsSec(
  http: HttpTransport,
  zoneId: number,
  enabled: boolean,
  opts?: CallOptions,
): Promise<DnsSecDsRecord> {
  const operation = enabled ? 'enableDnsSec' : 'disableDnsSec';
  checkId(http, operation, 'zoneId', zoneId);
  const res = await http.request(
    {
      operation,
      method: enabled ? 'POST' : 'DELETE',
      path: pathOf`/dnszone/${zoneId}/dnssec`,
      idempotent: true,
    },
    opts,
  );
  return expectObject<DnsSecDsRecord>(http, operation, res.body);
}

/** The zone as a master (BIND) file. */
export async function exportDnsZone(
  http: HttpTransport,
  zoneId: number,
  opts?: CallOptions,
): Promise<string> {
  checkId(http, 'exportDnsZone', 'zoneId', zoneId);
  const res = await http.request(
    {
      operation: 'exportDnsZone',
      method: 'GET',
      path: pathOf`/dnszone/${zoneId}/export`,
      accept: 'application/octet-stream',
    },
    opts,
  );
  if (res.body === undefined) return '';
  if (typeof res.body === 'string') return res.body;
  throw http.failure('exportDnsZone', 'server', 'unexpected answer: expected a zone file');
}

/**
 * Imports the records of a master (BIND) file. The document declares no request body: the
 * file is sent as the raw body (`text/plain`). Retried only after a 429.
 */
export async function importDnsRecords(
  http: HttpTransport,
  zoneId: number,
  zoneFile: string,
  opts?: CallOptions,
): Promise<DnsZoneImportResult> {
  checkId(http, 'importDnsRecords', 'zoneId', zoneId);
  checkNonEmpty(http, 'importDnsRecords', 'zoneFile', zoneFile);
  const res = await http.request(
    {
      operation: 'importDnsRecords',
      method: 'POST',
      path: pathOf`/dnszone/${zoneId}/import`,
      rawBody: zoneFile,
      contentType: 'text/plain; charset=utf-8',
    },
    opts,
  );
  return expectObject<DnsZoneImportResult>(http, 'importDnsRecords', res.body);
}

/** Query statistics (default the last 30 days). */
export async function getDnsZoneStatistics(
  http: HttpTransport,
  zoneId: number,
  range: { dateFrom?: Date | string; dateTo?: Date | string },
  opts?: CallOptions,
): Promise<DnsZoneStatistics> {
  checkId(http, 'getDnsZoneStatistics', 'zoneId', zoneId);
  const res = await http.request(
    {
      operation: 'getDnsZoneStatistics',
      method: 'GET',
      path: pathOf`/dnszone/${zoneId}/statistics`,
      query: {
        dateFrom: isoDate(http, 'getDnsZoneStatistics', 'dateFrom', range.dateFrom),
        dateTo: isoDate(http, 'getDnsZoneStatistics', 'dateTo', range.dateTo),
      },
    },
    opts,
  );
  return expectObject<DnsZoneStatistics>(http, 'getDnsZoneStatistics', res.body);
}

/** Issues the zone's wildcard certificate (`domain` default: the platform's). After a 429 only. */
export async function issueWildcardCertificate(
  http: HttpTransport,
  zoneId: number,
  domain: string | undefined,
  opts?: CallOptions,
): Promise<void> {
  checkId(http, 'issueWildcardCertificate', 'zoneId', zoneId);
  await http.request(
    {
      operation: 'issueWildcardCertificate',
      method: 'POST',
      path: pathOf`/dnszone/${zoneId}/certificate/issue`,
      ...(domain === undefined ? {} : { body: { Domain: domain } }),
    },
    opts,
  );
}

/** Starts a scan of a domain's public records (`ZoneId` or `Domain`, never both). */
export async function triggerDnsRecordScan(
  http: HttpTransport,
  target: DnsScanTarget,
  opts?: CallOptions,
): Promise<DnsRecordScanTrigger> {
  const operation = 'triggerDnsRecordScan';
  if ('zoneId' in target) checkId(http, operation, 'ZoneId', target.zoneId);
  else checkNonEmpty(http, operation, 'Domain', target.domain);
  const body = 'zoneId' in target ? { ZoneId: target.zoneId } : { Domain: target.domain };
  const res = await http.request(
    { operation, method: 'POST', path: '/dnszone/records/scan', body },
    opts,
  );
  return expectObject<DnsRecordScanTrigger>(http, operation, res.body);
}

/** The latest scan of the zone's domain (`notFound` when there is none). */
export async function getDnsRecordScan(
  http: HttpTransport,
  zoneId: number,
  opts?: CallOptions,
): Promise<DnsRecordScanJob> {
  checkId(http, 'getDnsRecordScan', 'zoneId', zoneId);
  const res = await http.request(
    { operation: 'getDnsRecordScan', method: 'GET', path: pathOf`/dnszone/${zoneId}/records/scan` },
    opts,
  );
  return expectObject<DnsRecordScanJob>(http, 'getDnsRecordScan', res.body);
}

/** Asks for a DNS-01 certificate of a hostname whose DNS is elsewhere: the TXT record to add. */
export async function requestExternalDnsCertificate(
  http: HttpTransport,
  hostname: string,
  opts?: CallOptions,
): Promise<ExternalDnsChallenge> {
  const operation = 'requestExternalDnsCertificate';
  checkNonEmpty(http, operation, 'Hostname', hostname);
  const res = await http.request(
    {
      operation,
      method: 'POST',
      path: '/pullzone/requestExternalDnsCertificate',
      body: { Hostname: hostname },
    },
    opts,
  );
  const body = expectObject<Partial<ExternalDnsChallenge>>(http, operation, res.body);
  if (typeof body.TxtRecordName !== 'string' || typeof body.TxtRecordValue !== 'string')
    throw http.failure(operation, 'server', 'unexpected answer: no TXT record');
  return body as ExternalDnsChallenge;
}

/** Checks the TXT record and loads the certificate. Retried only after a 429. */
export async function completeExternalDnsCertificate(
  http: HttpTransport,
  hostname: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'completeExternalDnsCertificate';
  checkNonEmpty(http, operation, 'Hostname', hostname);
  await http.request(
    {
      operation,
      method: 'POST',
      path: '/pullzone/completeExternalDnsCertificate',
      body: { Hostname: hostname },
    },
    opts,
  );
}
