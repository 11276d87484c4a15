/**
 * A `readClusterObject` for unit tests: one CdnAccount whose Secret is `secretName` in the
 * operator namespace, open to every namespace that has a `kubernetes.io/metadata.name` label
 * (every real namespace), plus Namespaces with that label and any extra labels given.
 */
import type { ClusterObject, ConnectContext } from '../../../../src/runtime/types.js';

/** Options of {@link accountReader}. */
export interface AccountFixture {
  account: string;
  secretName: string;
  /** Default: open to every namespace. */
  namespaceSelector?: Record<string, unknown>;
  /** Extra labels per namespace. */
  namespaceLabels?: Record<string, Record<string, string>>;
  /** `spec.secretRef.namespace` (the operator namespace serving the account). */
  servedBy?: string;
}

/** Builds the reader. */
export function accountReader(f: AccountFixture): NonNullable<ConnectContext['readClusterObject']> {
  return (type, name) => {
    if (type.plural === 'cdnaccounts' && name === f.account) {
      const account: ClusterObject = {
        metadata: { name },
        spec: {
          secretRef: {
            name: f.secretName,
            ...(f.servedBy !== undefined ? { namespace: f.servedBy } : {}),
          },
          namespaceSelector: f.namespaceSelector ?? {
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }],
          },
        },
      };
      return Promise.resolve(account);
    }
    if (type.plural === 'namespaces') {
      const labels = { 'kubernetes.io/metadata.name': name, ...f.namespaceLabels?.[name] };
      return Promise.resolve({ metadata: { name, labels } });
    }
    return Promise.resolve(undefined);
  };
}
