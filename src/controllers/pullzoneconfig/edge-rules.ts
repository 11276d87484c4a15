/**
 * Pure planning of edge rules: compares `spec.edgeRules` with the zone's live rules and the
 * previous `status.edgeRules`, and returns plan entries, the fewest API calls that close the
 * gap, and the status describing what is live.
 *
 * A spec rule is matched to a live rule by the GUID recorded in status; failing that, to an
 * unclaimed live rule with exactly the desired content (so a create whose answer was lost, or
 * an exported rule, is adopted instead of duplicated); failing that, it is created.
 */
import type { EdgeRule } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import type { FieldDiff } from '../../runtime/types.js';
import { jsonEqual } from '../shared/plan.js';
import {
  canonicalRule,
  fromWireRule,
  toWireRule,
  type CanonicalRule,
  type EdgeRuleSpec,
} from './edge-rules-mapping.js';

/** One entry of `status.edgeRules`. */
export interface EdgeRuleStatus {
  name: string;
  guid: string;
  createdByOperator?: boolean;
}

/** One API call on an edge rule. */
export type EdgeRuleAction =
  | { op: 'create'; name: string; rule: EdgeRule }
  | { op: 'update'; name: string; rule: EdgeRule & { Guid: string } }
  | { op: 'setEnabled'; name: string; guid: string; enabled: boolean }
  | { op: 'delete'; label: string; guid: string };

/** Inputs of {@link planEdgeRules}. */
export interface EdgeRulePlanInput {
  rules: readonly EdgeRuleSpec[] | undefined;
  policy: 'Additive' | 'Exact' | undefined;
  live: readonly EdgeRule[];
  previous: readonly EdgeRuleStatus[] | undefined;
}

/** Result of {@link planEdgeRules}. */
export interface EdgeRulePlan {
  diffs: FieldDiff[];
  actions: EdgeRuleAction[];
  /** Status of the live state: matched spec rules, and created rules still to be deleted. */
  observed: EdgeRuleStatus[];
}

/** Reason when a listed rule differs from a read-only platform rule. */
export const EdgeRuleReadOnly = 'EdgeRuleReadOnly';

const ABSENT = '<absent>';
const MAX_RENDER = 240;

const key = (guid: unknown): string => String(guid).toLowerCase();

/** Short text of a rule for plannedChanges (edge rules carry no secrets). */
export function renderRule(rule: EdgeRule): string {
  const { name: _name, ...spec } = fromWireRule(rule, '', Number(rule.OrderIndex ?? 0));
  const text = JSON.stringify(spec);
  return text.length > MAX_RENDER ? `${text.slice(0, MAX_RENDER - 3)}...` : text;
}

interface Match {
  spec: EdgeRuleSpec;
  desired: EdgeRule;
  canonical: CanonicalRule;
  live?: EdgeRule;
  created: boolean;
}

function matchRules(input: EdgeRulePlanInput, claimed: Set<string>): Match[] {
  const liveByGuid = new Map(input.live.map((r) => [key(r.Guid), r]));
  const previous = new Map((input.previous ?? []).map((s) => [s.name, s]));
  const matches: Match[] = (input.rules ?? []).map((spec, i) => {
    const desired = toWireRule(spec, i);
    const prev = previous.get(spec.name);
    const live = prev ? liveByGuid.get(key(prev.guid)) : undefined;
    if (live) claimed.add(key(live.Guid));
    return {
      spec,
      desired,
      canonical: canonicalRule(desired),
      live,
      created: prev?.createdByOperator === true && live !== undefined,
    };
  });
  for (const m of matches) {
    if (m.live) continue;
    const same = input.live.find(
      (r) => !claimed.has(key(r.Guid)) && jsonEqual(canonicalRule(r), m.canonical),
    );
    if (same) {
      claimed.add(key(same.Guid));
      m.live = same;
    }
  }
  return matches;
}

function planMatch(m: Match, diffs: FieldDiff[], actions: EdgeRuleAction[]): void {
  const field = `edgeRules[${m.spec.name}]`;
  if (!m.live) {
    diffs.push({ field, live: ABSENT, desired: renderRule(m.desired) });
    actions.push({ op: 'create', name: m.spec.name, rule: m.desired });
    return;
  }
  const have = canonicalRule(m.live);
  if (jsonEqual(have, m.canonical)) return;
  const guid = String(m.live.Guid);
  if (m.live.ReadOnly === true) {
    // Retrying cannot help: only a spec change (or the platform) can resolve it.
    throw new TerminalError(
      EdgeRuleReadOnly,
      `cannot update edge rule ${m.spec.name} (${guid}): the platform marks it read-only`,
    );
  }
  diffs.push({ field, live: renderRule(m.live), desired: renderRule(m.desired) });
  if (jsonEqual({ ...have, Enabled: m.canonical.Enabled }, m.canonical)) {
    actions.push({ op: 'setEnabled', name: m.spec.name, guid, enabled: m.canonical.Enabled });
  } else {
    actions.push({ op: 'update', name: m.spec.name, rule: { ...m.desired, Guid: guid } });
  }
}

function isRemovable(rule: EdgeRule, input: EdgeRulePlanInput, createdGuids: Set<string>): boolean {
  if (rule.ReadOnly === true) return false;
  return input.policy === 'Exact' || createdGuids.has(key(rule.Guid));
}

/** See the module comment. */
export function planEdgeRules(input: EdgeRulePlanInput): EdgeRulePlan {
  const claimed = new Set<string>();
  const matches = matchRules(input, claimed);
  const diffs: FieldDiff[] = [];
  const actions: EdgeRuleAction[] = [];
  const observed: EdgeRuleStatus[] = [];
  const createdGuids = new Set(
    (input.previous ?? []).filter((s) => s.createdByOperator === true).map((s) => key(s.guid)),
  );
  const previousName = new Map((input.previous ?? []).map((s) => [key(s.guid), s.name]));
  // Deletes first: they free the execution slots the other rules move into.
  for (const rule of input.live) {
    if (claimed.has(key(rule.Guid)) || !isRemovable(rule, input, createdGuids)) continue;
    const label = previousName.get(key(rule.Guid)) ?? String(rule.Guid);
    diffs.push({ field: `edgeRules[${label}]`, live: renderRule(rule), desired: ABSENT });
    actions.push({ op: 'delete', label, guid: String(rule.Guid) });
    if (createdGuids.has(key(rule.Guid))) {
      observed.push({ name: label, guid: String(rule.Guid), createdByOperator: true });
    }
  }
  for (const m of matches) {
    planMatch(m, diffs, actions);
    if (m.live) observed.push(statusEntry(m.spec.name, String(m.live.Guid), m.created));
  }
  return { diffs, actions, observed };
}

function statusEntry(name: string, guid: string, created: boolean): EdgeRuleStatus {
  return created ? { name, guid, createdByOperator: true } : { name, guid };
}

/**
 * Status after the calls: `observed` minus deleted rules, plus each created rule matched to
 * a rule that appeared in `after` (the zone read back once after the creates).
 */
export function statusAfterCreates(
  plan: EdgeRulePlan,
  before: readonly EdgeRule[],
  after: readonly EdgeRule[],
  order: readonly string[],
): EdgeRuleStatus[] {
  const deleted = new Set(plan.actions.filter((a) => a.op === 'delete').map((a) => key(a.guid)));
  const known = new Set(before.map((r) => key(r.Guid)));
  const fresh = after.filter((r) => !known.has(key(r.Guid)));
  const byName = new Map(
    plan.observed.filter((s) => !deleted.has(key(s.guid))).map((s) => [s.name, s]),
  );
  for (const a of plan.actions) {
    if (a.op !== 'create') continue;
    const want = canonicalRule(a.rule);
    const i = fresh.findIndex((r) => jsonEqual(canonicalRule(r), want));
    if (i < 0) continue;
    byName.set(a.name, { name: a.name, guid: String(fresh[i]?.Guid), createdByOperator: true });
    fresh.splice(i, 1);
  }
  return order.flatMap((name) => {
    const s = byName.get(name);
    return s ? [s] : [];
  });
}

/** True when the resource has edge rules to create or an exact rule set to enforce. */
export function managesEdgeRules(obj: {
  spec?: { edgeRules?: readonly unknown[]; edgeRulePolicy?: string };
}): boolean {
  return (obj.spec?.edgeRules ?? []).length > 0 || obj.spec?.edgeRulePolicy === 'Exact';
}
