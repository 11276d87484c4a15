/**
 * `cdnctl diff` of a shield rule manifest by the kind's own resource, read-only. The zone is
 * `spec.shieldZoneId`, or that of the pull zone of the ShieldPolicy manifest it names (the
 * policy's `spec.pullZoneId`, or that of the PullZoneConfig manifest its `pullZoneRef` names).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { Observation } from '../../runtime/types.js';
import {
  diffContext,
  planOf,
  adoptedIdsByName,
  type KindPlanner,
  type ObjectPlan,
  type PlanContext,
} from '../shared/manifest-plan.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { SHIELD_POLICY_NAMES } from '../shieldpolicy/types.js';
import { CrudExternal } from '../kit/crud-external.js';
import { ruleResource } from './external.js';
import type { RuleFamily } from './family.js';
import type { RuleObject, ZonedObject } from './zone.js';

function policyPullZoneId(obj: ZonedObject, ctx: PlanContext): number | undefined {
  const name = obj.spec?.shieldPolicyRef?.name;
  const policy = ctx.objectsOf(SHIELD_POLICY_NAMES.kind).find((o) => o.metadata.name === name);
  const spec = policy?.spec;
  if (typeof spec?.pullZoneId === 'number') return spec.pullZoneId;
  const ref = (spec?.pullZoneRef as { name?: string } | undefined)?.name;
  if (ref === undefined) return undefined;
  return adoptedIdsByName(ctx.objectsOf(PULL_ZONE_CONFIG_NAMES.kind)).get(ref);
}

/**
 * The shield zone of a manifest for `cdnctl diff`: `spec.shieldZoneId`, or that of the pull zone
 * of the ShieldPolicy manifest it names; undefined while not known.
 */
export async function zoneOfManifest(
  client: CdnClient,
  obj: ZonedObject,
  ctx: PlanContext,
): Promise<number | undefined> {
  if (obj.spec?.shieldZoneId !== undefined) return obj.spec.shieldZoneId;
  const pullZoneId = policyPullZoneId(obj, ctx);
  if (pullZoneId === undefined) return undefined;
  return (await client.getShieldZoneByPullZone(pullZoneId))?.shieldZoneId;
}

/**
 * The plan of a manifest on a shield zone: skipped while its zone is not known, else what
 * `observe` (the kind's external client, read-only) sees on the zone.
 */
export async function planOnZone(
  client: CdnClient,
  obj: ZonedObject,
  ctx: PlanContext,
  observe: (zone: number) => Promise<Observation>,
): Promise<ObjectPlan> {
  const zone = await zoneOfManifest(client, obj, ctx);
  if (zone === undefined) {
    return {
      action: 'skipped',
      diffs: [],
      note: 'the shield zone is not known yet (its ShieldPolicy or pull zone has no id): compare again once it exists',
    };
  }
  return planOf(await observe(zone));
}

/** The planner of `family` (see the module comment). */
export function rulePlanner(family: RuleFamily): KindPlanner {
  return async (client: CdnClient, obj: RuleObject, ctx): Promise<ObjectPlan> => {
    return planOnZone(client, obj, ctx, (shieldZoneId) =>
      new CrudExternal(
        ruleResource({ family, api: family.api(client), account: 'cdnctl-diff', shieldZoneId }),
      ).observe(obj, diffContext(adoptionIdOf(obj.spec))),
    );
  };
}
