/**
 * The PullZoneConfig CRD schema: the settings come from the field table (fields.ts through
 * settings-schema.ts), edge rules and purge from edge-rules-schema.ts, the zone name rules from
 * zone-name-rules.ts; account, adoption and status fragments are shared with the other kinds.
 * Rendered by hack/generate-crds.ts.
 */
import {
  managedColumns,
  nameRefSchema,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedSpec } from '../shared/managed-spec.js';
import { booleanSchema, listSchema, objectSchema, stringSchema } from '../shared/schema-nodes.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { EDGE_RULE_SPEC_PROPERTIES, EDGE_RULE_STATUS_PROPERTIES } from './edge-rules-schema.js';
import { PRIVATE_KEY_TYPES } from '../shared/private-key-type.js';
import { settingsSchema } from './settings-schema.js';
import {
  ZONE_NAME_MAX,
  ZONE_NAME_PATTERN,
  ZONE_NAME_RULE,
  ZONE_NAME_RULES,
} from './zone-name-rules.js';
import type { KindPart } from '../kit/kind-parts.js';
import { linkSpecRules, linkSpecSchema, linkStatusSchema } from '../kit/link-schema.js';
import { OWNER_FIXED_REFS, OWNER_FIXED_SETTINGS, PULL_ZONE_LINK } from './pull-zone-from.js';

const HOSTNAME_PATTERN =
  '^(\\*\\.)?([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}$';

const hostnameItem: Schema = {
  type: 'object',
  required: ['hostname'],
  properties: {
    hostname: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      pattern: HOSTNAME_PATTERN,
      description: 'Custom hostname served by the zone (point a CNAME at status.cdnHostname).',
    },
    forceSSL: {
      type: 'boolean',
      description:
        'Redirect plain HTTP requests for this hostname to HTTPS. Left unmanaged when unset.',
    },
    certificate: {
      type: 'object',
      description: 'TLS certificate of the hostname. Left unmanaged when unset.',
      required: ['type'],
      properties: {
        type: {
          type: 'string',
          enum: ['Free', 'Custom'],
          description:
            'Free: a certificate issued by the platform. Custom: the certificate and key of secretRef.',
        },
        secretRef: nameRefSchema(
          'A kubernetes.io/tls Secret in the same namespace (tls.crt, tls.key); required for Custom. When its content changes (e.g. renewed by cert-manager) the certificate is uploaded again.',
          'Name of the Secret.',
        ),
      },
      'x-kubernetes-validations': [
        {
          rule: "self.type != 'Custom' || has(self.secretRef)",
          message: 'certificate.secretRef is required when certificate.type is Custom',
        },
        {
          rule: "self.type != 'Free' || !has(self.secretRef)",
          message: 'certificate.secretRef must not be set when certificate.type is Free',
        },
      ],
    },
    privateKeyType: {
      type: 'string',
      enum: [...PRIVATE_KEY_TYPES],
      description:
        'Key type of certificates the platform issues for this hostname: ECDSA or RSA. Left unmanaged when unset.',
    },
  },
};

const ownSpec: Schema = {
  type: 'object',
  description: 'Desired state of one pull zone.',
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: ZONE_NAME_MAX,
      pattern: ZONE_NAME_PATTERN,
      description: `Name of the pull zone (defaults to metadata.name): ${ZONE_NAME_RULE}. Pull zone names are unique on the platform: the operator creates the zone, and when the name is taken it reports Synced=False NameTaken and changes nothing, unless spec.adoption asks to adopt it. Immutable: it cannot be added, changed or removed after creation.`,
    },
    hostnamePolicy: {
      type: 'string',
      enum: ['Additive', 'Exact'],
      default: 'Additive',
      description:
        'Additive: only hostnames this resource added are removed when dropped from spec.hostnames. Exact: every custom hostname not listed is removed.',
    },
    settings: settingsSchema(),
    hostnames: {
      type: 'array',
      description: 'Custom hostnames of the zone with their certificate and HTTPS redirect.',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['hostname'],
      items: hostnameItem,
    },
    outputSecretRef: nameRefSchema(
      'A Secret (same namespace, created and owned by this resource) that receives pullZoneId, cdnHostname and hostnames for wiring other workloads.',
      'Name of the Secret.',
    ),
    storageZoneRef: nameRefSchema(
      'Serve the files of a StorageZone in this namespace: sets the origin type to StorageZone and the storage zone id from its status (settings.originType and settings.storageZoneId must then be left out). The zone waits (Ready=False ReferenceNotReady) until the StorageZone has an id.',
      'Name of the StorageZone.',
    ),
    edgeScriptRef: nameRefSchema(
      'Serve the zone from a Standalone EdgeScript in this namespace: sets the origin type to EdgeScript and the edge script id from its status (settings.originType and settings.edgeScriptId must then be left out). The zone waits (Ready=False ReferenceNotReady) until the EdgeScript has an id; a Middleware script is refused (InvalidSpec).',
      'Name of the EdgeScript.',
    ),
    middlewareScriptRef: nameRefSchema(
      'Run a Middleware EdgeScript in this namespace in front of the origin: sets the middleware script id from its status (settings.middlewareScriptId must then be left out). The zone waits (Ready=False ReferenceNotReady) until the EdgeScript has an id; a Standalone script is refused (InvalidSpec).',
      'Name of the EdgeScript.',
    ),
    pullZoneFrom: linkSpecSchema(
      PULL_ZONE_LINK,
      "Manage the pull zone the platform made for another object of this namespace (an accelerated DnsRecord, a ContainerApp CDN endpoint, a Standalone EdgeScript) instead of creating one: its settings, hostnames, certificates and edge rules. The zone id is read from the owner's status; until the owner reports one the object waits (Ready=False ReferenceNotReady). The zone is never created or deleted by this object: deleting it leaves the zone to its owner, and once the owner no longer reports the zone the object reports Synced=False LinkedZoneGone. The owner sets the origin and the name: spec.name, spec.adoption, the origin settings (originType, originUrl, storageZoneId, edgeScriptId, magicContainersAppId, magicContainersEndpointId) and references (storageZoneRef, edgeScriptRef) must be left out, and deletionPolicy may only be Orphan. Immutable.",
    ),
    ...EDGE_RULE_SPEC_PROPERTIES,
  },
  'x-kubernetes-validations': [
    ...linkSpecRules(PULL_ZONE_LINK),
    {
      rule: '!has(self.pullZoneFrom) || !has(self.name)',
      message: 'pullZoneFrom: the zone keeps the name its owner gave it: leave name out',
    },
    {
      rule: `!has(self.pullZoneFrom) || (${OWNER_FIXED_REFS.map((r) => `!has(self.${r})`).join(' && ')} && (!has(self.settings) || (${OWNER_FIXED_SETTINGS.map((k) => `!has(self.settings.${k})`).join(' && ')})))`,
      message: `pullZoneFrom: the owner sets the zone's origin: leave ${[...OWNER_FIXED_SETTINGS.map((k) => `settings.${k}`), ...OWNER_FIXED_REFS].join(', ')} out`,
    },
    {
      rule: '!has(self.storageZoneRef) || !has(self.settings) || (!has(self.settings.originType) && !has(self.settings.storageZoneId))',
      message:
        'storageZoneRef sets the origin: leave settings.originType and settings.storageZoneId out',
    },
    {
      rule: '!has(self.edgeScriptRef) || !has(self.settings) || (!has(self.settings.originType) && !has(self.settings.edgeScriptId))',
      message:
        'edgeScriptRef sets the origin: leave settings.originType and settings.edgeScriptId out',
    },
    {
      rule: '!(has(self.edgeScriptRef) && has(self.storageZoneRef))',
      message: 'set at most one origin reference: edgeScriptRef or storageZoneRef',
    },
    {
      rule: '!has(self.middlewareScriptRef) || !has(self.settings) || !has(self.settings.middlewareScriptId)',
      message: 'set either middlewareScriptRef or settings.middlewareScriptId, not both',
    },
    {
      rule: '!(has(self.adoption) && has(self.adoption.id) && has(self.name))',
      message: 'set either adoption.id (adopt by id) or name, not both',
    },
  ],
};

const CERTIFICATE_STATUS: Schema = {
  type: 'object',
  description: 'Certificate of the hostname on the platform.',
  properties: {
    type: {
      type: 'string',
      enum: ['Free', 'Custom', 'None'],
      description: 'Free (issued by the platform), Custom (uploaded) or None.',
    },
    state: {
      type: 'string',
      enum: ['Issued', 'Pending', 'None'],
      description:
        'Issued, Pending (a free certificate was requested and is not issued yet) or None.',
    },
    secretHash: {
      type: 'string',
      description: 'sha256 of the uploaded certificate and key.',
    },
    lastRequestTime: {
      type: 'string',
      format: 'date-time',
      description: 'When a free certificate was last requested.',
    },
    dnsRefusals: {
      type: 'integer',
      format: 'int32',
      minimum: 0,
      description:
        "Consecutive free certificate requests the platform refused because the hostname's DNS does not point at the pull zone yet; the request is repeated after 30 s, doubling up to 5 min. Absent once a request is accepted.",
    },
  },
};

const OWN_STATUS: Record<string, Schema> = {
  pullZoneId: { type: 'integer', format: 'int64', description: 'Id of the managed pull zone.' },
  linkedFrom: linkStatusSchema(PULL_ZONE_LINK),
  cdnHostname: {
    type: 'string',
    description: 'System hostname of the zone (<name>.b-cdn.net); target of CNAME records.',
  },
  hostnames: listSchema(
    'Custom hostnames on the zone and their certificate state.',
    objectSchema(
      {
        hostname: stringSchema('The custom hostname.'),
        addedByOperator: booleanSchema('This resource added the hostname.'),
        forceSSL: booleanSchema('Plain HTTP requests for the hostname are redirected to HTTPS.'),
        certificate: CERTIFICATE_STATUS,
      },
      { required: ['hostname'] },
    ),
  ),
  writeOnlySettings: {
    type: 'object',
    description: 'Hashes of settings the platform does not return, as last written.',
    additionalProperties: { type: 'string' },
  },
  outputsHash: {
    type: 'string',
    description: 'Hash of the outputs Secret content last written.',
  },
  ...EDGE_RULE_STATUS_PROPERTIES,
};

/** The PullZoneConfig schema (pullzoneconfigs). */
export function pullZoneConfigSchema(): KindSchema {
  return {
    description: 'A bunny.net pull zone (CDN delivery zone) managed by cdn-operator.',
    categories: ['cdn'],
    rules: ZONE_NAME_RULES,
    spec: managedSpec(ownSpec, {
      idDescription:
        'Adopt the existing pull zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
      what: 'pull zone',
      nameField: 'spec.name (or metadata.name)',
    }),
    status: managedStatusSchema({
      description: 'Observed state of the pull zone.',
      resource: 'pull zone',
      conditions:
        'Ready (the zone matches the spec), Synced (the last reconcile succeeded) and OutputsReady (the outputs Secret is written, when spec.outputSecretRef is set).',
      properties: OWN_STATUS,
    }),
    columns: managedColumns(
      { name: 'ID', type: 'integer', jsonPath: '.status.pullZoneId' },
      { name: 'CDN-HOSTNAME', type: 'string', jsonPath: '.status.cdnHostname' },
    ),
  };
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = pullZoneConfigSchema;
