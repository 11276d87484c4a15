/**
 * How the objects on a shield zone (ShieldWafRule, ShieldRateLimit, ShieldAccessList) claim
 * their platform item, so that a ShieldPolicy with `rulePolicy: Exact` never deletes an item one
 * of them manages or is about to create:
 *
 * - by id (claim type = the kind): the runtime's default claim, from the spec or the status id;
 * - by name, before there is an id (shared claim type {@link SHIELD_RULE_NAME_CLAIM}): the zone
 *   the object names (by id, or by its ShieldPolicy's namespace and name), its kind and the
 *   platform name it will create or adopt. It comes from the spec, so the index holds it before
 *   any pass can send a create: a create in flight is never taken for an unmanaged item.
 *   `recorded`: the status already holds the id (see shieldpolicy/rule-sweep.ts).
 *
 * Names are not unique on the platform, so the name claim is shared (two objects may declare one
 * name). An object that adopts by id, or is being deleted, claims no name.
 */
import { defaultClaimsOf } from '../../runtime/claims-policy.js';
import type { ClaimRef, ManagedObject } from '../../runtime/types.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { SHIELD_ACCESS_LIST_NAMES } from '../shieldaccesslist/types.js';
import { SHIELD_RATE_LIMIT_NAMES } from '../shieldratelimit/types.js';
import { SHIELD_WAF_RULE_NAMES } from '../shieldwafrule/types.js';
import type { ZonedObject } from './zone.js';

/** Shared claim type of an item by zone, kind and platform name (see the module comment). */
export const SHIELD_RULE_NAME_CLAIM = 'ShieldRuleName';

/** Name claim id of an item on shield zone `zoneId` (an object naming the zone by id). */
export function ruleNameKeyByZone(zoneId: number, kind: string, name: string): string {
  return `zone/${zoneId}/${kind}/${name}`;
}

/** Name claim id of an item on the zone of ShieldPolicy `namespace/policy` (a shieldPolicyRef). */
export function ruleNameKeyByPolicy(
  namespace: string,
  policy: string,
  kind: string,
  name: string,
): string {
  return `policy/${namespace}/${policy}/${kind}/${name}`;
}

/** The name claim id of an object, or undefined when it names no zone (invalid spec). */
export function ruleNameKeyOf(kind: string, obj: ZonedObject, name: string): string | undefined {
  const zoneId = parseIntegerId(obj.spec?.shieldZoneId);
  if (zoneId !== undefined) return ruleNameKeyByZone(zoneId, kind, name);
  const policy = obj.spec?.shieldPolicyRef?.name;
  if (typeof policy !== 'string' || policy === '') return undefined;
  return ruleNameKeyByPolicy(obj.metadata.namespace, policy, kind, name);
}

/** How a kind on a shield zone names its item's id. */
export interface ZonedClaimKind {
  kind: string;
  /** Status field recording the id (`ruleId`, `listId`). */
  idStatusField: string;
}

/** A shield rule kind (ShieldWafRule, ShieldRateLimit): ids in `ruleId`. */
export function ruleClaimKind(kind: string): ZonedClaimKind {
  return { kind, idStatusField: 'ruleId' };
}

/** ShieldAccessList: ids in `listId`. */
export const ACCESS_LIST_CLAIM_KIND: ZonedClaimKind = {
  kind: SHIELD_ACCESS_LIST_NAMES.kind,
  idStatusField: 'listId',
};

/** Every kind on a shield zone whose items `rulePolicy: Exact` covers. */
export const ZONED_CLAIM_KINDS: readonly ZonedClaimKind[] = [
  ruleClaimKind(SHIELD_WAF_RULE_NAMES.kind),
  ruleClaimKind(SHIELD_RATE_LIMIT_NAMES.kind),
  ACCESS_LIST_CLAIM_KIND,
];

/** The platform name an object creates or adopts: `spec.name`, else `metadata.name`. */
export function itemNameOf(obj: ZonedObject): string {
  const name = obj.spec?.name;
  return typeof name === 'string' ? name : obj.metadata.name;
}

function hasRecordedId(obj: ManagedObject, idStatusField: string): boolean {
  const stored = obj.status?.[idStatusField];
  return (typeof stored === 'number' || typeof stored === 'string') && String(stored) !== '';
}

/** The claims of an object on a shield zone (see the module comment). */
export function zonedClaimsOf(k: ZonedClaimKind, obj: ZonedObject): ClaimRef[] {
  const specExternalId = (o: ManagedObject): string | undefined => adoptionIdOf(o.spec);
  const byId = defaultClaimsOf(
    { kind: k.kind, idStatusField: k.idStatusField, specExternalId },
    obj,
  );
  if (specExternalId(obj) !== undefined || obj.metadata.deletionTimestamp) return byId;
  const key = ruleNameKeyOf(k.kind, obj, itemNameOf(obj));
  if (key === undefined) return byId;
  const recorded = hasRecordedId(obj, k.idStatusField);
  return [...byId, { type: SHIELD_RULE_NAME_CLAIM, id: key, recorded, shared: true }];
}
