/**
 * Wire types of the DNS area (`/dnszone...`, the external-DNS certificate routes), aliased
 * from the official core document (src/cdn/generated/core.ts) so callers never reach into the
 * generated file. Enums are the document's integers (record type 0 = A ... 15 = TLSA; see
 * `DNS_RECORD_TYPE_NAMES` in dns-record-types.ts).
 */
import type { components } from './generated/core.js';

type Core = components['schemas'];

/** A DNS zone with its records (`GET /dnszone/{id}`). */
export type DnsZone = Core['DnsZoneModel'];
/** Body of `POST /dnszone`: `Domain`, optionally the first `Records`. */
export type DnsZoneAddRequest = Core['DnsZoneAddModel'];
/** Body of `POST /dnszone/{id}`: every member optional; null or absent leaves it unchanged. */
export type DnsZoneSettings = Core['UpdateDnsZoneModel'];
/** A record as read (type, value, links, acceleration, routing, monitor). */
export type DnsRecord = Core['DnsRecordModel'];
/** Body of `PUT /dnszone/{zoneId}/records` (a new record). */
export type DnsRecordAddRequest = Core['AddDnsRecordModel'];
/** Body of `POST /dnszone/{zoneId}/records/{id}` (the client sets `Id` from the path). */
export type DnsRecordUpdate = Omit<Core['UpdateDnsRecordModel'], 'Id'>;
/** Record type: 0 = A, 1 = AAAA, 2 = CNAME, ... 7 = PullZone ... 15 = TLSA. */
export type DnsRecordType = Core['DnsRecordTypes'];
/** DNSSEC state and the DS record to give the registrar (enable/disable answer). */
export type DnsSecDsRecord = Core['DnsSecDsRecordModel'];
/** Counts of a zone file import. */
export type DnsZoneImportResult = Core['DnsZoneImportResultModel'];
/** Query statistics of a zone. */
export type DnsZoneStatistics = Core['DnsZoneStatisticsModel'];
/** Answer of a record scan trigger (the job id and its first status). */
export type DnsRecordScanTrigger = Core['DnsZoneRecordScanTriggerResponse'];
/** The latest record scan of a zone and the records it found. */
export type DnsRecordScanJob = Core['DnsZoneRecordScanJobResponse'];

/** Result of the zone availability check. */
export interface DnsZoneAvailability {
  available: boolean;
}

/**
 * The TXT record to publish for a DNS-01 certificate of a hostname whose DNS is elsewhere
 * (`POST /pullzone/requestExternalDnsCertificate`; the document leaves the body open, these are
 * the members the live API answers).
 */
export interface ExternalDnsChallenge {
  TxtRecordName: string;
  TxtRecordValue: string;
  ExpiresAt?: string;
}

/** What a record scan looks at: an existing zone, or a domain before its zone exists. */
export type DnsScanTarget = { zoneId: number } | { domain: string };
