/** The DnsRecord custom resource as the controller reads it. */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type { ManagedObject } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const DNS_RECORD_NAMES: KindNames = {
  kind: 'DnsRecord',
  plural: 'dnsrecords',
  shortNames: ['dnsr'],
  scope: 'Namespaced',
};

/** Record type names in wire order (`DnsRecordTypes`: 0 = A ... 15 = TLSA). */
export const RECORD_TYPES = DNS_RECORD_TYPE_NAMES;
export type RecordTypeName = (typeof RECORD_TYPES)[number];
/** Monitor names in wire order (`DnsMonitoringType`). */
export const MONITOR_TYPES = ['None', 'Ping', 'Http', 'Monitor'] as const;
/** Smart routing names in wire order (`DnsSmartRoutingType`). */
export const SMART_ROUTING_TYPES = ['None', 'Latency', 'Geolocation'] as const;
/** Monitor status names in wire order (`DnsMonitoringStatus`). */
export const MONITOR_STATUSES = ['Unknown', 'Online', 'Offline'] as const;
/** Acceleration status names in wire order (`AcceleratedStatus`). */
export const ACCELERATION_STATUSES = [
  'None',
  'Pending',
  'Processing',
  'Completed',
  'Failed',
] as const;

/** A reference by name to an object in the same namespace. */
export interface NameRef {
  name: string;
}

/** `spec` of a DnsRecord (crd.ts describes every field). */
export interface DnsRecordSpec extends AccountSpec, AdoptionSpec {
  /** The DnsZone object (same namespace) whose zone holds the record. */
  zoneRef?: NameRef;
  /** The platform zone id (a reference, checked like zoneRef). */
  dnsZoneId?: number;
  type: RecordTypeName;
  /** Name relative to the zone; `""` or `@` is the apex. */
  name: string;
  value?: string;
  ttl?: number;
  weight?: number;
  priority?: number;
  port?: number;
  flags?: number;
  tag?: string;
  /** PullZone records: the PullZoneConfig (same namespace) the record links. */
  pullZoneRef?: NameRef;
  /** PullZone records: the pull zone id (a reference). */
  pullZoneId?: number;
  /** Script records: the edge script id. */
  scriptId?: number;
  /** Script records: environment variables. */
  environmentVariables?: { name: string; value: string }[];
  accelerated?: boolean;
  smartRoutingType?: (typeof SMART_ROUTING_TYPES)[number];
  latencyZone?: string;
  geolocationLatitude?: number;
  geolocationLongitude?: number;
  monitorType?: (typeof MONITOR_TYPES)[number];
  disabled?: boolean;
  comment?: string;
  autoSslIssuance?: boolean;
  /** Adopt the record with this id. */
  recordId?: number;
}

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
