/**
 * Failures to use a CdnAccount. They are classified as retryable with their own reason
 * (Synced=False AccountNotAllowed / AccountNotFound): the pass is retried with the per-item
 * backoff (1 s doubling to 5 min), so a namespace label or account change is picked up by the
 * next retry, and no platform call is ever made before the account check passes.
 */
import type { LabelSelector } from './label-selector.js';

/** Reasons of account failures. */
export const AccountReasons = {
  AccountNotAllowed: 'AccountNotAllowed',
  AccountNotFound: 'AccountNotFound',
} as const;

/** Thrown by the connect step when an object may not (or cannot) use its account. */
export class AccountError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

/** The label every namespace carries with its own name (the chart's `namespaces` shorthand). */
const NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * How a cluster admin opens an account to `namespace`, from the account's selector. It names
 * the labels the selector wants (what opening takes) but never the other namespaces it
 * selects: a tenant reads this message, and other tenants' names are none of its business.
 */
function howToOpen(namespace: string, selector: LabelSelector | undefined): string {
  const labels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (labels.length > 0) {
    const pairs = labels.map(([k, v]) => `${k}=${v}`).join(' ');
    const also = expressions.length > 0 ? ', and matching its matchExpressions' : '';
    return `a cluster admin opens it by labelling the namespace (kubectl label namespace ${namespace} ${pairs}${also})`;
  }
  if (expressions.length === 0)
    return 'the account is closed (its namespaceSelector is empty); a cluster admin opens it with spec.namespaceSelector (Helm chart: the value defaultAccount.namespaces or defaultAccount.namespaceSelector)';
  if (expressions.every((e) => e.key === NAME_LABEL && e.operator === 'In'))
    return `a cluster admin opens it by adding ${namespace} to the namespace names it selects (Helm chart: the value defaultAccount.namespaces)`;
  return 'a cluster admin opens it by making its spec.namespaceSelector.matchExpressions select this namespace';
}

/** The AccountNotAllowed message: which account, which namespace, how to open it, or what else to do. */
export function accountNotAllowedMessage(
  account: string,
  namespace: string,
  selector: LabelSelector | undefined,
): string {
  return `cannot use CdnAccount ${account} in namespace ${namespace}: the account's namespaceSelector does not select this namespace; ${howToOpen(namespace, selector)}; or set spec.credentialsRef to a Secret of this namespace`;
}
