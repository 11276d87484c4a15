/**
 * CdnAccount (`cdnaccounts.cdn.operator.io`, cluster-scoped): an API key Secret in the
 * operator's namespace and the namespaces allowed to use it. Only cluster admins create them;
 * tenants name one with `spec.accountRef.name`.
 */
import type { LabelSelector } from '../shared/label-selector.js';

export const GROUP = 'cdn.operator.io';
export const VERSION = 'v1alpha1';
export const KIND = 'CdnAccount';
export const PLURAL = 'cdnaccounts';

/** The resource as `ConnectContext.readClusterObject` takes it. */
export const CDN_ACCOUNT_RESOURCE = { group: GROUP, version: VERSION, plural: PLURAL } as const;

/** Key inside the account Secret when `secretRef.key` is omitted. */
export const DEFAULT_ACCOUNT_KEY = 'apiKey';

/** `spec` of a CdnAccount. */
export interface CdnAccountSpec {
  /** Secret in the operator's namespace holding the API key. */
  secretRef?: { name?: string; key?: string };
  /** Namespaces allowed to use the account; empty or absent: none. */
  namespaceSelector?: LabelSelector;
}
