/**
 * The StorageZone CRD schema: our own field descriptions, with the region codes and tier names
 * read from the official core document at generation time (`StorageZoneModelAdd`: the region
 * lists sit in the property descriptions, the tiers in the `StorageZoneTier` enum), so the CRD
 * cannot drift from what the platform accepts. Account, adoption and status fragments are
 * shared with the other kinds. Rendered by hack/generate-crds.ts.
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

function ownSpec(docs: DocumentBounds): Schema {
  const mainRegions = docs.listedValues('core', 'StorageZoneModelAdd.Region');
  const replicaRegions = docs.listedValues('core', 'StorageZoneModelAdd.ReplicationRegions');
  return {
    type: 'object',
    description:
      'Desired state of one storage zone. Name, region and tier are fixed when the zone is created; replication regions can only be added.',
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9-]+$',
        description:
          'Name of the storage zone (defaults to metadata.name): letters, digits and dashes. Storage zone names are unique across the whole platform: the operator checks the name before creating and reports Synced=False NameTaken when it is not available, unless spec.adoption asks to adopt a zone of this account. Immutable.',
        'x-kubernetes-validations': immutable('name'),
      },
      region: {
        type: 'string',
        enum: mainRegions,
        description:
          'Code of the main storage region. Required to create a zone; may be left out when adopting (status.region shows the live one). Immutable.',
        'x-kubernetes-validations': immutable('region'),
      },
      replicationRegions: {
        type: 'array',
        description:
          'Regions the files are replicated to. The platform can add a replication region but never remove one, so entries can only be added here; live regions not listed are left in place.',
        maxItems: replicaRegions.length,
        'x-kubernetes-list-type': 'set',
        items: { type: 'string', enum: replicaRegions },
        'x-kubernetes-validations': [
          {
            rule: 'oldSelf.all(r, r in self)',
            message: 'replication regions can only be added: the platform cannot remove one',
          },
        ],
      },
      zoneTier: {
        type: 'string',
        enum: docs.xEnumNames('core', 'StorageZoneTier'),
        description:
          'Storage tier the files are kept on: Standard, or Edge (the faster tier). Unset means the platform default, Standard. Immutable.',
        'x-kubernetes-validations': immutable('zoneTier'),
      },
      storageZoneType: {
        type: 'string',
        enum: docs.xEnumNames('core', 'StorageZoneS3Type'),
        description:
          'S3 support: Supported creates a zone that also answers the S3-compatible API (its endpoint is in status.s3Hostname and the password Secret). Unset means NotSupported. Set at creation only. Immutable.',
        'x-kubernetes-validations': immutable('storageZoneType'),
      },
      passwordSecretRef: nameRefSchema(
        "The Secret (same namespace) this resource creates and owns, holding the zone's password, readOnlyPassword, hostname (storage endpoint), storageZoneName, storageZoneId and region. Default name: <metadata.name>-storagezone. An existing Secret not owned by this resource is never touched (status condition OutputsReady=False SecretNotOwned).",
        'Name of the Secret.',
      ),
      rewrite404To200: {
        type: 'boolean',
        description:
          'Answer a request for a missing file whose URL has no extension with 200 instead of 404 (single-page applications).',
      },
      custom404FilePath: {
        type: 'string',
        maxLength: 1024,
        description: 'Path of the file in the zone served when a requested file does not exist.',
      },
    },
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.storageZoneId) && has(self.adoption))',
        message: 'set either storageZoneId (adopt by id) or adoption (adopt by name), not both',
      },
      {
        rule: 'has(self.region) || has(self.storageZoneId) || has(self.adoption)',
        message: 'region is required unless the zone is adopted (storageZoneId or adoption)',
      },
      {
        rule: '!has(self.region) || !has(self.replicationRegions) || !(self.region in self.replicationRegions)',
        message: 'the main region cannot also be a replication region',
      },
    ],
  };
}

/** The StorageZone schema (storagezones). */
export function storageZoneSchema(docs: DocumentBounds): KindSchema {
  return {
    description: 'A bunny.net storage zone managed by cdn-operator.',
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs), [
      accountFragment(),
      adoptionIdFragment(
        'storageZoneId',
        { type: 'integer', format: 'int64', minimum: 1 },
        'Adopt the existing storage zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
      ),
      adoptionFragment('storage zone', 'spec.name (or metadata.name)'),
    ]),
    status: managedStatusSchema({
      description: 'Observed state of the storage zone. Passwords are never shown here.',
      resource: 'storage zone',
      conditions:
        'Ready (the zone matches the spec), Synced (the last reconcile succeeded) and OutputsReady (the password Secret is written).',
      properties: {
        storageZoneId: {
          type: 'integer',
          format: 'int64',
          description: 'Id of the managed storage zone.',
        },
        name: { type: 'string', description: 'Name of the zone on the platform.' },
        region: { type: 'string', description: 'Main region of the zone.' },
        replicationRegions: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Replication regions of the zone on the platform (including any not in the spec).',
        },
        zoneTier: { type: 'string', description: 'Storage tier of the zone.' },
        hostname: { type: 'string', description: 'Storage API and FTP endpoint of the zone.' },
        s3Hostname: {
          type: 'string',
          description: 'S3-compatible endpoint (zones with S3 support only).',
        },
        replicationChangeInProgress: {
          type: 'boolean',
          description: 'The platform is still adding a replication region.',
        },
      },
    }),
    columns: managedColumns(
      {
        name: 'ID',
        type: 'integer',
        description: 'Id of the storage zone.',
        jsonPath: '.status.storageZoneId',
      },
      { name: 'REGION', type: 'string', description: 'Main region.', jsonPath: '.status.region' },
      {
        name: 'HOSTNAME',
        type: 'string',
        description: 'Storage endpoint.',
        jsonPath: '.status.hostname',
      },
    ),
  };
}
