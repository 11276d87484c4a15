/**
 * Plan limits. A shield zone's plan caps how many custom WAF rules (`customWafRulesLimit`) and
 * rate-limit rules (`rateLimitRulesLimit`) it may have. Of the fields a ShieldPolicy manages,
 * exactly one counts against a limit:
 *
 * - `waf.customRuleOrder` (API `wafCustomRuleOrder`): every distinct custom rule id listed
 *   counts as one custom WAF rule against `customWafRulesLimit`.
 *
 * Nothing in a ShieldPolicy creates rate-limit rules, so `rateLimitRulesLimit` is only reported
 * in status. A limit the zone does not report (absent or negative) is not enforced.
 */
import type { WireZone } from './mapping.js';

/** Reason of the Synced condition when the desired configuration exceeds the plan. */
export const PlanLimitExceeded = 'PlanLimitExceeded';

/** One desired field that needs more than the zone's plan allows. */
export interface PlanLimitViolation {
  /** API field held back (`wafCustomRuleOrder`). */
  field: string;
  /** Spec path, for messages (`waf.customRuleOrder`). */
  specPath: string;
  /** The zone limit it counts against (`customWafRulesLimit`). */
  limit: string;
  /** How many the desired configuration needs. */
  required: number;
  /** How many the plan allows. */
  allowed: number;
}

interface LimitRule {
  field: string;
  specPath: string;
  limit: string;
  count(desired: unknown): number;
}

/** Which desired fields count against which zone limit. */
export const LIMIT_RULES: readonly LimitRule[] = [
  {
    field: 'wafCustomRuleOrder',
    specPath: 'waf.customRuleOrder',
    limit: 'customWafRulesLimit',
    count: (v) => (Array.isArray(v) ? new Set(v.map((x) => String(x))).size : 0),
  },
];

/** API fields that count against a plan limit. */
export const LIMITED_FIELDS: ReadonlySet<string> = new Set(LIMIT_RULES.map((r) => r.field));

/**
 * Checks the desired fields listed in `fields` (default: all desired fields) against the
 * limits reported on the live zone; returns one entry per field that exceeds its limit.
 */
export function checkPlanLimits(
  desired: WireZone,
  live: WireZone,
  fields?: ReadonlySet<string>,
): PlanLimitViolation[] {
  const out: PlanLimitViolation[] = [];
  for (const rule of LIMIT_RULES) {
    if (!(rule.field in desired) || (fields && !fields.has(rule.field))) continue;
    const allowed = live[rule.limit];
    if (typeof allowed !== 'number' || !Number.isFinite(allowed) || allowed < 0) continue;
    const required = rule.count(desired[rule.field]);
    if (required > allowed) {
      out.push({
        field: rule.field,
        specPath: rule.specPath,
        limit: rule.limit,
        required,
        allowed,
      });
    }
  }
  return out;
}

/** `spec.waf.customRuleOrder needs 5 custom WAF rules but the zone's plan (Basic) allows 3 (customWafRulesLimit)`. */
export function describeViolations(
  violations: readonly PlanLimitViolation[],
  planType?: string,
): string {
  const plan = planType ? ` (${planType})` : '';
  return violations
    .map(
      (v) =>
        `spec.${v.specPath} needs ${v.required} but the zone's plan${plan} allows ${v.allowed} (${v.limit})`,
    )
    .join('; ');
}

/** Thrown when desired fields were held back because they exceed the plan's limits. */
export class PlanLimitError extends Error {
  readonly reason = PlanLimitExceeded;
  constructor(
    readonly violations: readonly PlanLimitViolation[],
    planType?: string,
    /** Recheck delay: the plan may be upgraded outside Kubernetes (the poll interval). */
    readonly retryAfterMs?: number,
  ) {
    super(
      `cannot apply the policy within the plan limits: ${describeViolations(violations, planType)}`,
    );
    this.name = 'PlanLimitError';
  }
}
