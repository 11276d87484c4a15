/**
 * CdnAccount's names and types. They live in shared/account-types.ts, since every kind's
 * connection (shared/credentials.ts) reads accounts and shared/ imports no kind.
 */
export * from '../shared/account-types.js';
