/**
 * What a DnsZone's status shows beyond its field table: the nameservers the zone announces,
 * whether the platform sees the domain delegated, the record count, and DNSSEC with the DS
 * record to give the registrar (answered only by the call that turns DNSSEC on, so kept from
 * then on while DNSSEC stays on). The DS record's members are a field table of their own
 * (kit/fields.ts): the CRD's `status.dnssec`, its type and the reading of an answer derive from it.
 */
import type { DnsSecDsRecord, DnsZone as ZoneRecord } from '../../cdn/dns-types.js';
import { blankAsAbsent, flag, integer, text } from '../kit/codecs.js';
import { field, specOfRecord, type SpecOf } from '../kit/fields.js';
import type { DnsZone, DnsZoneStatus } from './types.js';

const words = blankAsAbsent(text(), '');

/** The members of `status.dnssec`, each read from the DNSSEC answer's member `record`. */
export const DS_FIELDS = [
  field('enabled', flag(), { record: 'Enabled', required: true, description: 'DNSSEC is on.' }),
  field('dsRecord', words, {
    record: 'DsRecord',
    description: 'The whole DS record, as a registrar takes it.',
  }),
  field('algorithm', integer(), {
    record: 'Algorithm',
    description: 'DNSSEC algorithm number (13: ECDSA P-256 SHA-256).',
  }),
  field('digest', words, { record: 'Digest', description: 'Digest of the key signing key (hex).' }),
  field('digestType', words, {
    record: 'DigestType',
    description: 'Digest type, e.g. SHA256 (2).',
  }),
  field('keyTag', integer(), { record: 'KeyTag', description: 'Key tag of the key signing key.' }),
  field('flags', integer(), {
    record: 'Flags',
    description: 'Flags of the key signing key (257).',
  }),
  field('publicKey', words, {
    record: 'PublicKey',
    description: 'Public key of the key signing key (base64).',
  }),
] as const;

/** `status.dnssec`: the DS record to give the registrar while DNSSEC is on. */
export type DnsSecStatus = SpecOf<typeof DS_FIELDS>;

/** `status.dnssec` of a DNSSEC answer (`Enabled: false` keeps only `enabled`). */
export function dnssecStatusOf(ds: DnsSecDsRecord): DnsSecStatus {
  if (ds.Enabled !== true) return { enabled: false };
  return { ...specOfRecord(DS_FIELDS, ds), enabled: true };
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
