/**
 * The DnsRecord's fields, written once (kit/fields.ts): the CRD properties, the spec type, the
 * add body, the diff and the update body, the observed status, the export and the spec path of
 * a platform member named in an error come from this table. Its first members are every DNS
 * record's (shared/dns-record-fields.ts, which the DnsZone's inline records reuse); a member
 * some record types lack says so (`appliesTo`): set there, the spec is refused (checks.ts, and a
 * CEL rule). The monitor and smart routing types are read from the official core document at
 * generation time (`DnsMonitoringType`, `DnsSmartRoutingType`).
 */
import {
  counted,
  decimal,
  enumByIndex,
  flag,
  objectList,
  text,
  type Codec,
} from '../kit/codecs.js';
import { field } from '../kit/fields.js';
import { spelledOurWay } from '../kit/enum-spelling.js';
import { forTypes, RECORD_MEMBERS } from '../shared/dns-record-fields.js';
import { MONITOR_SPELLING } from './types.js';

/**
 * Monitor names in wire order (`DnsMonitoringType`), spelt our way: the document's `Http` is
 * `HTTP` (acronyms in capitals, docs/api.md); the wire number is unchanged.
 */
export const MONITOR_TYPES = ['None', 'Ping', 'HTTP', 'Monitor'] as const;
/** Smart routing names in wire order (`DnsSmartRoutingType`). */
export const SMART_ROUTING_TYPES = ['None', 'Latency', 'Geolocation'] as const;
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
/** The managed members, in the order the plan lists them. */
export const RECORD_FIELDS = [
  ...RECORD_MEMBERS,
  field('accelerated', flag(), {
    api: 'Accelerated',
    appliesTo: forTypes('A', 'AAAA', 'CNAME'),
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
    appliesTo: forTypes('Script'),
    description: 'Script records (required there): id of the edge script the record runs.',
  }),
  field('environmentVariables', VARIABLES, {
    api: 'EnviromentalVariables',
    appliesTo: forTypes('Script'),
    description: 'Script records: environment variables passed to the script, in order.',
  }),
] as const;
