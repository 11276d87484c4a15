/**
 * The ContainerRegistry CRD schema: the field table's properties (fields.ts) and the password
 * Secret's key; account, adoption and status fragments are shared with the other kinds.
 * Rendered by hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import { accountFragment } from '../shared/account-schema.js';
import {
  managedColumns,
  secretKeyRefSchema,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { CONTAINER_REGISTRY_FIELDS } from './fields.js';

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
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.registryId) && has(self.adoption))',
        message: 'set either registryId (adopt by id) or adoption (adopt by name), not both',
      },
    ],
  };
}

/** The ContainerRegistry schema (containerregistries). */
export function containerRegistrySchema(docs: DocumentBounds): KindSchema {
  return {
    description: 'A Magic Containers image registry managed by cdn-operator.',
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs), [
      accountFragment(),
      adoptionIdFragment(
        'registryId',
        { type: 'integer', format: 'int64', minimum: 1 },
        'Adopt the existing registry with this id (refused when another object manages it). The operator never creates a registry when this is set; the password Secret is taken to hold its current password. Immutable.',
      ),
      adoptionFragment('container registry', 'spec.displayName (or metadata.name)'),
    ]),
    status: managedStatusSchema({
      description: 'Observed state of the registry. The password is never shown here.',
      resource: 'container registry',
      conditions:
        'Ready (the registry matches the spec) and Synced (the last reconcile succeeded).',
      properties: {
        registryId: {
          type: 'integer',
          format: 'int64',
          description: 'Id of the managed registry (what a ContainerApp pulls from).',
        },
        displayName: { type: 'string', description: 'Name of the registry on the platform.' },
        hostName: { type: 'string', description: 'Host the platform pulls images from.' },
        username: { type: 'string', description: 'User name of the registry credentials.' },
        passwordFingerprint: {
          type: 'string',
          description:
            'sha256: digest of the object uid and the password last applied (or accepted at adoption). It only tells a rotation apart and cannot be turned back into the password.',
        },
      },
    }),
    columns: managedColumns(
      {
        name: 'ID',
        type: 'integer',
        description: 'Id of the registry.',
        jsonPath: '.status.registryId',
      },
      { name: 'HOST', type: 'string', description: 'Registry host.', jsonPath: '.status.hostName' },
    ),
  };
}
