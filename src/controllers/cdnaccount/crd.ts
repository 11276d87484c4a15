/** The CdnAccount CRD schema (cluster-scoped). Rendered by hack/generate-crds.ts. */
import { DEFAULT_ACCOUNT_KEY } from './types.js';
import { readyColumns, type KindSchema, type Schema } from '../shared/crd-schema.js';
import { listSchema, objectSchema } from '../shared/schema-nodes.js';
import { conditionsSchema } from '../shared/status-schema.js';
import type { KindPart } from '../kit/kind-parts.js';

const LABEL_SELECTOR: Schema = {
  type: 'object',
  description:
    'Namespaces allowed to use this account, by their labels (a standard label selector). Empty or absent selects NO namespace: the account is closed until opened. To open it to every namespace, use matchExpressions [{key: kubernetes.io/metadata.name, operator: Exists}].',
  properties: {
    matchLabels: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Labels a namespace must have, with these values.',
    },
    matchExpressions: listSchema(
      'Conditions on the labels of a namespace; every one must hold.',
      objectSchema(
        {
          key: { type: 'string', minLength: 1, description: 'The label key.' },
          operator: {
            type: 'string',
            enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'],
            description:
              'In / NotIn: the label value is (not) one of values. Exists / DoesNotExist: the namespace has (not) the label.',
          },
          values: {
            type: 'array',
            items: { type: 'string' },
            description: 'Label values for In and NotIn; empty for Exists and DoesNotExist.',
          },
        },
        { required: ['key', 'operator'] },
      ),
    ),
  },
  'x-kubernetes-map-type': 'atomic',
};

const SPEC: Schema = {
  type: 'object',
  description: 'Where the API key is and which namespaces may use it.',
  required: ['secretRef'],
  properties: {
    secretRef: {
      type: 'object',
      description:
        "Secret in the operator's namespace holding the API key. Tenants never read it; the operator reads only this Secret of its own namespace.",
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 253, description: 'Secret name.' },
        key: {
          type: 'string',
          minLength: 1,
          description: `Key inside the Secret data (defaults to ${DEFAULT_ACCOUNT_KEY}).`,
        },
        namespace: {
          type: 'string',
          maxLength: 63,
          pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
          description:
            'The operator namespace that serves this account (the release whose --operator-namespace it is). Set it when several operator releases share the cluster: the others then neither use the account nor write its status. Unset: every operator reads the Secret in its own namespace.',
        },
      },
    },
    namespaceSelector: LABEL_SELECTOR,
  },
};

/** The CdnAccount schema (cdnaccounts). */
export function cdnAccountSchema(): KindSchema {
  return {
    description:
      'A bunny.net account (API key) and the namespaces allowed to use it. Cluster-scoped: only cluster admins create CdnAccounts.',
    requireSpec: true,
    spec: SPEC,
    status: {
      type: 'object',
      description: 'Observed state of the account, written by the operator.',
      properties: {
        conditions: conditionsSchema('Ready: the credentials Secret and its key resolve.'),
      },
    },
    columns: readyColumns({ name: 'SECRET', type: 'string', jsonPath: '.spec.secretRef.name' }),
  };
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = cdnAccountSchema;
