/**
 * The StorageZone CRD schema: the field table's properties (fields.ts), the password Secret's
 * name and the rules across fields; account, adoption and status fragments are shared with the
 * other kinds. Rendered by hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import {
  nameRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { booleanSchema, int64Schema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import { STORAGE_ZONE_FIELDS } from './fields.js';
import type { KindPart } from '../kit/kind-parts.js';

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(STORAGE_ZONE_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one storage zone. Name, region and tier are fixed when the zone is created; replication regions can only be added.',
    ...(required.length > 0 ? { required } : {}),
    properties: {
      ...properties,
      outputSecretRef: nameRefSchema(
        "The Secret (same namespace) this resource creates and owns, holding the zone's password, readOnlyPassword, hostname (storage endpoint), storageZoneName, storageZoneId and region. Default name: <metadata.name>-storagezone. An existing Secret not owned by this resource is never touched (status condition OutputsReady=False SecretNotOwned).",
        'Name of the Secret.',
      ),
    },
    'x-kubernetes-validations': [
      {
        rule: 'has(self.region) || has(self.adoption)',
        message: 'region is required unless the zone is adopted (adoption)',
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
  return managedKindSchema({
    description: 'A bunny.net storage zone managed by cdn-operator.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing storage zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
    what: 'storage zone',
    nameField: 'spec.name (or metadata.name)',
    status: {
      description: 'Observed state of the storage zone. Passwords are never shown here.',
      conditions:
        'Ready (the zone matches the spec), Synced (the last reconcile succeeded) and OutputsReady (the password Secret is written).',
      properties: {
        storageZoneId: int64Schema('Id of the managed storage zone.'),
        name: stringSchema('Name of the zone on the platform.'),
        region: stringSchema('Main region of the zone.'),
        replicationRegions: {
          type: 'array',
          items: { type: 'string' },
          description:
            'Replication regions of the zone on the platform (including any not in the spec).',
        },
        zoneTier: stringSchema('Storage tier of the zone.'),
        hostname: stringSchema('Storage API and FTP endpoint of the zone.'),
        s3Hostname: stringSchema('S3-compatible endpoint (zones with S3 support only).'),
        replicationChangeInProgress: booleanSchema(
          'The platform is still adding a replication region.',
        ),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the storage zone.', 'storageZoneId'),
      statusColumn('REGION', 'string', 'Main region.', 'region'),
      statusColumn('HOSTNAME', 'string', 'Storage endpoint.', 'hostname'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = storageZoneSchema;
