/**
 * The PullZoneConfig CustomResourceDefinition as data. `hack/generate-crds.ts` renders it to
 * `crds/cdn.operator.io_pullzoneconfigs.yaml`; a unit test keeps the committed file equal to
 * this output.
 */
import { secretKeyRefSchema, settingsSchema, type Schema } from './settings-schema.js';
import { GROUP, KIND, PLURAL, VERSION } from './types.js';
import {
  adoptionSchema,
  deletionPolicySchema,
  ownershipStatusSchema,
} from '../shared/ownership-schema.js';
import {
  ACCOUNT_REF_SCHEMA,
  ACCOUNT_XOR_CREDENTIALS_RULE,
  CREDENTIALS_REF_DESCRIPTION,
} from '../shared/account-schema.js';
// ---- issue 19 (edge rules, purge): fields kept in their own modules ----
import { EDGE_RULE_SPEC_PROPERTIES, EDGE_RULE_STATUS_PROPERTIES } from './edge-rules-schema.js';
import {
  ZONE_NAME_MAX,
  ZONE_NAME_PATTERN,
  ZONE_NAME_RULE,
  ZONE_NAME_RULES,
} from './zone-name-rules.js';

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
        secretRef: {
          type: 'object',
          description:
            'A kubernetes.io/tls Secret in the same namespace (tls.crt, tls.key); required for Custom. When its content changes (e.g. renewed by cert-manager) the certificate is uploaded again.',
          required: ['name'],
          properties: { name: { type: 'string', minLength: 1, maxLength: 253 } },
        },
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
      enum: ['Ecdsa', 'Rsa'],
      description:
        'Key type of certificates the platform issues for this hostname. Left unmanaged when unset.',
    },
  },
};

const specSchema: Schema = {
  type: 'object',
  description: 'Desired state of one pull zone.',
  properties: {
    accountRef: ACCOUNT_REF_SCHEMA,
    credentialsRef: {
      ...secretKeyRefSchema(CREDENTIALS_REF_DESCRIPTION),
      required: ['name'],
    },
    pullZoneId: {
      type: 'integer',
      format: 'int64',
      minimum: 1,
      description:
        'Adopt the existing pull zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'pullZoneId is immutable' }],
    },
    name: {
      type: 'string',
      minLength: 1,
      maxLength: ZONE_NAME_MAX,
      pattern: ZONE_NAME_PATTERN,
      description: `Name of the pull zone (defaults to metadata.name): ${ZONE_NAME_RULE}. Pull zone names are unique on the platform: the operator creates the zone, and when the name is taken it reports Synced=False NameTaken and changes nothing, unless spec.adoption asks to adopt it. Immutable: it cannot be added, changed or removed after creation.`,
    },
    adoption: adoptionSchema('pull zone', 'spec.name (or metadata.name)'),
    deletionPolicy: deletionPolicySchema('pull zone'),
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
    writeOutputsTo: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description:
        'Name of a Secret (same namespace, owned by this resource) that receives pullZoneId, cdnHostname and hostnames for wiring other workloads.',
    },
    storageZoneRef: {
      type: 'object',
      description:
        'Serve the files of a StorageZone in this namespace: sets the origin type to StorageZone and the storage zone id from its status (settings.originType and settings.storageZoneId must then be left out). The zone waits (Ready=False ReferenceNotReady) until the StorageZone has an id.',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          description: 'Name of the StorageZone.',
        },
      },
    },
    // ---- issue 19 block: edge rules and purge ----
    ...EDGE_RULE_SPEC_PROPERTIES,
  },
  'x-kubernetes-validations': [
    {
      rule: '!has(self.storageZoneRef) || !has(self.settings) || (!has(self.settings.originType) && !has(self.settings.storageZoneId))',
      message:
        'storageZoneRef sets the origin: leave settings.originType and settings.storageZoneId out',
    },
    {
      rule: '!(has(self.pullZoneId) && has(self.name))',
      message: 'set either pullZoneId (adopt by id) or name, not both',
    },
    {
      rule: '!(has(self.pullZoneId) && has(self.adoption))',
      message: 'set either pullZoneId (adopt by id) or adoption (adopt by name), not both',
    },
    ACCOUNT_XOR_CREDENTIALS_RULE as { rule: string; message: string },
  ],
};

const conditionSchema: Schema = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string' },
    message: { type: 'string' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', format: 'int64' },
  },
};

const statusSchema: Schema = {
  type: 'object',
  description: 'Observed state of the pull zone.',
  properties: {
    pullZoneId: { type: 'integer', format: 'int64', description: 'Id of the managed pull zone.' },
    cdnHostname: {
      type: 'string',
      description: 'System hostname of the zone (<name>.b-cdn.net); target of CNAME records.',
    },
    hostnames: {
      type: 'array',
      description: 'Custom hostnames on the zone and their certificate state.',
      items: {
        type: 'object',
        required: ['hostname'],
        properties: {
          hostname: { type: 'string' },
          addedByOperator: { type: 'boolean', description: 'This resource added the hostname.' },
          forceSSL: { type: 'boolean' },
          certificate: {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['Free', 'Custom', 'None'] },
              state: { type: 'string', enum: ['Issued', 'Pending', 'None'] },
              secretHash: {
                type: 'string',
                description: 'sha256 of the uploaded certificate and key.',
              },
              requestedAt: { type: 'string', format: 'date-time' },
            },
          },
        },
      },
    },
    writeOnlySettings: {
      type: 'object',
      description: 'Hashes of settings the platform does not return, as last written.',
      additionalProperties: { type: 'string' },
    },
    outputsHash: {
      type: 'string',
      description: 'Hash of the outputs Secret content last written.',
    },
    ownership: ownershipStatusSchema,
    // ---- issue 19 block: edge rules and purge ----
    ...EDGE_RULE_STATUS_PROPERTIES,
    conditions: {
      type: 'array',
      items: conditionSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    },
    observedGeneration: { type: 'integer', format: 'int64' },
    lastSyncTime: { type: 'string', format: 'date-time' },
    plannedChanges: {
      type: 'array',
      description: 'API fields that differ from the spec (drift, or the plan of a dry-run).',
      items: {
        type: 'object',
        required: ['field'],
        properties: {
          field: { type: 'string' },
          live: { type: 'string' },
          desired: { type: 'string' },
        },
      },
    },
  },
};

/** The full CustomResourceDefinition object. */
export function buildPullZoneConfigCrd(): Schema {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: KIND.toLowerCase(),
        shortNames: ['pzc'],
        categories: ['cdn'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            {
              name: 'READY',
              type: 'string',
              jsonPath: ".status.conditions[?(@.type=='Ready')].status",
            },
            {
              name: 'SYNCED',
              type: 'string',
              jsonPath: ".status.conditions[?(@.type=='Synced')].status",
            },
            { name: 'ID', type: 'integer', jsonPath: '.status.pullZoneId' },
            { name: 'CDN-HOSTNAME', type: 'string', jsonPath: '.status.cdnHostname' },
            { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A bunny.net pull zone (CDN delivery zone) managed by cdn-operator.',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: specSchema,
                status: statusSchema,
              },
              'x-kubernetes-validations': ZONE_NAME_RULES,
            },
          },
        },
      ],
    },
  };
}
