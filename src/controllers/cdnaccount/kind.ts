/**
 * The CdnAccount kind (cluster-scoped): an API key Secret in the operator's namespace and the
 * namespaces allowed to use it. The operator watches it (index.ts: with the Namespaces its
 * selector reads), serves it to the credentials check and reports its Ready condition
 * (status.ts); it reconciles no platform resource.
 */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { CDN_ACCOUNT_NAMES } from './types.js';

export const CDN_ACCOUNT: KindModule = {
  ...CDN_ACCOUNT_NAMES,
  ...kindParts(import.meta.url, ['schema', 'clusterKinds']),
};
