/** Edge rule, purge and storage zone routes, registered with the server as one group. */
import type { RouteDef } from '../types.js';
import { EDGE_RULE_ROUTES } from './pullzone-edge-rules.js';
import { PURGE_ROUTES } from './purge.js';
import { STORAGE_ZONE_ROUTES } from './storage-zones.js';

/** Routes added by issue 19 (edge rules, cache purge, storage zones). */
export const FEATURE_ROUTES: RouteDef[] = [
  ...EDGE_RULE_ROUTES,
  ...PURGE_ROUTES,
  ...STORAGE_ZONE_ROUTES,
];
