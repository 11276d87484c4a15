/** Body-carrying routes of edge rules, purge and storage zones, for the request-body check. */
import type { ApiArea } from '../../support/openapi.js';

/** Listed after the older routes, so `/storagezone/checkavailability` matches first. */
export const FEATURE_BODY_ROUTES: Array<{ area: ApiArea; template: string }> = [
  { area: 'core', template: '/pullzone/{pullZoneId}/edgerules/addOrUpdate' },
  { area: 'core', template: '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled' },
  { area: 'core', template: '/pullzone/{id}/purgeCache' },
  { area: 'core', template: '/storagezone' },
  { area: 'core', template: '/storagezone/{id}' },
];
