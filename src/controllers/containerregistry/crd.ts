/**
 * The ContainerRegistry CRD schema: the field table's properties (fields.ts) and the password
 * Secret's key; account, adoption and status fragments are shared with the other kinds.
 * Rendered by hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import {
  secretKeyRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { int64Schema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import { CONTAINER_REGISTRY_FIELDS } from './fields.js';
import type { KindPart } from '../kit/kind-parts.js';

function ownSpec(docs: DocumentBounds): Schema {
  const { properties, required } = schemaOf(CONTAINER_REGISTRY_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one container image registry of Magic Containers and the credentials the platform pulls images with.',
    required: [...required, 'passwordSecretRef'],
    properties: {
      ...properties,
      passwordSecretRef: secretKeyRefSchema(
        'Secret key in this namespace holding the registry password or access token. The operator reads it and never writes it. When the value changes the registry is updated once with the new password (rotation); status keeps only a fingerprint of the applied value.',
        'Key in the Secret whose value is the password, used exactly as stored.',
      ),
    },
  };
}

/** The ContainerRegistry schema (containerregistries). */
export const schema: KindPart<'schema'> = (docs: DocumentBounds): KindSchema => {
  return managedKindSchema({
    description: 'A Magic Containers image registry managed by cdn-operator.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing registry with this id (refused when another object manages it). The operator never creates a registry when this is set; the password Secret is taken to hold its current password. Immutable.',
    what: 'container registry',
    nameField: 'spec.name (or metadata.name)',
    status: {
      description: 'Observed state of the registry. The password is never shown here.',
      conditions:
        'Ready (the registry matches the spec) and Synced (the last reconcile succeeded).',
      properties: {
        registryId: int64Schema('Id of the managed registry (what a ContainerApp pulls from).'),
        name: stringSchema('Name of the registry on the platform.'),
        hostname: stringSchema('Host the platform pulls images from.'),
        username: stringSchema('User name of the registry credentials.'),
        passwordFingerprint: stringSchema(
          'sha256: digest of the object uid and the password last applied (or accepted at adoption). It only tells a rotation apart and cannot be turned back into the password.',
        ),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the registry.', 'registryId'),
      statusColumn('HOST', 'string', 'Registry host.', 'hostname'),
    ],
  });
};
