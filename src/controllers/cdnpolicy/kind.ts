/**
 * The CdnPolicy kind (family `routes`, issue 51): a policy attached to Gateways, HTTPRoutes and
 * Ingresses. It reconciles no platform resource, so it has no controller part: the
 * composition controller (src/composition/) makes ordinary objects of other kinds from it.
 */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { CDN_POLICY_NAMES } from './types.js';

export const CDN_POLICY: KindModule = {
  ...CDN_POLICY_NAMES,
  ...kindParts(import.meta.url, ['schema']),
  // Needs --routes and, for HTTPRoutes, the Gateway API: not among the demo's examples.
  example: 'routes/cdnpolicy.yaml',
};
