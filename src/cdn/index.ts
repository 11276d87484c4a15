/** Public surface of the CDN client. Controllers import from here. */
export { CdnClient } from './client.js';
export { CdnApiError, isCdnApiError, isRetryableKind, kindForStatus } from './errors.js';
export type { CdnErrorKind, CdnFieldError } from './errors.js';
export { accountIdFor, toCredentialProvider } from './credentials.js';
export type { CredentialProvider } from './credentials.js';
export { DEFAULT_BASE_URL, DEFAULT_USER_AGENT } from './options.js';
export type {
  CallOptions,
  CdnClientHooks,
  CdnClientOptions,
  RateLimitOptions,
  RequestEvent,
  RetryOptions,
} from './options.js';
export { maskKey } from './redact.js';
export type * from './types.js';
export type * from './dns-types.js';
export { DNS_RECORD_TYPE_NAMES } from './dns.js';
export type * from './security-types.js';
export type * from './edge-script-types.js';
export type * from './video-library-types.js';
export { isShieldPlanRefusal } from './shield-rules.js';
export { accessListContent, accessListEntries } from './shield-access-lists.js';
export { samePlatformName, type NamedResource } from './platform-names.js';
