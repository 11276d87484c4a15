/**
 * The DNS part of cdn-sim's state: how a zone and its records are stored, and the lookups
 * other areas need (a zone by domain, the zone a hostname falls in, a record's full name).
 */
import type { SimState } from './state.js';
import type { JsonObject } from './types.js';

/** DNSSEC key material of a zone (what the DS record is computed from). */
export interface StoredDnsSec {
  /** Base64 of the DNSKEY public key (ECDSA P-256: x || y). */
  publicKey: string;
}

/** A DNS zone: the DnsZoneModel fields (without Records), its records and hidden data. */
export interface StoredDnsZone {
  /** Every DnsZoneModel field except `Records`. */
  zone: JsonObject;
  /** Records as the DnsRecordModel shows them. */
  records: JsonObject[];
  hidden: {
    /** Present while DNSSEC is enabled. */
    dnsSec?: StoredDnsSec;
    /** Domains a wildcard certificate was issued for (`POST .../certificate/issue`). */
    wildcardCertificates?: string[];
  };
}

/** A scalar member as text (`''` for null or absent). */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A zone that is not stored (to check records before the zone is created). */
export function draftDnsZone(domain: string): StoredDnsZone {
  return { zone: { Id: 0, Domain: domain.toLowerCase() }, records: [], hidden: {} };
}

/** Lowercase, without a trailing dot. */
export function normalizeHost(name: string): string {
  return name.trim().replace(/\.$/, '').toLowerCase();
}

/** The zone of `domain` (case-insensitive), if the account has one. */
export function findDnsZoneByDomain(state: SimState, domain: string): StoredDnsZone | undefined {
  const wanted = normalizeHost(domain);
  for (const zone of state.dnsZones.values()) {
    if (normalizeHost(String(zone.zone.Domain)) === wanted) return zone;
  }
  return undefined;
}

/**
 * The zone a hostname belongs to: the one whose domain is the longest suffix of it (the most
 * specific zone, as DNS delegation would pick), with the record name relative to it.
 */
export function dnsZoneForHostname(
  state: SimState,
  hostname: string,
): { zone: StoredDnsZone; relativeName: string } | undefined {
  const host = normalizeHost(hostname);
  let best: { zone: StoredDnsZone; relativeName: string } | undefined;
  let bestLength = -1;
  for (const zone of state.dnsZones.values()) {
    const domain = normalizeHost(String(zone.zone.Domain));
    const inside = host === domain || host.endsWith(`.${domain}`);
    if (!inside || domain.length <= bestLength) continue;
    bestLength = domain.length;
    best = { zone, relativeName: host === domain ? '' : host.slice(0, -(domain.length + 1)) };
  }
  return best;
}

/** A record name as stored: `@` (the apex) becomes `''`, no trailing dot. */
export function storedRecordName(name: string): string {
  const trimmed = name.trim().replace(/\.$/, '');
  return trimmed === '@' ? '' : trimmed;
}

/** The fully qualified name of a record in a zone. */
export function recordHostname(zone: StoredDnsZone, record: JsonObject): string {
  const name = textOf(record.Name);
  const domain = normalizeHost(String(zone.zone.Domain));
  return name === '' ? domain : `${name.toLowerCase()}.${domain}`;
}
