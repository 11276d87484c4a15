/**
 * The ShieldAccessList controller, planner and exporter. Wiring (shieldrule-common's
 * zoneKindParts): credentials -> shared CDN client -> the zone (shieldPolicyRef or
 * shieldZoneId) -> {@link AccessListExternal}. References: the credentials and the ShieldPolicy named by
 * `spec.shieldPolicyRef`; `spec.shieldZoneId` is checked as a reference like the shield rules'.
 * Claims: the list id under the kind's name and, while the list may be created, its name on the
 * zone (shieldrule-common/rule-claims.ts).
 */
import type { ManagedKind } from '../../runtime/types.js';
import { managedNames } from '../kind-names.js';
import type { ControllerDeps } from '../shared/deps.js';
import { diffContext, type KindPlanner, type ObjectPlan } from '../shared/manifest-plan.js';
import { shieldErrorClassifier, zoneKindParts } from '../shieldrule-common/controller.js';
import { planOnZone } from '../shieldrule-common/plan.js';
import { AccessListExternal } from './external.js';
import {
  ACCESS_LIST_CLAIM_KIND,
  specIdOf,
  zonedClaimsOf,
} from '../shieldrule-common/rule-claims.js';
import { SHIELD_ACCESS_LIST_NAMES, type ShieldAccessList } from './types.js';

export { exportShieldAccessLists } from './export.js';

/** API members named in platform errors -> the spec path a user edits. */
const SPEC_PATHS: Record<string, string> = {
  name: 'spec.name',
  content: 'spec.entries',
  type: 'spec.type',
  description: 'spec.description',
  isEnabled: 'spec.enabled',
  action: 'spec.action',
};

/** Builds the ShieldAccessList ManagedKind. */
export function createShieldAccessListKind(deps: ControllerDeps): ManagedKind<ShieldAccessList> {
  const claims = ACCESS_LIST_CLAIM_KIND;
  return {
    ...managedNames(SHIELD_ACCESS_LIST_NAMES),
    idStatusField: claims.idStatusField,
    specExternalId: (obj) => specIdOf(claims, obj),
    claimsOf: (obj) => zonedClaimsOf(claims, obj),
    ...zoneKindParts<ShieldAccessList>(
      deps,
      ({ client, ...bound }) => new AccessListExternal({ api: client, ...bound }),
    ),
    classifyError: shieldErrorClassifier(SPEC_PATHS),
  };
}

/**
 * `cdnctl diff` of a ShieldAccessList manifest, by the kind's own external client in read-only
 * mode; the zone from `spec.shieldZoneId` or the ShieldPolicy manifest it names.
 */
export const planShieldAccessList: KindPlanner = (client, raw, ctx): Promise<ObjectPlan> => {
  const obj = raw as ShieldAccessList;
  return planOnZone(client, obj, ctx, (zone) =>
    new AccessListExternal({ api: client, account: 'cdnctl-diff', shieldZoneId: zone }).observe(
      obj,
      diffContext(obj.spec?.listId),
    ),
  );
};
