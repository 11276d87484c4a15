/**
 * The VideoLibrary CRD schema: the field table's properties (fields.ts) and the outputs Secret;
 * account, adoption and status fragments are shared with the other kinds. Rendered by
 * hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import {
  nameRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { int64Schema, objectSchema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import { VIDEO_LIBRARY_FIELDS } from './fields.js';
import { KEY_RESET_ANNOTATIONS } from './keys.js';
import type { KindPart } from '../kit/kind-parts.js';

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(VIDEO_LIBRARY_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one video library: encoding, player, captions, transcription, security and DRM settings. The platform gives every library its own pull zone and storage zone (their ids and hostnames are in status).',
    ...(required.length > 0 ? { required } : {}),
    properties: {
      ...properties,
      outputSecretRef: nameRefSchema(
        `A Secret (same namespace, created and owned by this resource) that receives the library's apiKey and readOnlyApiKey, libraryId, pullZoneId and cdnHostname. Written only when set. An existing Secret not owned by this resource is never touched (status condition OutputsReady=False SecretNotOwned). Reset a key by setting the annotation ${KEY_RESET_ANNOTATIONS.apiKey} (or ${KEY_RESET_ANNOTATIONS.readOnlyApiKey}) to a new value.`,
        'Name of the Secret.',
      ),
    },
  };
}

/** The VideoLibrary schema (videolibraries). */
export function videoLibrarySchema(docs: DocumentBounds): KindSchema {
  return managedKindSchema({
    description:
      'A Stream video library managed by cdn-operator, with the pull zone and storage zone the platform creates for it.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing library with this id (refused when another object manages it). The operator never creates a library when this is set. Immutable.',
    what: 'video library',
    nameField: 'spec.name (or metadata.name)',
    status: {
      description: 'Observed state of the library. The API keys are never shown here.',
      conditions:
        'Ready (the library matches the spec), Synced (the last reconcile succeeded) and OutputsReady (the outputs Secret is written, when spec.outputSecretRef is set).',
      properties: {
        libraryId: int64Schema('Id of the managed library.'),
        name: stringSchema('Name of the library on the platform.'),
        pullZoneId: int64Schema(
          "Id of the library's pull zone (a PullZoneConfig may manage its hostnames and rules).",
        ),
        pullZoneHostname: stringSchema(
          "The pull zone's CDN hostname: where the videos are served.",
        ),
        storageZoneId: int64Schema("Id of the library's storage zone."),
        storageZoneHostname: stringSchema("Storage endpoint of the library's storage zone."),
        replicationRegions: {
          type: 'array',
          items: { type: 'string' },
          description: "Replication regions of the library's storage zone.",
        },
        keyReset: objectSchema(
          {
            apiKey: stringSchema('The last API key reset handled: its annotation value.'),
            readOnlyApiKey: stringSchema(
              'The last read-only API key reset handled: its annotation value.',
            ),
          },
          { description: 'Key resets handled (never the keys).' },
        ),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the library.', 'libraryId'),
      statusColumn('PULLZONE', 'integer', "Id of the library's pull zone.", 'pullZoneId'),
      statusColumn('HOSTNAME', 'string', 'CDN hostname of the videos.', 'pullZoneHostname'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = videoLibrarySchema;
