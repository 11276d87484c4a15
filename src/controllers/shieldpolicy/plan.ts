/**
 * What applying a ShieldPolicy would change, computed by the operator's own external client
 * (createShieldExternal(...).observe: diffZone over the merged live zone), read-only. The
 * target is `spec.pullZoneId`, or the `spec.pullZoneId` of the PullZoneConfig named by
 * `spec.pullZoneRef` among the compared manifests.
 */
import type { CdnClient } from '../../cdn/client.js';
import {
  diffContext,
  specIdsByName,
  type ObjectPlan,
  type PlanContext,
} from '../shared/manifest-plan.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { createShieldExternal } from './external.js';
import { ShieldFleetCache } from './fleet-cache.js';
import type { ShieldPolicy } from './types.js';

function targetOf(obj: ShieldPolicy, ctx: PlanContext): number | undefined {
  const spec = obj.spec ?? {};
  if (typeof spec.pullZoneId === 'number') return spec.pullZoneId;
  const ref = spec.pullZoneRef?.name;
  if (ref === undefined) return undefined;
  return specIdsByName(ctx.objectsOf(PULL_ZONE_CONFIG_NAMES.kind), 'pullZoneId').get(ref);
}

/** See the module comment (`cdnctl diff` of a ShieldPolicy manifest). */
export async function planShieldPolicy(
  client: CdnClient,
  obj: ShieldPolicy,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const pullZoneId = targetOf(obj, ctx);
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
