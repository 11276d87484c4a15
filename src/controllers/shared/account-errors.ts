/**
 * Failures to use a CdnAccount. They are classified as retryable with their own reason
 * (Synced=False AccountNotAllowed / AccountNotFound): the pass is retried with the per-item
 * backoff (1 s doubling to 5 min), so a namespace label or account change is picked up by the
 * next retry, and no platform call is ever made before the account check passes.
 */

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
