/**
 * Pure planning of `spec.rulePolicy: Exact`: which of a shield zone's custom WAF rules, rate
 * limits and custom access lists no object manages, and are therefore deleted. Curated
 * (platform-managed) access lists and the managed WAF rule set are never among the inputs.
 *
 * An item is left alone when, in the policy's account:
 *
 * 1. an object claims its id (ShieldWafRule / ShieldRateLimit / ShieldAccessList: claim type =
 *    the kind) and that claim is recorded in the object's status or made from the policy's own
 *    namespace (an id only asked for in another namespace's spec is refused there before it
 *    reaches this zone, so it protects nothing: no tenant can shield another zone's rules from
 *    its owner); or
 * 2. an object of the policy's namespace declares the item's name on this zone (shared claim
 *    `ShieldRuleName`, shieldrule-common/rule-claims.ts) and may be creating it: it has no id
 *    recorded yet, or the item its status records is no longer on the zone (it is being
 *    created again). This is what keeps a create in flight, or one whose id is not recorded
 *    yet, from being taken for an unmanaged item.
 *
 * 3. it is a custom WAF rule whose id the policy's own `spec.waf.customRuleOrder` lists: the
 *    policy names it itself, so deleting it would contradict the same spec; or
 * 4. it carries a provisional name (`cdnop-` and 16 hex digits, kit/identity.ts): an object's
 *    create made it and its rename is still pending (a lost answer, a crash), which the name
 *    claim of rule 2 cannot see (the object claims its real name).
 *
 * Everything else is planned for deletion. An item that says it lives on another zone is
 * never touched.
 */
import type { ClaimHolder, FieldDiff } from '../../runtime/types.js';
import { isProvisionalName } from '../kit/identity.js';
import {
  ruleNameKeyByPolicy,
  ruleNameKeyByZone,
  SHIELD_RULE_NAME_CLAIM,
} from '../shieldrule-common/rule-claims.js';
import { SHIELD_ACCESS_LIST_NAMES } from '../shieldaccesslist/types.js';
import { SHIELD_RATE_LIMIT_NAMES } from '../shieldratelimit/types.js';
import { SHIELD_WAF_RULE_NAMES } from '../shieldwafrule/types.js';
import type { SweptItemType } from './types.js';

/** One kind of item the sweep covers. */
export interface SweptFamily {
  type: SweptItemType;
  /** The kind whose objects manage it (claim type of its id). */
  kind: string;
  /** What one item is called in messages. */
  what: string;
  /** Prefix of its plan entries (`customWafRules[12 "name"]`). */
  field: string;
}

/** The families, in the order they are listed and deleted. */
export const SWEPT_FAMILIES: readonly SweptFamily[] = [
  {
    type: 'CustomWafRule',
    kind: SHIELD_WAF_RULE_NAMES.kind,
    what: 'custom WAF rule',
    field: 'customWafRules',
  },
  {
    type: 'RateLimit',
    kind: SHIELD_RATE_LIMIT_NAMES.kind,
    what: 'rate limit',
    field: 'rateLimits',
  },
  {
    type: 'CustomAccessList',
    kind: SHIELD_ACCESS_LIST_NAMES.kind,
    what: 'custom access list',
    field: 'accessLists',
  },
];

/** One live item of a family. */
export interface LiveItem {
  id: number;
  name?: string;
  /** The zone the item says it lives on, when it says so. */
  shieldZoneId?: number;
}

/** Inputs of {@link planRuleSweep}. */
export interface SweepInput {
  zoneId: number;
  /** The ShieldPolicy running the sweep. */
  policy: { namespace: string; name: string };
  /** The live items of each family. */
  live: ReadonlyMap<SweptItemType, readonly LiveItem[]>;
  /** Custom WAF rule ids the policy's `spec.waf.customRuleOrder` lists (rule 3). */
  orderedRuleIds?: readonly number[];
  /** Who claims what: the runtime's claim index (`ExternalContext.claimantsOf`). */
  claimantsOf: (type: string, id: string) => readonly ClaimHolder[];
}

/** One planned deletion. */
export interface SweepDeletion {
  family: SweptFamily;
  id: number;
  name?: string;
  /** `custom WAF rule 12 "name"`. */
  label: string;
}

/** Result of {@link planRuleSweep}. */
export interface SweepPlan {
  diffs: FieldDiff[];
  deletions: SweepDeletion[];
}

const holderKey = (h: ClaimHolder): string => `${h.kind}/${h.namespace}/${h.name}`;

function itemText(item: LiveItem): string {
  return item.name === undefined ? String(item.id) : `${item.id} ${JSON.stringify(item.name)}`;
}

interface FamilyContext {
  input: SweepInput;
  family: SweptFamily;
  claimants: (type: string, id: string) => readonly ClaimHolder[];
}

/** Whether a claim by `h` protects an item of the policy's zone (rule 1 of the module comment). */
function countsById(c: FamilyContext, h: ClaimHolder): boolean {
  return h.recorded || h.namespace === c.input.policy.namespace;
}

/** The objects whose claim by id protects `item` (empty: not claimed by id). */
function idOwners(c: FamilyContext, item: LiveItem): ClaimHolder[] {
  return c.claimants(c.family.kind, String(item.id)).filter((h) => countsById(c, h));
}

/** True when an object of the policy's namespace may be creating `item` (rule 2). */
function pendingByName(c: FamilyContext, item: LiveItem, liveOwners: Set<string>): boolean {
  if (item.name === undefined) return false;
  const { zoneId, policy } = c.input;
  const kind = c.family.kind;
  const keys = [
    ruleNameKeyByZone(zoneId, kind, item.name),
    ruleNameKeyByPolicy(policy.namespace, policy.name, kind, item.name),
  ];
  return keys.some((key) =>
    c
      .claimants(SHIELD_RULE_NAME_CLAIM, key)
      .some(
        (h) =>
          h.kind === kind &&
          h.namespace === policy.namespace &&
          (!h.recorded || !liveOwners.has(holderKey(h))),
      ),
  );
}

/** True when an object may be creating `item` (rules 2 and 4). */
function mayBeInFlight(c: FamilyContext, item: LiveItem, liveOwners: Set<string>): boolean {
  return isProvisionalName(item.name) || pendingByName(c, item, liveOwners);
}

function planFamily(c: FamilyContext, items: readonly LiveItem[], out: SweepPlan): void {
  const { zoneId } = c.input;
  const onZone = items.filter((i) => i.shieldZoneId === undefined || i.shieldZoneId === zoneId);
  const liveOwners = new Set<string>();
  const unclaimed: LiveItem[] = [];
  const named =
    c.family.type === 'CustomWafRule' ? new Set(c.input.orderedRuleIds ?? []) : new Set<number>();
  for (const item of onZone) {
    const owners = idOwners(c, item);
    for (const h of owners) liveOwners.add(holderKey(h));
    if (owners.length === 0 && !named.has(item.id)) unclaimed.push(item);
  }
  for (const item of unclaimed) {
    if (mayBeInFlight(c, item, liveOwners)) continue;
    const label = `${c.family.what} ${itemText(item)}`;
    out.deletions.push({
      family: c.family,
      id: item.id,
      ...(item.name !== undefined ? { name: item.name } : {}),
      label,
    });
    out.diffs.push({
      field: `${c.family.field}[${itemText(item)}]`,
      live: 'present',
      desired: '<absent>',
    });
  }
}

/** See the module comment. */
export function planRuleSweep(input: SweepInput): SweepPlan {
  const out: SweepPlan = { diffs: [], deletions: [] };
  const claimants = input.claimantsOf;
  for (const family of SWEPT_FAMILIES) {
    const items = input.live.get(family.type) ?? [];
    planFamily({ input, family, claimants }, items, out);
  }
  return out;
}
