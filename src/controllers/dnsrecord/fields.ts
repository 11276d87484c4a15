/**
 * The DnsRecord's fields, written once (kit/fields.ts): the CRD properties, the spec type, the
 * add body, the diff and the update body, the observed status, the export and the spec path of
 * a platform member named in an error come from this table. A member some record types lack
 * says so (`appliesTo`): set there, the spec is refused (checks.ts, and a CEL rule). The record
 * types, monitor and smart routing types are read from the official core document at
 * generation time (`DnsRecordTypes`, `DnsMonitoringType`, `DnsSmartRoutingType`); the value
 * bounds are DNS's own (the document states none). The DnsZone's inline records reuse these
 * fields (dnszone/record-fields.ts): they are the same platform members.
 */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import {
  counted,
  decimal,
  enumByIndex,
  flag,
  integer,
  objectList,
  text,
  type Codec,
} from '../kit/codecs.js';
import { field } from '../kit/fields.js';
import { spelledOurWay } from '../kit/enum-spelling.js';
import { MONITOR_SPELLING } from './types.js';

/** Record type names in wire order (`DnsRecordTypes`: 0 = A ... 15 = TLSA). */
export const RECORD_TYPES = DNS_RECORD_TYPE_NAMES;
export type RecordTypeName = (typeof RECORD_TYPES)[number];
/**
 * Monitor names in wire order (`DnsMonitoringType`), spelt our way: the document's `Http` is
 * `HTTP` (acronyms in capitals, docs/api.md); the wire number is unchanged.
 */
export const MONITOR_TYPES = ['None', 'Ping', 'HTTP', 'Monitor'] as const;
/** Smart routing names in wire order (`DnsSmartRoutingType`). */
export const SMART_ROUTING_TYPES = ['None', 'Latency', 'Geolocation'] as const;
/** Types whose value the platform fills in from the linked pull zone or script. */
export const LINKED_TYPES: readonly RecordTypeName[] = ['PullZone', 'Script'];
const VALUE_TYPES = RECORD_TYPES.filter((t) => !LINKED_TYPES.includes(t));

/** The record name as the platform reads it back: `@` is the apex, `""`. */
export function normalizeName(name: string | undefined): string {
  return name === undefined || name === '@' ? '' : name;
}

/** A record name relative to the zone: `@` sent as the apex `""`, compared without case. */
function recordName(): Codec<string> {
  return {
    ...text({ maxLength: 253 }),
    toWire: normalizeName,
    same: (a, b) => normalizeName(a).toLowerCase() === normalizeName(b).toLowerCase(),
  };
}

/** The id of a linked resource, read back from the record's `LinkName` (a decimal string). */
function linkId(): Codec<number> {
  return {
    schema: { type: 'integer', format: 'int64', minimum: 1 },
    toWire: (v) => v,
    fromWire: (w) => {
      const n = typeof w === 'string' || typeof w === 'number' ? Number(w) : NaN;
      return Number.isSafeInteger(n) && n > 0 ? n : undefined;
    },
  };
}

/** One environment variable of a Script record. */
const VARIABLE = {
  required: ['name', 'value'],
  description: 'One environment variable.',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 256, description: 'Variable name.' },
    value: { type: 'string', maxLength: 4096, description: 'Variable value.' },
  },
};
const VARIABLE_MEMBERS = { name: 'Name', value: 'Value' };
// Keyed by name, like ContainerApp's environment variables: a name appears once.
const MAX_64 = {
  maxItems: 64,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
};
// Values may be credentials of the script: plans and events count them.
const VARIABLES = counted(objectList(VARIABLE_MEMBERS, VARIABLE, MAX_64), 'variables');
const int32 = (minimum: number, maximum: number): Codec<number> =>
  integer({ format: 'int32', minimum, maximum });
const only = (...values: readonly RecordTypeName[]): { field: 'type'; values: typeof values } => ({
  field: 'type',
  values,
});

/** The managed members, in the order the plan lists them. */
export const RECORD_FIELDS = [
  field('type', enumByIndex(RECORD_TYPES), {
    api: 'Type',
    write: 'create',
    required: true,
    status: 'type',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'DnsRecordTypes') }),
    description: 'Record type. Immutable.',
  }),
  field('name', recordName(), {
    api: 'Name',
    required: true,
    unset: '',
    status: 'name',
    schema: {
      pattern:
        '^(@|(\\*\\.)?([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*|\\*)?$',
    },
    description:
      'Name relative to the zone, without the domain and without trailing dot (`www`, `_sip._tcp`); `""` or `@` is the apex, a leading `*` a wildcard.',
  }),
  field('value', text({ minLength: 1, maxLength: 4096 }), {
    api: 'Value',
    appliesTo: only(...VALUE_TYPES),
    unset: '',
    status: 'value',
    description:
      'The record data, required for every type but PullZone and Script (whose value the platform fills in) unless the record is adopted (then it also selects the record adopted ByName; unset, the live value is kept): an IPv4 (A) or IPv6 (AAAA) address, a host name without trailing dot (CNAME, MX, Flatten, SRV, PTR, NS), any text (TXT), an http(s) URL (Redirect), the CA value (CAA), the RDATA (SVCB, HTTPS: `1 . alpn=h2`) or `usage selector matching-type hex` (TLSA).',
  }),
  field('ttl', int32(0, 2147483647), {
    api: 'Ttl',
    unset: 300,
    description: 'Time to live in seconds (platform default 300).',
  }),
  field('weight', int32(0, 65535), {
    api: 'Weight',
    appliesTo: only('A', 'AAAA', 'SRV'),
    unset: 0,
    description:
      'Weight for load balancing between records of the same name: 0..100 for A and AAAA, 0..65535 for SRV. Other types have none.',
  }),
  field('priority', int32(0, 65535), {
    api: 'Priority',
    appliesTo: only('MX', 'SRV'),
    unset: 0,
    description: 'Priority (MX and SRV records): lower is preferred.',
  }),
  field('port', int32(0, 65535), {
    api: 'Port',
    appliesTo: only('SRV'),
    unset: 0,
    description: 'Target port (SRV records).',
  }),
  field('flags', int32(0, 255), {
    api: 'Flags',
    appliesTo: only('CAA'),
    unset: 0,
    description: 'Flags (CAA records; 128 marks the tag critical).',
  }),
  field('tag', text({ pattern: '^[A-Za-z0-9]{1,15}$' }), {
    api: 'Tag',
    appliesTo: only('CAA'),
    unset: '',
    description: 'Property tag (CAA records, required there): issue, issuewild, iodef, ...',
  }),
  field('accelerated', flag(), {
    api: 'Accelerated',
    appliesTo: only('A', 'AAAA', 'CNAME'),
    unset: false,
    description:
      'A, AAAA and CNAME records: the platform puts a pull zone in front of the record value and serves the name through the CDN. The zone it creates is shown in status.acceleratedPullZoneId; a PullZoneConfig can adopt it explicitly by id (spec.adoption.policy ById). Turning this off, or deleting the record, removes that pull zone.',
  }),
  field('smartRoutingType', enumByIndex(SMART_ROUTING_TYPES), {
    api: 'SmartRoutingType',
    unset: 'None',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'DnsSmartRoutingType') }),
    description:
      'Smart routing between records of the same name: None, Latency (needs latencyZone) or Geolocation (needs geolocationLatitude and geolocationLongitude).',
  }),
  field('latencyZone', text({ minLength: 1, maxLength: 64 }), {
    api: 'LatencyZone',
    unset: '',
    description: 'Latency routing: the region code this record serves (e.g. DE, NY).',
  }),
  field('geolocationLatitude', decimal({ minimum: -90, maximum: 90 }), {
    api: 'GeolocationLatitude',
    unset: 0,
    description: 'Geolocation routing: latitude of the location this record serves.',
  }),
  field('geolocationLongitude', decimal({ minimum: -180, maximum: 180 }), {
    api: 'GeolocationLongitude',
    unset: 0,
    description: 'Geolocation routing: longitude of the location this record serves.',
  }),
  field('monitorType', enumByIndex(MONITOR_TYPES), {
    api: 'MonitorType',
    unset: 'None',
    bounds: (docs) => ({
      enum: spelledOurWay(docs.xEnumNames('core', 'DnsMonitoringType'), MONITOR_SPELLING),
    }),
    description:
      'Health monitoring of the record value (None, Ping, HTTP, Monitor); the platform reports the result in status.monitorStatus.',
  }),
  field('disabled', flag(), {
    api: 'Disabled',
    unset: false,
    description: 'The record exists but is not served.',
  }),
  field('comment', text({ maxLength: 1024 }), {
    api: 'Comment',
    unset: '',
    description: 'Free text kept with the record.',
  }),
  field('autoSslIssuance', flag(), {
    api: 'AutoSslIssuance',
    unset: false,
    description: 'Let the platform issue a certificate for the name automatically.',
  }),
  field('scriptId', linkId(), {
    api: 'ScriptId',
    record: 'LinkName',
    appliesTo: only('Script'),
    description: 'Script records (required there): id of the edge script the record runs.',
  }),
  field('environmentVariables', VARIABLES, {
    api: 'EnviromentalVariables',
    appliesTo: only('Script'),
    description: 'Script records: environment variables passed to the script, in order.',
  }),
] as const;
