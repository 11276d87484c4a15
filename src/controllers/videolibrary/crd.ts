/**
 * The VideoLibrary CRD schema: the field table's properties (fields.ts) and the outputs Secret;
 * account, adoption and status fragments are shared with the other kinds. Rendered by
 * hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import { MAX_WATERMARK_BYTES } from '../../cdn/video-libraries.js';
import {
  keyRefSchema,
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

/** `spec.watermark.image`: exactly one source (watermark-source.ts). */
function imageSchema(): Schema {
  return {
    type: 'object',
    description: `The watermark image, uploaded to the library when its content changes (the platform has no read of it: status.watermark records a digest of what was uploaded). Exactly one of configMapKeyRef, secretKeyRef and url. A PNG, JPEG, GIF or WebP image of at most ${MAX_WATERMARK_BYTES} bytes. Removing it removes the image the operator uploaded.`,
    minProperties: 1,
    maxProperties: 1,
    properties: {
      configMapKeyRef: keyRefSchema(
        'ConfigMap',
        'The image from a key of a ConfigMap in the same namespace (binaryData or data); a change of the ConfigMap uploads the new image.',
      ),
      secretKeyRef: keyRefSchema(
        'Secret',
        'The image from a key of a Secret in the same namespace; a change of the Secret uploads the new image. Its content is never shown (status keeps a fingerprint salted with this object).',
      ),
      url: {
        type: 'string',
        maxLength: 2048,
        pattern: '^https://',
        description:
          'The image from an https URL the operator fetches once per change of the URL (change the URL to publish new content). Refused: addresses that are not public (loopback, private, link-local, metadata), redirects, bodies over the limit; and every URL when the operator runs with --disable-url-sources.',
      },
    },
  };
}

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(VIDEO_LIBRARY_FIELDS, docs);
  const watermark = properties.watermark as Schema & { properties: Record<string, Schema> };
  watermark.properties = { ...watermark.properties, image: imageSchema() };
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
        watermark: objectSchema(
          {
            source: {
              type: 'string',
              enum: ['ConfigMap', 'Secret', 'URL'],
              description: 'Where the uploaded image came from.',
            },
            imageSha256: stringSchema(
              'Hex SHA-256 of the uploaded image (ConfigMap and URL sources).',
            ),
            imageFingerprint: stringSchema(
              "Fingerprint of the uploaded image, salted with this object's uid (a Secret source: says nothing of the Secret).",
            ),
            bytes: int64Schema('Size of the uploaded image in bytes (ConfigMap and URL sources).'),
            url: stringSchema('The URL the image was fetched from (a URL source).'),
            version: int64Schema(
              "The library's WatermarkVersion after the upload; another version on the platform means the image was replaced there, and it is uploaded again.",
            ),
          },
          { description: 'The watermark image the operator uploaded (never the image itself).' },
        ),
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
