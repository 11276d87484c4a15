/**
 * What the shield rule kinds (ShieldWafRule, ShieldRateLimit) have in common: the shield zone
 * they live on, adoption, the rule's name and description, its condition, and the status. Each
 * kind's types.ts extends these with its action (and, for rate limits, the counting).
 */
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** One condition: which request variables, how they are compared, with what. */
export interface RuleConditionSpec {
  /** Request variables to inspect, each with a sub-key (a header name, ...) or "". */
  variables: Record<string, string>;
  /** Comparison (`WafRuleOperatorType` name). */
  operator: string;
  value?: string;
  negated?: boolean;
  regexVariable?: boolean;
}

/** The spec members every shield rule kind has (crd.ts of the common folder describes them). */
export interface ShieldRuleSpecBase extends AccountSpec, AdoptionSpec, RuleConditionSpec {
  /** A ShieldPolicy in the same namespace (exactly one of shieldPolicyRef / shieldZoneId). */
  shieldPolicyRef?: { name: string };
  shieldZoneId?: number;
  /** Adopt the rule with this id. */
  ruleId?: number;
  /** The rule's name on the platform (default metadata.name). */
  name?: string;
  description?: string;
  severity?: string;
  transformations?: string[];
  chainedConditions?: RuleConditionSpec[];
}

/** `status` of a shield rule. */
export interface ShieldRuleStatusBase extends KindStatus {
  ruleId?: number | string;
  shieldZoneId?: number;
  name?: string;
}

/** A rule as the platform answers it (custom WAF rule or rate limit). */
export interface RuleRecord {
  id?: number;
  shieldZoneId?: number;
  ruleName?: string | null;
  ruleDescription?: string | null;
  ruleConfiguration?: Record<string, unknown>;
}
