/** Body-carrying routes of the shield rule, access list, feature, registry and log forwarding calls. */
import type { ApiArea } from '../../support/openapi.js';

/** Listed after the older routes; `configurations/{id}` before `{id}`. */
export const SECURITY_BODY_ROUTES: Array<{ area: ApiArea; template: string }> = [
  { area: 'shield', template: '/shield/waf/custom-rule' },
  { area: 'shield', template: '/shield/waf/custom-rule/{id}' },
  { area: 'shield', template: '/shield/rate-limit' },
  { area: 'shield', template: '/shield/rate-limit/{id}' },
  { area: 'shield', template: '/shield/shield-zone/{shieldZoneId}/access-lists' },
  {
    area: 'shield',
    template: '/shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}',
  },
  { area: 'shield', template: '/shield/shield-zone/{shieldZoneId}/access-lists/{id}' },
  { area: 'shield', template: '/shield/shield-zone/{shieldZoneId}/bot-detection' },
  { area: 'shield', template: '/shield/shield-zone/{shieldZoneId}/upload-scanning' },
  { area: 'shield', template: '/shield/waf/rules/review-triggered/{shieldZoneId}' },
  { area: 'mc', template: '/mc/registries' },
  { area: 'mc', template: '/mc/registries/{registryId}' },
  { area: 'mc', template: '/mc/log/forwarding' },
  { area: 'mc', template: '/mc/log/forwarding/{appId}' },
];
