/** The DnsZone custom resource as the controller reads it. */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type { ManagedObject } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const DNS_ZONE_NAMES: KindNames = {
  kind: 'DnsZone',
  plural: 'dnszones',
  shortNames: ['dnsz'],
  scope: 'Namespaced',
};

/** Record types that link another resource (a pull zone, a script): DnsRecord objects only. */
const LINKED_RECORD_TYPES = ['PullZone', 'Script'] as const;
/** Record types an inline record may have: those that need no link to another resource. */
export type InlineRecordType = Exclude<
  (typeof DNS_RECORD_TYPE_NAMES)[number],
  (typeof LINKED_RECORD_TYPES)[number]
>;
export const INLINE_RECORD_TYPES: readonly InlineRecordType[] = DNS_RECORD_TYPE_NAMES.filter(
  (t): t is InlineRecordType => !(LINKED_RECORD_TYPES as readonly string[]).includes(t),
);

/** Names of the platform's `LogAnonymizationType` in number order. */
export const LOG_ANONYMIZATION_TYPES = ['OneDigit', 'Drop'] as const;
/** Names of the platform's `PrivateKeyType` in number order. */
export const CERTIFICATE_KEY_TYPES = ['Ecdsa', 'Rsa'] as const;
/** What happens to records of the zone that no object lists. */
export type RecordPolicy = 'Additive' | 'Exact';

/** One entry of `spec.records` (crd.ts describes every field). */
export interface DnsZoneRecordSpec {
  type: InlineRecordType;
  /** Relative to the zone; `""` or `@` is the apex. */
  name?: string;
  value: string;
  ttl?: number;
  priority?: number;
  weight?: number;
  port?: number;
  flags?: number;
  tag?: string;
}

/** `spec` of a DnsZone (crd.ts describes every field). */
export interface DnsZoneSpec extends AccountSpec, AdoptionSpec {
  /** The domain (required to create; immutable). */
  domain?: string;
  /** Adopt the zone with this id. */
  dnsZoneId?: number;
  soaEmail?: string;
  customNameservers?: { enabled: boolean; ns1?: string; ns2?: string };
  logging?: {
    enabled: boolean;
    ipAnonymization?: boolean;
    anonymizationType?: (typeof LOG_ANONYMIZATION_TYPES)[number];
  };
  certificateKeyType?: (typeof CERTIFICATE_KEY_TYPES)[number];
  dnssec?: boolean;
  records?: DnsZoneRecordSpec[];
  recordPolicy?: RecordPolicy;
}

/** `status.dnssec`: the DS record to give the registrar while DNSSEC is on. */
export interface DnsSecStatus {
  enabled: boolean;
  dsRecord?: string;
  algorithm?: number;
  digest?: string;
  digestType?: string;
  keyTag?: number;
  flags?: number;
  publicKey?: string;
}

/** One entry of `status.records`: an inline record and the platform record it is. */
export interface ZoneRecordStatus {
  type: string;
  name: string;
  value: string;
  id: number;
  /** This object created the record (so it is deleted when dropped from spec.records). */
  created?: boolean;
}

/** `status` of a DnsZone. */
export interface DnsZoneStatus extends KindStatus {
  /** Platform id (an integer in the CRD). */
  dnsZoneId?: number | string;
  domain?: string;
  nameservers?: string[];
  nameserversDetected?: boolean;
  dnssec?: DnsSecStatus;
  records?: ZoneRecordStatus[];
  recordCount?: number;
}

export interface DnsZone extends ManagedObject {
  spec?: DnsZoneSpec & Record<string, unknown>;
  status?: DnsZoneStatus;
}
