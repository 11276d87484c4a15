/**
 * Every CRD schema fragment about accounts and credentials, in one place: the CRD generators
 * (pullzoneconfig/crd.ts, hack/crds/containerapp.ts, hack/crds/shieldpolicy.ts) import them.
 */

/** JSON schema subset used by the CRD generators. */
export type SchemaFragment = Record<string, unknown>;

/** `spec.accountRef`: the CdnAccount an object uses. */
export const ACCOUNT_REF_SCHEMA: SchemaFragment = {
  type: 'object',
  description:
    "CdnAccount (cluster-scoped) whose API key manages this resource. The account's namespaceSelector must select this namespace. When unset (and credentialsRef is unset), the operator's default account is used, under the same rule. Mutually exclusive with credentialsRef.",
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      description: 'Name of the CdnAccount.',
    },
  },
};

/** Description of `spec.credentialsRef` (the tenant's own key in its own namespace). */
export const CREDENTIALS_REF_DESCRIPTION =
  'Secret key in this namespace holding your own API key (instead of a CdnAccount). Mutually exclusive with accountRef.';

/** CEL rule on `spec`: accountRef and credentialsRef are mutually exclusive. */
export const ACCOUNT_XOR_CREDENTIALS_RULE: SchemaFragment = {
  rule: '!(has(self.accountRef) && has(self.credentialsRef))',
  message: 'set either accountRef or credentialsRef, not both',
};

const LABEL_SELECTOR_SCHEMA: SchemaFragment = {
  type: 'object',
  description:
    'Namespaces allowed to use this account, by their labels (a standard label selector). Empty or absent selects NO namespace: the account is closed until opened. To open it to every namespace, use matchExpressions [{key: kubernetes.io/metadata.name, operator: Exists}].',
  properties: {
    matchLabels: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Labels a namespace must have, with these values.',
    },
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: {
          key: { type: 'string', minLength: 1 },
          operator: { type: 'string', enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
          values: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  'x-kubernetes-map-type': 'atomic',
};

/** `spec` of a CdnAccount. */
export const CDN_ACCOUNT_SPEC_SCHEMA: SchemaFragment = {
  type: 'object',
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
          description: 'Key inside the Secret data (defaults to apiKey).',
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
    namespaceSelector: LABEL_SELECTOR_SCHEMA,
  },
};
