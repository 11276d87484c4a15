/** The DnsZone custom resource as the controller reads it (its fields: fields.ts). */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type { ManagedObject } from '../../runtime/types.js';
import type { ChildStatus } from '../kit/child-list.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { DNS_ZONE_FIELDS } from './fields.js';
import type { INLINE_RECORD_FIELDS } from './record-fields.js';
import type { DnsSecStatus } from './status.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const DNS_ZONE_NAMES: NamedResourceKind = {
  kind: 'DnsZone',
  plural: 'dnszones',
  shortNames: ['dnsz'],
  scope: 'Namespaced',
  family: 'dns',
  platformNames: 'unique',
};

/** Record types an inline record may have: those that link no other resource. */
export type InlineRecordType = Exclude<
  (typeof DNS_RECORD_TYPE_NAMES)[number],
  'PullZone' | 'Script'
>;

/** One entry of `spec.records` (record-fields.ts describes every member). */
export type DnsZoneRecordSpec = Omit<SpecOf<typeof INLINE_RECORD_FIELDS>, 'type'> & {
  type: InlineRecordType;
};

/** `spec` of a DnsZone: the field table's members, the inline records and the shared parts. */
export type DnsZoneSpec = SpecOf<typeof DNS_ZONE_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    records?: DnsZoneRecordSpec[];
  };

/** The members naming a record (its type's name, its relative name, its value). */
export type RecordContent = Record<'type' | 'name' | 'value', string>;

/** One entry of `status.records`: an inline record and the platform record it is. */
export type ZoneRecordStatus = ChildStatus<RecordContent>;

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
