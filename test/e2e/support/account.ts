/**
 * A CdnAccount for an e2e namespace: the test namespace doubles as the operator's namespace
 * (`--operator-namespace`), holds the credentials Secret, and is the only namespace the
 * account's selector opens. The account is named after the namespace (CdnAccounts are
 * cluster-scoped, and test files run in parallel).
 */
import { apply, kubectlRaw } from './kube.js';

/**
 * JSON of a CdnAccount using Secret `secretName` (in the operator namespace); `servedBy` sets
 * `spec.secretRef.namespace` (only the operator of that namespace serves the account).
 */
export function accountJson(
  name: string,
  secretName: string,
  namespaceSelector: Record<string, unknown>,
  servedBy?: string,
): string {
  const secretRef = {
    name: secretName,
    key: 'apiKey',
    ...(servedBy ? { namespace: servedBy } : {}),
  };
  return JSON.stringify({
    apiVersion: 'accounts.cdn.operator.io/v1beta1',
    kind: 'CdnAccount',
    metadata: { name },
    spec: { secretRef, namespaceSelector },
  });
}

/** Selector of exactly the given namespaces (by their automatic name label). */
export function namespacesSelector(...namespaces: string[]): Record<string, unknown> {
  return {
    matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: namespaces }],
  };
}

/** Creates account `ns` over Secret `ns/secretName`, open to `ns` only. */
export async function applyNamespaceAccount(ns: string, secretName: string): Promise<void> {
  await apply(accountJson(ns, secretName, namespacesSelector(ns)));
}

/** Operator flags that make account `ns` (Secret in `ns`) the default account. */
export function defaultAccountArgs(ns: string): string[] {
  return ['--operator-namespace', ns, '--default-account', ns];
}

/** Deletes a CdnAccount (cluster-scoped), ignoring absence. */
export async function deleteAccount(name: string): Promise<void> {
  await kubectlRaw(['delete', 'cdnaccount', name, '--ignore-not-found', '--wait=false']);
}
