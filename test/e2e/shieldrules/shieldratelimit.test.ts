/** ShieldRateLimit end to end: the shield rule flows (flows.ts) for rate limits. */
import { RULE_KINDS } from '../../support/shield-rule-specs.js';
import { defineShieldRuleTests } from './flows.js';

defineShieldRuleTests({
  ...RULE_KINDS[1]!,
  // A Basic zone allows two rate limits.
  basicAllows: 2,
});
