/** The DnsRecord custom resource as the controller reads it (its fields: fields.ts). */
import type { ManagedObject } from '../../runtime/types.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { RECORD_FIELDS } from './fields.js';

/** The document's monitor names we spell otherwise (`Http`, v1alpha1's name -> ours). */
export const MONITOR_SPELLING = { Http: 'HTTP' } as const;

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const DNS_RECORD_NAMES: NamedResourceKind = {
  kind: 'DnsRecord',
  plural: 'dnsrecords',
  shortNames: ['dnsr'],
  scope: 'Namespaced',
  family: 'dns',
  platformNames: 'shared',
};

/** A reference by name to an object in the same namespace. */
export type NameRef = { name: string };

/** `spec` of a DnsRecord: the field table's members, the references and the shared parts. */
export type DnsRecordSpec = SpecOf<typeof RECORD_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    /** The DnsZone object (same namespace) whose zone holds the record. */
    dnsZoneRef?: NameRef;
    /** The platform zone id (a reference, checked like dnsZoneRef). */
    dnsZoneId?: number;
    /** PullZone records: the PullZoneConfig (same namespace) the record links. */
    pullZoneRef?: NameRef;
    /** PullZone records: the pull zone id (a reference). */
    pullZoneId?: number;
  };

/** `status` of a DnsRecord. */
export interface DnsRecordStatus extends KindStatus {
  recordId?: number;
  dnsZoneId?: number;
  type?: string;
  name?: string;
  value?: string;
  /** The pull zone the platform created in front of an accelerated record. */
  acceleratedPullZoneId?: number;
  accelerationStatus?: string;
  monitorStatus?: string;
  /** PullZone records: the linked pull zone's id. */
  linkedPullZoneId?: number;
}

export interface DnsRecord extends ManagedObject {
  spec?: DnsRecordSpec & Record<string, unknown>;
  status?: DnsRecordStatus;
}
