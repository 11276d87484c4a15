/**
 * `cdnctl diff` of a ShieldAccessList manifest: the kit's read-only observe on the zone its
 * policy (or `spec.shieldZoneId`) names; the refusals are the shield rules' (shieldrule-common).
 */
import { CrudExternal } from '../kit/crud-external.js';
import type { KindPart } from '../kit/kind-parts.js';
import { diffContext, type ObjectPlan } from '../shared/manifest-plan.js';
import { planOnZone } from '../shieldrule-common/plan.js';
import { accessListResource } from './resource.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import type { ShieldAccessList } from './types.js';

/** `cdnctl diff` of a manifest (read-only observe) on `spec.shieldZoneId` or its policy's zone. */
export const planner: KindPart<'planner'> = (client, raw, ctx): Promise<ObjectPlan> => {
  const obj = raw as ShieldAccessList;
  return planOnZone(client, obj, ctx, (zone) =>
    new CrudExternal(accessListResource({ client, account: 'cdnctl-diff' }, zone)).observe(
      obj,
      diffContext(adoptionIdOf(obj.spec)),
    ),
  );
};
