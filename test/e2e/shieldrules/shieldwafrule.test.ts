/** ShieldWafRule end to end: the shield rule flows (flows.ts) for custom WAF rules. */
import { RULE_KINDS } from '../../support/shield-rule-specs.js';
import { defineShieldRuleTests } from './flows.js';

defineShieldRuleTests({
  ...RULE_KINDS[0]!,
  // A Basic zone allows no custom WAF rule.
  basicAllows: 0,
});
