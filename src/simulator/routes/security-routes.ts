/**
 * Shield rules and settings (custom WAF rules, rate limits, access lists, bot detection, upload
 * scanning, custom response pages, managed WAF rules and their review, the WAF engine defaults)
 * and the container registry and log forwarding routes, registered with the server as one group.
 */
import type { RouteDef } from '../types.js';
import { LOG_FORWARDING_ROUTES } from './mc-log-forwarding.js';
import { REGISTRY_ROUTES } from './mc-registries.js';
import { ACCESS_LIST_ROUTES } from './shield-access-lists.js';
import { SHIELD_RULE_ROUTES } from './shield-rules.js';
import { WAF_ENGINE_ROUTES } from './shield-waf-engine.js';
import { WAF_REVIEW_ROUTES } from './shield-waf-review.js';
import { SHIELD_FEATURE_ROUTES } from './shield-zone-features.js';

/** Routes of issue 34, part 1. */
export const SECURITY_ROUTES: RouteDef[] = [
  ...SHIELD_RULE_ROUTES,
  ...ACCESS_LIST_ROUTES,
  ...SHIELD_FEATURE_ROUTES,
  ...WAF_REVIEW_ROUTES,
  ...WAF_ENGINE_ROUTES,
  ...REGISTRY_ROUTES,
  ...LOG_FORWARDING_ROUTES,
];
