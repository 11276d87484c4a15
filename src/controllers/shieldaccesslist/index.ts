/**
 * The ShieldAccessList controller: a kind on the kit (kit/crud-kind.ts) whose zone,
 * references, claims and plan refusals are the shield rules' (shieldrule-common).
 */
import type { ManagedKind } from '../../runtime/types.js';
import { crudKind } from '../kit/crud-kind.js';
import type { ControllerDeps } from '../shared/deps.js';
import { shieldErrorClassifier } from '../shieldrule-common/controller.js';
import { ACCESS_LIST_CLAIM_KIND, zonedClaimsOf } from '../shieldrule-common/rule-claims.js';
import {
  resolveShieldZoneId,
  shieldPolicyRefOf,
  zoneIdReferencesOf,
} from '../shieldrule-common/zone.js';
import { ACCESS_LIST_FIELDS } from './fields.js';
import { accessListResource, type AccessListRecord } from './resource.js';
import { SHIELD_ACCESS_LIST_NAMES, type ShieldAccessList } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

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

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createShieldAccessListKind;
