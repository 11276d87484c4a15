/**
 * The CdnAccount kind's names and types, shared: every kind's connection reads accounts
 * (credentials.ts), and shared/ imports no kind. CdnAccount (cluster-scoped): an API key Secret in the
 * operator's namespace and the namespaces allowed to use it. Only cluster admins create them;
 * tenants name one with `spec.accountRef.name`.
 */
import { API_VERSION, groupOf } from '../../api-group.js';
import type { Condition } from '../../runtime/types.js';
import type { LabelSelector } from './label-selector.js';
import type { KindNames } from '../kind-names.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const CDN_ACCOUNT_NAMES: KindNames = {
  kind: 'CdnAccount',
  plural: 'cdnaccounts',
  shortNames: ['cdnacct'],
  scope: 'Cluster',
  family: 'accounts',
};

/** The resource as `ConnectContext.readClusterObject` takes it. */
export const CDN_ACCOUNT_RESOURCE = {
  group: groupOf('accounts'),
  version: API_VERSION,
  plural: CDN_ACCOUNT_NAMES.plural,
} as const;

/**
 * True when the operator of `operatorNamespace` serves `spec`: every operator when
 * `secretRef.namespace` is unset (one release per cluster), else only the operator whose
 * namespace it names — with several releases in a cluster, the others neither use the account
 * nor write its status.
 */
export function servesAccount(
  spec: CdnAccountSpec | undefined,
  operatorNamespace: string,
): boolean {
  const ns = spec?.secretRef?.namespace;
  return typeof ns !== 'string' || ns === '' || ns === operatorNamespace;
}

/** Key inside the account Secret when `secretRef.key` is omitted. */
export const DEFAULT_ACCOUNT_KEY = 'apiKey';

/** `spec` of a CdnAccount. */
export interface CdnAccountSpec {
  /**
   * Secret in the operator's namespace holding the API key. `namespace`, when set, names the
   * one operator namespace that serves the account: operators of other releases ignore it.
   */
  secretRef?: { name?: string; key?: string; namespace?: string };
  /** Namespaces allowed to use the account; empty or absent: none. */
  namespaceSelector?: LabelSelector;
}

/** `status` of a CdnAccount (status.ts writes the Ready condition). */
export interface CdnAccountStatus {
  conditions?: Condition[];
}
