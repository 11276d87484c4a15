/**
 * What a DnsZone's status shows beyond its field table: the nameservers the zone announces,
 * whether the platform sees the domain delegated, the record count, and DNSSEC with the DS
 * record to give the registrar (answered only by the call that turns DNSSEC on, so kept from
 * then on while DNSSEC stays on).
 */
import type { DnsSecDsRecord, DnsZone as ZoneRecord } from '../../cdn/dns-types.js';
import type { DnsSecStatus, DnsZone, DnsZoneStatus } from './types.js';

/** `status.dnssec` of a DNSSEC answer (`Enabled: false` keeps only `enabled`). */
export function dnssecStatusOf(ds: DnsSecDsRecord): DnsSecStatus {
  if (ds.Enabled !== true) return { enabled: false };
  const out: DnsSecStatus = { enabled: true };
  if (ds.DsRecord) out.dsRecord = ds.DsRecord;
  if (typeof ds.Algorithm === 'number') out.algorithm = ds.Algorithm;
  if (ds.Digest) out.digest = ds.Digest;
  if (ds.DigestType) out.digestType = ds.DigestType;
  if (typeof ds.KeyTag === 'number') out.keyTag = ds.KeyTag;
  if (typeof ds.Flags === 'number') out.flags = ds.Flags;
  if (ds.PublicKey) out.publicKey = ds.PublicKey;
  return out;
}

/**
 * `status.dnssec` from the zone read: the platform answers the DS record only when DNSSEC is
 * turned on, so the DS fields recorded then are kept while the zone still has DNSSEC on.
 */
export function observedDnsSec(
  record: ZoneRecord,
  previous: DnsSecStatus | undefined,
): DnsSecStatus {
  if (record.DnsSecEnabled !== true) return { enabled: false };
  return previous?.enabled === true ? { ...previous } : { enabled: true };
}

/** The DNSSEC call a spec asks for: on (true), off (false) or none (see the module comment). */
export function dnssecChange(obj: DnsZone, record: ZoneRecord): boolean | undefined {
  const want = obj.spec?.dnssec?.enabled;
  return want === undefined || want === (record.DnsSecEnabled === true) ? undefined : want;
}

/** What status shows beyond the table (records: external.ts). */
export function zoneStatus(record: ZoneRecord, obj: DnsZone): DnsZoneStatus {
  const nameservers = [record.Nameserver1, record.Nameserver2].filter((n): n is string => !!n);
  return {
    nameserversDetected: record.NameserversDetected === true,
    dnssec: observedDnsSec(record, obj.status?.dnssec),
    recordCount: (record.Records ?? []).length,
    ...(nameservers.length > 0 ? { nameservers } : {}),
  };
}
