/**
 * Minimal valid specs (without a zone) of the shield rule kinds, shared by their unit and e2e
 * tests: a custom WAF rule blocking a path and a rate limit on a login path.
 */
import { wireOf, type AnyField } from '../../src/controllers/kit/fields.js';
import { RATE_LIMIT_FAMILY } from '../../src/controllers/shieldratelimit/family.js';
import { CONFIGURATION } from '../../src/controllers/shieldrule-common/fields.js';
import type { RuleFamily } from '../../src/controllers/shieldrule-common/family.js';
import { WAF_RULE_FAMILY } from '../../src/controllers/shieldwafrule/family.js';

export const WAF_SPEC: Record<string, unknown> = {
  action: 'Block',
  variables: { REQUEST_URI: '' },
  operator: 'BeginsWith',
  value: '/wp-admin',
};

export const RATE_SPEC: Record<string, unknown> = {
  action: 'RateLimit',
  variables: { REQUEST_URI: '' },
  operator: 'BeginsWith',
  value: '/login',
  requestCount: 20,
  timeframe: 'PerOneMinute',
  blockTime: 'ForFiveMinutes',
};

/** Each kind with its spec and the platform path of one rule. */
export const RULE_KINDS: ReadonlyArray<{
  family: RuleFamily;
  spec: Record<string, unknown>;
  prefix: string;
}> = [
  { family: WAF_RULE_FAMILY, spec: WAF_SPEC, prefix: '/shield/waf/custom-rule' },
  { family: RATE_LIMIT_FAMILY, spec: RATE_SPEC, prefix: '/shield/rate-limit' },
];

/** The `ruleConfiguration` a create of `spec` sends (the members it sets, as wire values). */
export function desiredConfiguration(
  fields: readonly AnyField[],
  spec: Record<string, unknown>,
): Record<string, unknown> {
  return (wireOf(fields, spec)[CONFIGURATION] as Record<string, unknown> | undefined) ?? {};
}
