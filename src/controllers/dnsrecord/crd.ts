/**
 * The DnsRecord CRD schema: the field table's properties (fields.ts), the references to the
 * zone and the linked pull zone, and the per-type rules as CEL, each with a message naming the
 * field. Account, adoption and status fragments are shared with the other kinds.
 */
import { fieldOf, schemaOf } from '../kit/fields.js';
import {
  nameRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { int64Schema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import { RECORD_FIELDS } from './fields.js';
import type { KindPart } from '../kit/kind-parts.js';

/** The CEL rule of a field that applies only to some record types (fields.ts). */
function only(spec: string): Schema {
  const types = (fieldOf(RECORD_FIELDS, spec as 'weight').appliesTo?.values ?? []) as string[];
  return {
    rule: `!has(self.${spec}) || self.type in [${types.map((t) => `'${t}'`).join(', ')}]`,
    message: `${spec} applies only to ${types.join(', ')} records`,
  };
}

const idRef = (description: string): Schema => ({ ...int64Schema(description), minimum: 1 });

const RULES: Schema[] = [
  {
    rule: 'has(self.dnsZoneRef) != has(self.dnsZoneId)',
    message: 'set exactly one of dnsZoneRef and dnsZoneId',
  },
  {
    rule: "self.type in ['PullZone', 'Script'] ? !has(self.value) : has(self.value) || has(self.adoption)",
    message:
      'value is required (unless the record is adopted: adoption), and not allowed for PullZone and Script records, whose value the platform fills in',
  },
  {
    rule: "self.type == 'PullZone' ? has(self.pullZoneRef) != has(self.pullZoneId) : !has(self.pullZoneRef) && !has(self.pullZoneId)",
    message:
      'a PullZone record needs exactly one of pullZoneRef and pullZoneId; other types take neither',
  },
  {
    rule: "self.type == 'Script' ? has(self.scriptId) : !has(self.scriptId) && !has(self.environmentVariables)",
    message:
      'a Script record needs scriptId; scriptId and environmentVariables apply to Script records only',
  },
  only('weight'),
  {
    rule: "!has(self.weight) || self.type == 'SRV' || self.weight <= 100",
    message: 'weight of an A or AAAA record is 0..100',
  },
  ...['priority', 'port', 'flags', 'tag'].map(only),
  { rule: "self.type != 'CAA' || has(self.tag)", message: 'a CAA record needs tag' },
  only('accelerated'),
  {
    rule: "has(self.smartRoutingType) && self.smartRoutingType == 'Latency' ? has(self.latencyZone) : !has(self.latencyZone)",
    message: 'latencyZone is required with smartRoutingType Latency and applies only there',
  },
  {
    rule: "has(self.smartRoutingType) && self.smartRoutingType == 'Geolocation' ? has(self.geolocationLatitude) && has(self.geolocationLongitude) : !has(self.geolocationLatitude) && !has(self.geolocationLongitude)",
    message:
      'geolocationLatitude and geolocationLongitude are required with smartRoutingType Geolocation and apply only there',
  },
];

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(RECORD_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one DNS record in a zone on the platform. Members left out are the platform’s to keep; the type is fixed.',
    required,
    properties: {
      dnsZoneRef: nameRefSchema(
        'The DnsZone (same namespace) whose zone holds the record; the record waits (Ready=False ReferenceNotReady) until that object has a status.dnsZoneId. Exactly one of dnsZoneRef and dnsZoneId.',
        'Name of the DnsZone.',
      ),
      dnsZoneId: idRef(
        'Id of the DNS zone that holds the record. A reference like dnsZoneRef: refused (ReferenceNotAllowed) when an object in another namespace manages that zone.',
      ),
      ...properties,
      pullZoneRef: nameRefSchema(
        'PullZone records: the PullZoneConfig (same namespace) whose pull zone the record links; the record waits (Ready=False ReferenceNotReady) until that object has a status.pullZoneId. Exactly one of pullZoneRef and pullZoneId.',
        'Name of the PullZoneConfig.',
      ),
      pullZoneId: idRef(
        'PullZone records: id of the pull zone the record links. A reference like pullZoneRef: refused (ReferenceNotAllowed) when an object in another namespace manages that zone.',
      ),
    },
    'x-kubernetes-validations': RULES,
  };
}

/** The DnsRecord schema (dnsrecords). */
export function dnsRecordSchema(docs: DocumentBounds): KindSchema {
  return managedKindSchema({
    description: 'One DNS record in a bunny.net DNS zone, managed by cdn-operator.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing record with this id in the zone (refused when another object manages it). The operator never creates a record when this is set. Immutable.',
    what: 'DNS record',
    nameField: 'spec.type and spec.name (and spec.value when set)',
    status: {
      description: 'Observed state of the DNS record.',
      conditions: 'Ready (the record matches the spec) and Synced (the last reconcile succeeded).',
      properties: {
        recordId: int64Schema('Id of the managed record.'),
        dnsZoneId: int64Schema('Id of the DNS zone that holds the record.'),
        type: stringSchema('Record type on the platform.'),
        name: stringSchema('Record name on the platform (`""`: the apex).'),
        value: stringSchema('Record value on the platform.'),
        acceleratedPullZoneId: int64Schema(
          'Id of the pull zone the platform created for this accelerated record (a PullZoneConfig of this namespace manages it with spec.pullZoneFrom).',
        ),
        accelerationStatus: stringSchema(
          'State of the acceleration: None, Pending, Processing, Completed or Failed.',
        ),
        monitorStatus: stringSchema('Result of the health monitor: Unknown, Online or Offline.'),
        linkedPullZoneId: int64Schema('PullZone records: id of the linked pull zone.'),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the record.', 'recordId'),
      { name: 'TYPE', type: 'string', description: 'Record type.', jsonPath: '.spec.type' },
      statusColumn('NAME', 'string', 'Record name.', 'name'),
      statusColumn('VALUE', 'string', 'Record value.', 'value'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = dnsRecordSchema;
