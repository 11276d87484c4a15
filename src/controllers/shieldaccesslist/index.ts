/**
 * The ShieldAccessList controller and planner: a kind on the kit (kit/crud-kind.ts) whose zone,
 * references, claims and plan refusals are the shield rules' (shieldrule-common).
 */
import type { ManagedKind } from '../../runtime/types.js';
import { CrudExternal } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import type { ControllerDeps } from '../shared/deps.js';
import { diffContext, type KindPlanner, type ObjectPlan } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { shieldErrorClassifier } from '../shieldrule-common/controller.js';
import { planOnZone } from '../shieldrule-common/plan.js';
import { ACCESS_LIST_CLAIM_KIND, zonedClaimsOf } from '../shieldrule-common/rule-claims.js';
import {
  resolveShieldZoneId,
  shieldPolicyRefOf,
  zoneIdReferencesOf,
} from '../shieldrule-common/zone.js';
import { ACCESS_LIST_FIELDS } from './fields.js';
import { accessListResource, type AccessListRecord } from './resource.js';
import { SHIELD_ACCESS_LIST_NAMES, type ShieldAccessList } from './types.js';

/** Builds the ShieldAccessList ManagedKind. */
export function createShieldAccessListKind(deps: ControllerDeps): ManagedKind<ShieldAccessList> {
  const kind = crudKind<ShieldAccessList, AccessListRecord>(deps, {
    names: SHIELD_ACCESS_LIST_NAMES,
    idField: 'listId',
    fields: ACCESS_LIST_FIELDS,
    resource: (conn, obj, ctx) =>
      accessListResource(
        conn,
        resolveShieldZoneId(obj, (ref) => ctx.getObject(ref)),
        async (id, signal) =>
          (await conn.client.getShieldZone(id, { signal })).pullZoneId ?? undefined,
      ),
    references: (obj) => [shieldPolicyRefOf(obj)].filter((r) => r !== undefined),
  });
  return {
    ...kind,
    claimsOf: (obj) => zonedClaimsOf(ACCESS_LIST_CLAIM_KIND, obj),
    idReferences: zoneIdReferencesOf,
    classifyError: shieldErrorClassifier(
      Object.fromEntries(ACCESS_LIST_FIELDS.map((f) => [f.api, `spec.${f.spec}`])),
    ),
  };
}

/** `cdnctl diff` of a manifest (read-only observe) on `spec.shieldZoneId` or its policy's zone. */
export const planShieldAccessList: KindPlanner = (client, raw, ctx): Promise<ObjectPlan> => {
  const obj = raw as ShieldAccessList;
  return planOnZone(client, obj, ctx, (zone) =>
    new CrudExternal(accessListResource({ client, account: 'cdnctl-diff' }, zone)).observe(
      obj,
      diffContext(adoptionIdOf(obj.spec)),
    ),
  );
};
