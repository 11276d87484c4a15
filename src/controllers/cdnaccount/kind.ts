/**
 * The CdnAccount kind (cluster-scoped): an API key Secret in the operator's namespace and the
 * namespaces allowed to use it. The operator reads it while resolving credentials and reports
 * its Ready condition (status.ts); it reconciles no platform resource.
 */
import type { KindModule } from '../kind-module.js';
import { CDN_ACCOUNT_NAMES } from './types.js';

export const CDN_ACCOUNT: KindModule = {
  ...CDN_ACCOUNT_NAMES,
  schema: async () => (await import('./crd.js')).cdnAccountSchema,
};
