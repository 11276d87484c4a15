/**
 * What the shield rule kinds have in common besides their field table (fields.ts): the zone,
 * adoption, the status and the platform's record. Each kind's types.ts adds `SpecOf` its table.
 */
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** The spec members every shield rule kind has outside its field table (crd.ts). */
export interface ShieldRuleSpecBase extends AccountSpec, AdoptionSpec {
  /** A ShieldPolicy in the same namespace (exactly one of shieldPolicyRef / shieldZoneId). */
  shieldPolicyRef?: { name: string };
  shieldZoneId?: number;
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
