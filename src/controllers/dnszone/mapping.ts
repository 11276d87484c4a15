/**
 * Pure spec <-> API mapping of a DNS zone: the settings the spec manages in the platform's
 * terms (the members of `POST /dnszone/{id}`), the observed status, the DS record of DNSSEC,
 * and inline records as the add body wants them.
 */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type {
  DnsRecord,
  DnsRecordAddRequest,
  DnsRecordType,
  DnsSecDsRecord,
  DnsZone as DnsZoneRecord,
  DnsZoneSettings,
} from '../../cdn/dns-types.js';
import {
  CERTIFICATE_KEY_TYPES,
  LOG_ANONYMIZATION_TYPES,
  type DnsSecStatus,
  type DnsZone,
  type DnsZoneRecordSpec,
  type DnsZoneStatus,
} from './types.js';

/** The zone's domain as the spec gives it (lowercased, as the platform stores it). */
export function domainOf(obj: DnsZone): string | undefined {
  return obj.spec?.domain?.toLowerCase();
}

/** The platform's integer of an enum name in `names`; undefined when the name is unset. */
function enumNumber<T extends number>(
  names: readonly string[],
  name: string | undefined,
): T | undefined {
  if (name === undefined) return undefined;
  const n = names.indexOf(name);
  if (n < 0) throw new Error(`cannot map ${JSON.stringify(name)}: not one of ${names.join(', ')}`);
  return n as T;
}

/** The enum name of the platform's integer (the number itself when unknown). */
export function enumName(names: readonly string[], value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  return names[value] ?? String(value);
}

/**
 * The settings the spec manages, as `UpdateDnsZoneModel` members. Unset spec fields are
 * absent (left as they are on the platform); the nameservers are managed only while custom
 * nameservers are on, the anonymization only while logging is on.
 */
export function desiredSettings(obj: DnsZone): DnsZoneSettings {
  const spec = obj.spec ?? {};
  const out: DnsZoneSettings = { ...nameserverSettings(obj), ...loggingSettings(obj) };
  const keyType = enumNumber<0 | 1>(CERTIFICATE_KEY_TYPES, spec.certificateKeyType);
  if (keyType !== undefined) out.CertificateKeyType = keyType;
  return out;
}

/** Custom nameservers and the SOA contact, which the platform keeps only while they are on. */
function nameserverSettings(obj: DnsZone): DnsZoneSettings {
  const ns = obj.spec?.customNameservers;
  if (!ns) return {};
  if (!ns.enabled) return { CustomNameserversEnabled: false };
  const out: DnsZoneSettings = { CustomNameserversEnabled: true };
  if (ns.ns1 !== undefined) out.Nameserver1 = ns.ns1;
  if (ns.ns2 !== undefined) out.Nameserver2 = ns.ns2;
  if (obj.spec?.soaEmail !== undefined) out.SoaEmail = obj.spec.soaEmail;
  return out;
}

function loggingSettings(obj: DnsZone): DnsZoneSettings {
  const logging = obj.spec?.logging;
  if (!logging) return {};
  if (!logging.enabled) return { LoggingEnabled: false };
  const out: DnsZoneSettings = { LoggingEnabled: true };
  if (logging.ipAnonymization !== undefined)
    out.LoggingIPAnonymizationEnabled = logging.ipAnonymization;
  const type = enumNumber<0 | 1>(LOG_ANONYMIZATION_TYPES, logging.anonymizationType);
  if (type !== undefined) out.LogAnonymizationType = type;
  return out;
}

/** The live values of the settings {@link desiredSettings} can hold. */
export function liveSettings(record: DnsZoneRecord): Record<string, unknown> {
  return {
    SoaEmail: record.SoaEmail,
    CustomNameserversEnabled: record.CustomNameserversEnabled ?? false,
    Nameserver1: record.Nameserver1,
    Nameserver2: record.Nameserver2,
    LoggingEnabled: record.LoggingEnabled ?? false,
    LoggingIPAnonymizationEnabled: record.LoggingIPAnonymizationEnabled,
    LogAnonymizationType: record.LogAnonymizationType,
    CertificateKeyType: record.CertificateKeyType,
  };
}

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
  record: DnsZoneRecord,
  previous: DnsSecStatus | undefined,
): DnsSecStatus {
  if (record.DnsSecEnabled !== true) return { enabled: false };
  return previous?.enabled === true ? { ...previous } : { enabled: true };
}

/** The observed status fields of a zone (records: see records.ts). */
export function statusOf(
  record: DnsZoneRecord,
  previous: DnsZoneStatus | undefined,
): DnsZoneStatus {
  const status: DnsZoneStatus = {
    dnsZoneId: record.Id,
    nameserversDetected: record.NameserversDetected === true,
    dnssec: observedDnsSec(record, previous?.dnssec),
    recordCount: (record.Records ?? []).length,
  };
  if (record.Domain) status.domain = record.Domain;
  const ns = nameserversOf(record);
  if (ns.length > 0) status.nameservers = ns;
  return status;
}

/** The nameservers a zone announces (its own or the platform's), as `status.nameservers`. */
export function nameserversOf(record: DnsZoneRecord): string[] {
  return [record.Nameserver1, record.Nameserver2].filter((n): n is string => !!n);
}

/** The type name of a live record (`A`, `CNAME`, ...). */
export function recordTypeName(record: DnsRecord): string {
  return enumName(DNS_RECORD_TYPE_NAMES, record.Type) ?? 'unknown';
}

/** The wire value of an inline record's type. */
export function recordTypeNumber(type: string): DnsRecordType {
  const n = DNS_RECORD_TYPE_NAMES.indexOf(type as (typeof DNS_RECORD_TYPE_NAMES)[number]);
  if (n < 0) throw new Error(`cannot map record type ${JSON.stringify(type)}: unknown`);
  return n as DnsRecordType;
}

/** The relative name of an inline record as the platform stores it (`@` is the apex, `""`). */
export function recordNameOf(spec: DnsZoneRecordSpec): string {
  const name = spec.name ?? '';
  return name === '@' ? '' : name;
}

/** The members an inline record sets besides type, name and value (wire names). */
export function recordExtras(spec: DnsZoneRecordSpec): Partial<DnsRecordAddRequest> {
  const out: Partial<DnsRecordAddRequest> = {};
  if (spec.ttl !== undefined) out.Ttl = spec.ttl;
  if (spec.priority !== undefined) out.Priority = spec.priority;
  if (spec.weight !== undefined) out.Weight = spec.weight;
  if (spec.port !== undefined) out.Port = spec.port;
  if (spec.flags !== undefined) out.Flags = spec.flags;
  if (spec.tag !== undefined) out.Tag = spec.tag;
  return out;
}

/** The add body of an inline record. */
export function toAddRecord(spec: DnsZoneRecordSpec): DnsRecordAddRequest {
  return {
    Type: recordTypeNumber(spec.type),
    Name: recordNameOf(spec),
    Value: spec.value,
    ...recordExtras(spec),
  };
}
