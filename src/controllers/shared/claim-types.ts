/**
 * Claim types (runtime/claims.ts) several kinds name: a kind claims, or refers by id to, a
 * resource another kind manages. Spelled once here so that no kind imports another for it.
 */

/** Pull zones, whoever manages them (a PullZoneConfig, or the object that made the platform create one). */
export const PULL_ZONE_CLAIM = 'PullZoneConfig';
