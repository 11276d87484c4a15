/**
 * The DnsRecord CRD schema: our own field descriptions; the record types, monitor types and
 * smart routing types are read from the official core document at generation time
 * (`DnsRecordTypes`, `DnsMonitoringType`, `DnsSmartRoutingType`), the value bounds are DNS's own
 * (the document states none). The per-type rules are CEL, each with a message naming the field.
 * Account, adoption and status fragments are shared with the other kinds.
 */
import { accountFragment } from '../shared/account-schema.js';
import {
  immutable,
  managedColumns,
  nameRefSchema,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';

const int = (minimum: number, maximum: number, description: string): Schema => ({
  type: 'integer',
  format: 'int32',
  minimum,
  maximum,
  description,
});

const only = (field: string, types: string[]): Schema => ({
  rule: `!has(self.${field}) || self.type in [${types.map((t) => `'${t}'`).join(', ')}]`,
  message: `${field} applies only to ${types.join(', ')} records`,
});

function memberProperties(docs: DocumentBounds): Record<string, Schema> {
  return {
    value: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description:
        'The record data, required for every type but PullZone and Script (whose value the platform fills in) unless the record is adopted (then it also selects the record adopted ByName; unset, the live value is kept): an IPv4 (A) or IPv6 (AAAA) address, a host name without trailing dot (CNAME, MX, Flatten, SRV, PTR, NS), any text (TXT), an http(s) URL (Redirect), the CA value (CAA), the RDATA (SVCB, HTTPS: `1 . alpn=h2`) or `usage selector matching-type hex` (TLSA).',
    },
    ttl: int(0, 2147483647, 'Time to live in seconds (platform default 300).'),
    weight: int(
      0,
      65535,
      'Weight for load balancing between records of the same name: 0..100 for A and AAAA, 0..65535 for SRV. Other types have none.',
    ),
    priority: int(0, 65535, 'Priority (MX and SRV records): lower is preferred.'),
    port: int(0, 65535, 'Target port (SRV records).'),
    flags: int(0, 255, 'Flags (CAA records; 128 marks the tag critical).'),
    tag: {
      type: 'string',
      pattern: '^[A-Za-z0-9]{1,15}$',
      description: 'Property tag (CAA records, required there): issue, issuewild, iodef, ...',
    },
    pullZoneRef: nameRefSchema(
      'PullZone records: the PullZoneConfig (same namespace) whose pull zone the record links; the record waits (Ready=False ReferenceNotReady) until that object has a status.pullZoneId. Exactly one of pullZoneRef and pullZoneId.',
      'Name of the PullZoneConfig.',
    ),
    pullZoneId: {
      type: 'integer',
      format: 'int64',
      minimum: 1,
      description:
        'PullZone records: id of the pull zone the record links. A reference like pullZoneRef: refused (ReferenceNotAllowed) when an object in another namespace manages that zone.',
    },
    scriptId: {
      type: 'integer',
      format: 'int64',
      minimum: 1,
      description: 'Script records (required there): id of the edge script the record runs.',
    },
    environmentVariables: {
      type: 'array',
      maxItems: 64,
      description: 'Script records: environment variables passed to the script, in order.',
      items: {
        type: 'object',
        required: ['name', 'value'],
        description: 'One environment variable.',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 256, description: 'Variable name.' },
          value: { type: 'string', maxLength: 4096, description: 'Variable value.' },
        },
      },
    },
    accelerated: {
      type: 'boolean',
      description:
        'A, AAAA and CNAME records: the platform puts a pull zone in front of the record value and serves the name through the CDN. The zone it creates is shown in status.acceleratedPullZoneId; a PullZoneConfig can adopt it explicitly with spec.pullZoneId. Turning this off, or deleting the record, removes that pull zone.',
    },
    smartRoutingType: {
      type: 'string',
      enum: docs.xEnumNames('core', 'DnsSmartRoutingType'),
      description:
        'Smart routing between records of the same name: None, Latency (needs latencyZone) or Geolocation (needs geolocationLatitude and geolocationLongitude).',
    },
    latencyZone: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'Latency routing: the region code this record serves (e.g. DE, NY).',
    },
    geolocationLatitude: {
      type: 'number',
      minimum: -90,
      maximum: 90,
      description: 'Geolocation routing: latitude of the location this record serves.',
    },
    geolocationLongitude: {
      type: 'number',
      minimum: -180,
      maximum: 180,
      description: 'Geolocation routing: longitude of the location this record serves.',
    },
    monitorType: {
      type: 'string',
      enum: docs.xEnumNames('core', 'DnsMonitoringType'),
      description:
        'Health monitoring of the record value (None, Ping, Http, Monitor); the platform reports the result in status.monitorStatus.',
    },
    disabled: { type: 'boolean', description: 'The record exists but is not served.' },
    comment: { type: 'string', maxLength: 1024, description: 'Free text kept with the record.' },
    autoSslIssuance: {
      type: 'boolean',
      description: 'Let the platform issue a certificate for the name automatically.',
    },
  };
}

const RULES: Schema[] = [
  {
    rule: 'has(self.zoneRef) != has(self.dnsZoneId)',
    message: 'set exactly one of zoneRef and dnsZoneId',
  },
  {
    rule: "self.type in ['PullZone', 'Script'] ? !has(self.value) : has(self.value) || has(self.recordId) || has(self.adoption)",
    message:
      'value is required (unless the record is adopted by recordId or adoption), and not allowed for PullZone and Script records, whose value the platform fills in',
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
  only('weight', ['A', 'AAAA', 'SRV']),
  {
    rule: "!has(self.weight) || self.type == 'SRV' || self.weight <= 100",
    message: 'weight of an A or AAAA record is 0..100',
  },
  only('priority', ['MX', 'SRV']),
  only('port', ['SRV']),
  only('flags', ['CAA']),
  only('tag', ['CAA']),
  { rule: "self.type != 'CAA' || has(self.tag)", message: 'a CAA record needs tag' },
  only('accelerated', ['A', 'AAAA', 'CNAME']),
  {
    rule: "has(self.smartRoutingType) && self.smartRoutingType == 'Latency' ? has(self.latencyZone) : !has(self.latencyZone)",
    message: 'latencyZone is required with smartRoutingType Latency and applies only there',
  },
  {
    rule: "has(self.smartRoutingType) && self.smartRoutingType == 'Geolocation' ? has(self.geolocationLatitude) && has(self.geolocationLongitude) : !has(self.geolocationLatitude) && !has(self.geolocationLongitude)",
    message:
      'geolocationLatitude and geolocationLongitude are required with smartRoutingType Geolocation and apply only there',
  },
  {
    rule: '!(has(self.recordId) && has(self.adoption))',
    message: 'set either recordId (adopt by id) or adoption (adopt by name), not both',
  },
];

function ownSpec(docs: DocumentBounds): Schema {
  return {
    type: 'object',
    description:
      'Desired state of one DNS record in a zone on the platform. Members left out are the platform’s to keep; the type is fixed.',
    required: ['type', 'name'],
    properties: {
      zoneRef: nameRefSchema(
        'The DnsZone (same namespace) whose zone holds the record; the record waits (Ready=False ReferenceNotReady) until that object has a status.dnsZoneId. Exactly one of zoneRef and dnsZoneId.',
        'Name of the DnsZone.',
      ),
      dnsZoneId: {
        type: 'integer',
        format: 'int64',
        minimum: 1,
        description:
          'Id of the DNS zone that holds the record. A reference like zoneRef: refused (ReferenceNotAllowed) when an object in another namespace manages that zone.',
      },
      type: {
        type: 'string',
        enum: docs.xEnumNames('core', 'DnsRecordTypes'),
        description: 'Record type. Immutable.',
        'x-kubernetes-validations': immutable('type'),
      },
      name: {
        type: 'string',
        maxLength: 253,
        pattern:
          '^(@|(\\*\\.)?([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*|\\*)?$',
        description:
          'Name relative to the zone, without the domain and without trailing dot (`www`, `_sip._tcp`); `""` or `@` is the apex, a leading `*` a wildcard.',
      },
      ...memberProperties(docs),
    },
    'x-kubernetes-validations': RULES,
  };
}

/** The DnsRecord schema (dnsrecords). */
export function dnsRecordSchema(docs: DocumentBounds): KindSchema {
  return {
    description: 'One DNS record in a bunny.net DNS zone, managed by cdn-operator.',
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs), [
      accountFragment(),
      adoptionIdFragment(
        'recordId',
        { type: 'integer', format: 'int64', minimum: 1 },
        'Adopt the existing record with this id in the zone (refused when another object manages it). The operator never creates a record when this is set. Immutable.',
      ),
      adoptionFragment('DNS record', 'spec.type and spec.name (and spec.value when set)'),
    ]),
    status: managedStatusSchema({
      description: 'Observed state of the DNS record.',
      resource: 'DNS record',
      conditions: 'Ready (the record matches the spec) and Synced (the last reconcile succeeded).',
      properties: {
        recordId: { type: 'integer', format: 'int64', description: 'Id of the managed record.' },
        dnsZoneId: {
          type: 'integer',
          format: 'int64',
          description: 'Id of the DNS zone that holds the record.',
        },
        type: { type: 'string', description: 'Record type on the platform.' },
        name: { type: 'string', description: 'Record name on the platform (`""`: the apex).' },
        value: { type: 'string', description: 'Record value on the platform.' },
        acceleratedPullZoneId: {
          type: 'integer',
          format: 'int64',
          description:
            'Id of the pull zone the platform created for this accelerated record (a PullZoneConfig can adopt it with spec.pullZoneId).',
        },
        accelerationStatus: {
          type: 'string',
          description: 'State of the acceleration: None, Pending, Processing, Completed or Failed.',
        },
        monitorStatus: {
          type: 'string',
          description: 'Result of the health monitor: Unknown, Online or Offline.',
        },
        linkedPullZoneId: {
          type: 'integer',
          format: 'int64',
          description: 'PullZone records: id of the linked pull zone.',
        },
      },
    }),
    columns: managedColumns(
      {
        name: 'ID',
        type: 'integer',
        description: 'Id of the record.',
        jsonPath: '.status.recordId',
      },
      { name: 'TYPE', type: 'string', description: 'Record type.', jsonPath: '.spec.type' },
      { name: 'NAME', type: 'string', description: 'Record name.', jsonPath: '.status.name' },
      { name: 'VALUE', type: 'string', description: 'Record value.', jsonPath: '.status.value' },
    ),
  };
}
