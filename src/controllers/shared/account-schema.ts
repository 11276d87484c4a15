/**
 * Which account an object uses, described once for every namespaced kind: the spec fields
 * (`accountRef`, `credentialsRef`), their TypeScript type and their CRD fragment side by side.
 * credentials.ts reads them.
 *
 * The rule for `credentialsRef.key`, the same in every kind: optional, defaulting to `apiKey`.
 * ShieldPolicy used to require it; a default keeps every existing object valid while no kind
 * asks for a field the others do without.
 */
import { nameRefSchema, objectNameSchema, type Schema, type SpecFragment } from './crd-schema.js';

/** Key inside a credentials Secret when `credentialsRef.key` is omitted. */
export const DEFAULT_CREDENTIALS_KEY = 'apiKey';

/** `spec.accountRef`: a cluster-scoped CdnAccount. */
export interface AccountRef {
  name: string;
}

/** `spec.credentialsRef`: a Secret key in the object's own namespace. */
export interface CredentialsRef {
  name: string;
  /** Defaults to {@link DEFAULT_CREDENTIALS_KEY}. */
  key?: string;
}

/** The spec fields that choose the account (at most one of them; neither: the default account). */
export interface AccountSpec {
  accountRef?: AccountRef;
  credentialsRef?: CredentialsRef;
}

/** `spec.accountRef`. */
const ACCOUNT_REF: Schema = nameRefSchema(
  "CdnAccount (cluster-scoped) whose API key manages this resource. The account's namespaceSelector must select this namespace. When unset (and credentialsRef is unset), the operator's default account is used, under the same rule. Mutually exclusive with credentialsRef.",
  'Name of the CdnAccount.',
);

/** `spec.credentialsRef`. */
const CREDENTIALS_REF: Schema = {
  type: 'object',
  description:
    'Secret key in this namespace holding your own API key (instead of a CdnAccount). Mutually exclusive with accountRef.',
  required: ['name'],
  properties: {
    name: objectNameSchema('Name of a Secret in the same namespace.'),
    key: {
      type: 'string',
      minLength: 1,
      description: `Key inside the Secret data (defaults to ${DEFAULT_CREDENTIALS_KEY}).`,
    },
  },
};

/** `accountRef` and `credentialsRef` of every namespaced kind, mutually exclusive (CEL). */
export function accountFragment(): SpecFragment {
  return {
    properties: { accountRef: ACCOUNT_REF, credentialsRef: CREDENTIALS_REF },
    rules: [
      {
        rule: '!(has(self.accountRef) && has(self.credentialsRef))',
        message: 'set either accountRef or credentialsRef, not both',
      },
    ],
  };
}
