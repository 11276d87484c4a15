/**
 * What applying a ShieldPolicy would change, computed by the operator's own external client
 * (createShieldExternal(...).observe: diffZone over the merged live zone), read-only. The
 * target is `spec.pullZoneId`, or the `spec.pullZoneId` of the PullZoneConfig named by
 * `spec.pullZoneRef` among the compared manifests.
 */
import type { CdnClient } from '../../cdn/client.js';
import { createShieldExternal } from '../../controllers/shieldpolicy/external.js';
import { ShieldFleetCache } from '../../controllers/shieldpolicy/fleet-cache.js';
import type { ShieldPolicy } from '../../controllers/shieldpolicy/types.js';
import { diffContext, type ObjectPlan } from './plan-types.js';

function targetOf(obj: ShieldPolicy, pullZones: ReadonlyMap<string, number>): number | undefined {
  const spec = obj.spec ?? {};
  if (typeof spec.pullZoneId === 'number') return spec.pullZoneId;
  const ref = spec.pullZoneRef?.name;
  return ref === undefined ? undefined : pullZones.get(ref);
}

/** See the module comment. */
export async function planShieldPolicy(
  client: CdnClient,
  obj: ShieldPolicy,
  pullZones: ReadonlyMap<string, number>,
): Promise<ObjectPlan> {
  const pullZoneId = targetOf(obj, pullZones);
  if (pullZoneId === undefined) {
    return {
      action: 'skipped',
      diffs: [],
      note: 'the target pull zone has no id yet (its PullZoneConfig creates it): compare again once it exists',
    };
  }
  const external = createShieldExternal({
    api: client,
    account: 'cdnctl-diff',
    pullZoneId,
    pollIntervalMs: 60_000,
    shared: { fleet: new ShieldFleetCache(), metricsReadAt: new Map(), now: () => new Date() },
  });
  // Rule metrics are status only: reading them changes nothing and costs calls.
  const { ruleMetrics: _metrics, ...spec } = obj.spec ?? {};
  const seen = await external.observe({ ...obj, spec }, diffContext(undefined));
  if (!seen.exists) return { action: 'create', diffs: [] };
  return {
    action: seen.diff.length > 0 ? 'update' : 'none',
    diffs: seen.diff,
    id: seen.externalId,
  };
}
