/** The ShieldWafRule kind: one custom WAF rule of a shield zone. */
import type { KindModule } from '../kind-module.js';
import { SHIELD_WAF_RULE_NAMES } from './types.js';

export const SHIELD_WAF_RULE: KindModule = {
  ...SHIELD_WAF_RULE_NAMES,
  schema: async () => (await import('./crd.js')).shieldWafRuleSchema,
  controller: async () => (await import('./index.js')).createShieldWafRuleKind,
  planner: async () => (await import('./index.js')).planShieldWafRule,
  exporter: async () => (await import('./index.js')).exportShieldWafRules,
  // Custom WAF rules need a plan above Basic: the example is not applied with the chart's defaults.
  example: 'shield/shieldwafrule.yaml',
};
