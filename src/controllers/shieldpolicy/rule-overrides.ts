/**
 * Checks of the managed-rule overrides of a policy (`spec.waf.disabledRules`,
 * `spec.waf.logOnlyRules`) before they are written. Pure: the zone's managed rules
 * (`GET /shield/waf/rules/{shieldZoneId}`) and the rules of each plan
 * (`GET /shield/waf/rules/plan-segmentation`) are read by the caller (rule-catalog.ts).
 *
 * The platform's update model takes any string in these lists (the document declares no 400
 * on the update, cdn-sim stores what it is given), so an id the zone does not have would be
 * stored and do nothing. The operator refuses it instead, naming the field and the id:
 *
 * - an id the zone's rules lack but a higher plan has: `PlanNotSufficient`, naming that plan;
 * - an id no plan has: `InvalidSpec`;
 * - an id in both lists: `InvalidSpec` (the CRD refuses it at apply time too).
 *
 * Only ids a write would add are checked against the platform: ids the zone already carries
 * were accepted before (a plan downgrade does not block restoring the rest of the list).
 */
import type { WafRuleGroup, WafRulesByPlan } from '../../cdn/security-types.js';
import type { WireZone } from './mapping.js';

/** The override lists: API field and spec path. */
export const OVERRIDE_FIELDS = [
  { wire: 'wafDisabledRules', specPath: 'waf.disabledRules' },
  { wire: 'wafLogOnlyRules', specPath: 'waf.logOnlyRules' },
] as const;

/** API name of an override list. */
export type OverrideField = (typeof OVERRIDE_FIELDS)[number]['wire'];

/** Why an override id is refused. */
export type OverrideProblemKind = 'PlanNotSufficient' | 'UnknownRule' | 'InBothLists';

/** One refused id of one list. */
export interface OverrideProblem {
  field: OverrideField;
  specPath: string;
  ruleId: string;
  kind: OverrideProblemKind;
  /** PlanNotSufficient: the lowest plan that has the rule. */
  plan?: string;
}

/** The lowest plan of each managed rule id, by name. */
export type RulePlans = ReadonlyMap<string, { value: number; name: string }>;

function ruleIdsOfGroups(groups: readonly WafRuleGroup[] | null | undefined): string[] {
  const ids: string[] = [];
  for (const main of groups ?? []) {
    for (const group of main.ruleGroups ?? []) {
      for (const rule of group.rules ?? []) {
        if (typeof rule.ruleId === 'string' && rule.ruleId !== '') ids.push(rule.ruleId);
      }
    }
  }
  return ids;
}

/** Every rule id of a `GET /shield/waf/rules/{shieldZoneId}` answer. */
export function zoneRuleIds(groups: readonly WafRuleGroup[]): Set<string> {
  return new Set(ruleIdsOfGroups(groups));
}

/**
 * The lowest plan that has each rule of a plan-segmentation answer (a plan lists the rules it
 * adds; a rule listed under several plans belongs to the lowest).
 */
export function rulePlans(byPlan: readonly WafRulesByPlan[]): RulePlans {
  const out = new Map<string, { value: number; name: string }>();
  for (const plan of byPlan) {
    const value = typeof plan.planValue === 'number' ? plan.planValue : Number.MAX_SAFE_INTEGER;
    const name = plan.planName ?? `plan ${String(plan.planValue)}`;
    for (const id of ruleIdsOfGroups(plan.rules)) {
      const known = out.get(id);
      if (!known || value < known.value) out.set(id, { value, name });
    }
  }
  return out;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => String(x)) : [];
}

/** Ids named by both lists of the desired settings (pure spec problem). */
export function overlapProblems(desired: WireZone): OverrideProblem[] {
  const logOnly = new Set(strings(desired.wafLogOnlyRules));
  const both = [...new Set(strings(desired.wafDisabledRules))].filter((id) => logOnly.has(id));
  return both.flatMap((ruleId) =>
    OVERRIDE_FIELDS.map((f) => ({
      field: f.wire,
      specPath: f.specPath,
      ruleId,
      kind: 'InBothLists' as const,
    })),
  );
}

/** Ids the write of each differing override list would add to the zone, by field. */
export function addedIds(
  desired: WireZone,
  live: WireZone,
  differing: ReadonlySet<string>,
): Map<OverrideField, string[]> {
  const out = new Map<OverrideField, string[]>();
  for (const f of OVERRIDE_FIELDS) {
    if (!differing.has(f.wire) || !(f.wire in desired)) continue;
    const have = new Set(strings(live[f.wire]));
    const added = [...new Set(strings(desired[f.wire]))].filter((id) => !have.has(id));
    if (added.length > 0) out.set(f.wire, added);
  }
  return out;
}

/**
 * The added ids the zone's rules lack, each with its reason: a plan above the zone's that has
 * it (from `plans`; `zonePlan` is the zone's plan value, unknown = any plan counts), or
 * unknown.
 */
export function missingRuleProblems(
  added: ReadonlyMap<OverrideField, readonly string[]>,
  zoneRules: ReadonlySet<string>,
  plans: RulePlans | undefined,
  zonePlan?: number,
): OverrideProblem[] {
  const out: OverrideProblem[] = [];
  for (const f of OVERRIDE_FIELDS) {
    for (const ruleId of added.get(f.wire) ?? []) {
      if (zoneRules.has(ruleId)) continue;
      const found = plans?.get(ruleId);
      const plan = found && (zonePlan === undefined || found.value > zonePlan) ? found : undefined;
      out.push({
        field: f.wire,
        specPath: f.specPath,
        ruleId,
        ...(plan
          ? { kind: 'PlanNotSufficient' as const, plan: plan.name }
          : { kind: 'UnknownRule' as const }),
      });
    }
  }
  return out;
}

/** True when some added id is missing from the zone's rules (the plans are needed to explain). */
export function anyMissing(
  added: ReadonlyMap<OverrideField, readonly string[]>,
  zoneRules: ReadonlySet<string>,
): boolean {
  for (const ids of added.values()) if (ids.some((id) => !zoneRules.has(id))) return true;
  return false;
}

function describeProblem(p: OverrideProblem, zonePlan: string | undefined): string {
  switch (p.kind) {
    case 'PlanNotSufficient':
      return `spec.${p.specPath}: rule ${p.ruleId} needs the ${p.plan ?? 'a higher'} plan or higher; the zone's plan is ${zonePlan ?? 'lower'}`;
    case 'InBothLists':
      return `spec.waf.disabledRules and spec.waf.logOnlyRules: rule ${p.ruleId} is in both (a rule is either disabled or log-only)`;
    default:
      return `spec.${p.specPath}: rule ${p.ruleId} is not one of the zone's managed WAF rules, and no higher plan has it`;
  }
}

/** Reason of the Synced condition: PlanNotSufficient when every problem is one, else InvalidSpec. */
export function overridesReason(problems: readonly OverrideProblem[]): string {
  return problems.every((p) => p.kind === 'PlanNotSufficient')
    ? 'PlanNotSufficient'
    : 'InvalidSpec';
}

/**
 * Thrown after the rest of the policy was applied when override lists were held back. Retried
 * after `retryAfterMs` (the poll interval: a plan upgraded on the dashboard or a spec change
 * is picked up) or with the normal backoff when this pass changed the plan.
 */
export class RuleOverrideError extends Error {
  readonly reason: string;
  constructor(
    readonly problems: readonly OverrideProblem[],
    zonePlan: string | undefined,
    readonly retryAfterMs?: number,
  ) {
    const seen = new Set<string>();
    const parts = problems
      .filter((p) => p.kind !== 'InBothLists' || p.field === 'wafDisabledRules')
      .map((p) => describeProblem(p, zonePlan))
      .filter((text) => !seen.has(text) && seen.add(text));
    super(
      `cannot apply the WAF rule overrides, nothing was written for these lists: ${parts.join('; ')}`,
    );
    this.name = 'RuleOverrideError';
    this.reason = overridesReason(problems);
  }
}
