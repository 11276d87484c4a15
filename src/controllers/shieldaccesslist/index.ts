/**
 * The ShieldAccessList controller, planner and exporter. Wiring: credentials -> shared CDN
 * client -> the zone (shieldPolicyRef or shieldZoneId, shieldrule-common/zone.ts) ->
 * {@link AccessListExternal}. References: the credentials and the ShieldPolicy named by
 * `spec.shieldPolicyRef`; `spec.shieldZoneId` is checked as a reference like the shield rules'.
 * Claims: the list id under the kind's name (the runtime's default).
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ManagedKind, ObjectReference } from '../../runtime/types.js';
import { managedNames } from '../kind-names.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { diffContext, planOf, type KindPlanner, type ObjectPlan } from '../shared/manifest-plan.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { shieldErrorClassifier } from '../shieldrule-common/controller.js';
import { zoneOfManifest } from '../shieldrule-common/plan.js';
import {
  resolveShieldZoneId,
  shieldPolicyRefOf,
  zoneIdReferencesOf,
} from '../shieldrule-common/zone.js';
import { AccessListExternal } from './external.js';
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
  return {
    ...managedNames(SHIELD_ACCESS_LIST_NAMES),
    idStatusField: 'listId',
    specExternalId: (obj) => (obj.spec?.listId !== undefined ? String(obj.spec.listId) : undefined),
    async connect(obj, ctx) {
      const shieldZoneId = resolveShieldZoneId(obj, (ref) => ctx.getObject(ref));
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const client = getCdnClient(deps, apiKey);
      const external = new AccessListExternal({
        api: client,
        account: accountIdFor(apiKey),
        shieldZoneId,
        pullZoneOf: async (id, signal) =>
          (await client.getShieldZone(id, { signal })).pullZoneId ?? undefined,
      });
      return withMarkerKey(external, apiKey);
    },
    idReferences: zoneIdReferencesOf,
    references(obj): ObjectReference[] {
      const refs = credentialReferences(obj, deps);
      const policy = shieldPolicyRefOf(obj);
      return policy ? [...refs, policy] : refs;
    },
    classifyError: shieldErrorClassifier(SPEC_PATHS),
  };
}

/**
 * `cdnctl diff` of a ShieldAccessList manifest, by the kind's own external client in read-only
 * mode; the zone from `spec.shieldZoneId` or the ShieldPolicy manifest it names.
 */
export const planShieldAccessList: KindPlanner = async (client, raw, ctx): Promise<ObjectPlan> => {
  const obj = raw as ShieldAccessList;
  const zone = await zoneOfManifest(client, obj, ctx);
  if (zone === undefined) {
    return {
      action: 'skipped',
      diffs: [],
      note: 'the shield zone is not known yet (its ShieldPolicy or pull zone has no id): compare again once it exists',
    };
  }
  const external = new AccessListExternal({
    api: client,
    account: 'cdnctl-diff',
    shieldZoneId: zone,
  });
  return planOf(await external.observe(obj, diffContext(obj.spec?.listId)));
};
