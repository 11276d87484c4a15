/**
 * The members of a DNS record the DnsRecord kind manages, described once: spec field, platform
 * member, how it is compared, the record types it applies to, and the value the platform reads
 * back when the member was never set. The mapping (mapping.ts), the diff (diff.ts) and the
 * export (export.ts) all walk this table; crd.ts describes the same fields.
 */
import {
  MONITOR_TYPES,
  RECORD_TYPES,
  SMART_ROUTING_TYPES,
  type DnsRecordSpec,
  type RecordTypeName,
} from './types.js';

/** How a member is written and compared. */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum';

/** One managed member. */
export interface RecordField {
  spec: keyof DnsRecordSpec;
  api: string;
  kind: FieldKind;
  /** Enum names in wire order (kind `enum`). */
  names?: readonly string[];
  /** Record types the member applies to; absent: every type. */
  types?: readonly RecordTypeName[];
  /** What the platform reads back when the member was never set. */
  unset: unknown;
}

/** Types whose value the platform fills in from the linked pull zone or script. */
export const LINKED_TYPES: readonly RecordTypeName[] = ['PullZone', 'Script'];
/** Types that can be accelerated (the platform creates a pull zone in front of them). */
export const ACCELERATABLE_TYPES: readonly RecordTypeName[] = ['A', 'AAAA', 'CNAME'];
/** Types whose weight the platform keeps (others read it back as 0). */
export const WEIGHTED_TYPES: readonly RecordTypeName[] = ['A', 'AAAA', 'SRV'];

const VALUE_TYPES = RECORD_TYPES.filter((t) => !LINKED_TYPES.includes(t));

/** The managed members, in the order the plan lists them. */
export const RECORD_FIELDS: readonly RecordField[] = [
  { spec: 'value', api: 'Value', kind: 'string', types: VALUE_TYPES, unset: '' },
  { spec: 'ttl', api: 'Ttl', kind: 'integer', unset: 300 },
  { spec: 'weight', api: 'Weight', kind: 'integer', types: WEIGHTED_TYPES, unset: 0 },
  { spec: 'priority', api: 'Priority', kind: 'integer', types: ['MX', 'SRV'], unset: 0 },
  { spec: 'port', api: 'Port', kind: 'integer', types: ['SRV'], unset: 0 },
  { spec: 'flags', api: 'Flags', kind: 'integer', types: ['CAA'], unset: 0 },
  { spec: 'tag', api: 'Tag', kind: 'string', types: ['CAA'], unset: '' },
  {
    spec: 'accelerated',
    api: 'Accelerated',
    kind: 'boolean',
    types: ACCELERATABLE_TYPES,
    unset: false,
  },
  {
    spec: 'smartRoutingType',
    api: 'SmartRoutingType',
    kind: 'enum',
    names: SMART_ROUTING_TYPES,
    unset: 0,
  },
  { spec: 'latencyZone', api: 'LatencyZone', kind: 'string', unset: '' },
  { spec: 'geolocationLatitude', api: 'GeolocationLatitude', kind: 'number', unset: 0 },
  { spec: 'geolocationLongitude', api: 'GeolocationLongitude', kind: 'number', unset: 0 },
  { spec: 'monitorType', api: 'MonitorType', kind: 'enum', names: MONITOR_TYPES, unset: 0 },
  { spec: 'disabled', api: 'Disabled', kind: 'boolean', unset: false },
  { spec: 'comment', api: 'Comment', kind: 'string', unset: '' },
  { spec: 'autoSslIssuance', api: 'AutoSslIssuance', kind: 'boolean', unset: false },
];

/** True when `field` applies to records of `type`. */
export function appliesTo(field: RecordField, type: RecordTypeName): boolean {
  return field.types === undefined || field.types.includes(type);
}
