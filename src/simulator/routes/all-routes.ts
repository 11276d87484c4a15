/**
 * The routes cdn-sim simulates, in one list. Documented operations missing from it answer 501
 * (routes/unsimulated.ts); paths no document has answer 404.
 */
import type { ApiKeyConfig } from '../auth.js';
import type { RouteDef } from '../types.js';
import { APP_ROUTES } from './apps.js';
import { COMPUTE_ROUTES } from './compute.js';
import { DNS_ROUTES } from './dns.js';
import { EDGE_RULE_ROUTES } from './pullzone-edge-rules.js';
import { PULL_ZONE_ROUTES } from './pullzone.js';
import { PULL_ZONE_HOSTNAME_ROUTES } from './pullzone-hostnames.js';
import { PURGE_ROUTES } from './purge.js';
import { REGION_ROUTES } from './region.js';
import { SECURITY_ROUTES } from './security-routes.js';
import { SHIELD_ROUTES } from './shield.js';
import { STORAGE_VIDEO_ROUTES, createApiKeyRoute } from './storage-video-apikey.js';
import { STORAGE_ZONE_ROUTES } from './storage-zones.js';
import { VIDEO_LIBRARY_ROUTES } from './video-libraries.js';

/** Every simulated route; `GET /apikey` lists the configured keys. */
export function simulatedRoutes(apiKeys: readonly ApiKeyConfig[]): RouteDef[] {
  return [
    ...PULL_ZONE_ROUTES,
    ...PULL_ZONE_HOSTNAME_ROUTES,
    ...EDGE_RULE_ROUTES,
    ...PURGE_ROUTES,
    ...STORAGE_VIDEO_ROUTES,
    ...STORAGE_ZONE_ROUTES,
    ...VIDEO_LIBRARY_ROUTES,
    ...REGION_ROUTES,
    createApiKeyRoute(apiKeys),
    ...APP_ROUTES,
    ...SHIELD_ROUTES,
    ...DNS_ROUTES,
    ...SECURITY_ROUTES,
    ...COMPUTE_ROUTES,
  ];
}
