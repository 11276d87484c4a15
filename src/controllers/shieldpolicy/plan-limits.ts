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
import { isCdnApiError, type CdnApiError } from '../../cdn/errors.js';
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

/** Reason of the Synced condition when the zone's plan does not include a managed feature. */
export const PlanNotSufficient = 'PlanNotSufficient';

/** The platform's error key of a refusal because the zone's plan lacks the feature. */
export const PLAN_REQUIRED_KEY = 'shield.plan_required';

/**
 * True for a platform refusal because of the zone's plan: the plan error key, or a 403 whose
 * message speaks of the plan (the documents give the 403 answer but no key list).
 */
export function isPlanRefusal(err: unknown): err is CdnApiError {
  if (!isCdnApiError(err)) return false;
  if (err.errorKey === PLAN_REQUIRED_KEY) return true;
  return err.status === 403 && /\bplan\b/i.test(err.detail);
}

/**
 * Thrown when the platform refused a managed setting because the zone's plan does not include
 * it. Retried slowly (the poll interval): the plan may be upgraded outside Kubernetes, and
 * nothing in the spec is wrong, so it is never InvalidSpec.
 */
export class PlanNotSufficientError extends Error {
  readonly reason = PlanNotSufficient;
  constructor(
    /** Spec path of the refused setting (`customPages`). */
    readonly specPath: string,
    /** The platform's explanation (names the plan needed). */
    detail: string,
    planType: string | undefined,
    /** Recheck delay (the poll interval). */
    readonly retryAfterMs?: number,
  ) {
    const plan = planType ? ` (${planType})` : '';
    super(`cannot apply spec.${specPath}: the zone's plan${plan} does not include it: ${detail}`);
    this.name = 'PlanNotSufficientError';
  }
}

/** Runs a write for `specPath`, turning a plan refusal into {@link PlanNotSufficientError}. */
export async function withPlanCheck<T>(
  specPath: string,
  planType: string | undefined,
  retryAfterMs: number | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isPlanRefusal(err))
      throw new PlanNotSufficientError(specPath, err.detail, planType, retryAfterMs);
    throw err;
  }
}
