/**
 * The cluster-scoped kinds of the account mechanism, run by the runtime beside the managed
 * kinds (runtime/cluster-controller.ts): CdnAccounts, whose Ready condition the runtime keeps
 * (leader only; a change to the account or its Secret re-evaluates it at once), and
 * Namespaces, watched for the labels an account's namespaceSelector matches. Both are served
 * to the credentials check from the watch caches, so a pass reads no account, namespace or
 * account Secret from the API; an object names its account and namespace in its references,
 * so a change to either re-enqueues it.
 */
import type {
  ClusterKind,
  ClusterObject,
  ConnectContext,
  ObjectReference,
} from '../../runtime/types.js';
import { NAMESPACES } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { accountCondition, secretRefOf, type AccountObject } from './status.js';
import { managedNames } from '../kind-names.js';
import { CDN_ACCOUNT_NAMES, servesAccount } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Namespaces, watched for their labels only. */
export const NAMESPACE_KIND: ClusterKind = { name: 'namespace', ...NAMESPACES };

/** Builds the CdnAccount kind for the operator of `deps.operatorNamespace`. */
export function createCdnAccountKind(deps: Pick<ControllerDeps, 'operatorNamespace'>): ClusterKind {
  const operatorNamespace = deps.operatorNamespace ?? 'default';
  // An account served by another release's operator is that operator's to report on: two
  // operators writing their own verdicts into one status would make it flap.
  const served = (obj: ClusterObject): boolean =>
    servesAccount((obj as AccountObject).spec, operatorNamespace);
  return {
    ...managedNames(CDN_ACCOUNT_NAMES),
    references(obj): ObjectReference[] {
      const { name } = secretRefOf(obj);
      if (!served(obj) || !name) return [];
      return [{ apiVersion: 'v1', kind: 'Secret', namespace: operatorNamespace, name }];
    },
    async conditionsOf(obj, ctx) {
      if (!served(obj)) return undefined;
      const read: ConnectContext['readSecret'] = (ns, name) => ctx.readSecret(ns, name);
      return [await accountCondition(obj, read, operatorNamespace)];
    },
  };
}

/** The cluster-scoped kinds of the CdnAccount (kind.ts): CdnAccounts and Namespaces. */
export function createAccountKinds(deps: Pick<ControllerDeps, 'operatorNamespace'>): ClusterKind[] {
  return [createCdnAccountKind(deps), NAMESPACE_KIND];
}

/** The kind's cluster-scoped kinds, under their part's name (kit/kind-parts.ts). */
export const clusterKinds: KindPart<'clusterKinds'> = createAccountKinds;
