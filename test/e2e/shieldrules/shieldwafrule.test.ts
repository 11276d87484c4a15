/** ShieldWafRule end to end: the shield rule flows (flows.ts) for custom WAF rules. */
import { WAF_RULE_FAMILY } from '../../../src/controllers/shieldwafrule/family.js';
import { defineShieldRuleTests } from './flows.js';

defineShieldRuleTests({
  family: WAF_RULE_FAMILY,
  spec: {
    action: 'Block',
    variables: { REQUEST_URI: '' },
    operator: 'BEGINSWITH',
    value: '/wp-admin',
  },
  prefix: '/shield/waf/custom-rule',
  // A Basic zone allows no custom WAF rule.
  basicAllows: 0,
});
