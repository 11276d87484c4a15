/** The ShieldWafRule controller, planner and exporter: the shield rule code for custom WAF rules. */
import type { ManagedKind } from '../../runtime/types.js';
import type { ControllerDeps } from '../shared/deps.js';
import type { KindExporter } from '../shared/manifest-export.js';
import type { KindPlanner } from '../shared/manifest-plan.js';
import { createRuleKind } from '../shieldrule-common/controller.js';
import { ruleExporter } from '../shieldrule-common/export.js';
import { rulePlanner } from '../shieldrule-common/plan.js';
import type { RuleObject } from '../shieldrule-common/zone.js';
import { WAF_RULE_FAMILY } from './family.js';

/** Builds the ShieldWafRule ManagedKind. */
export function createShieldWafRuleKind(deps: ControllerDeps): ManagedKind<RuleObject> {
  return createRuleKind(WAF_RULE_FAMILY, deps);
}

/** `cdnctl diff` of a ShieldWafRule manifest. */
export const planShieldWafRule: KindPlanner = rulePlanner(WAF_RULE_FAMILY);

/** `cdnctl export` of every custom WAF rule of the account. */
export const exportShieldWafRules: KindExporter = ruleExporter(WAF_RULE_FAMILY);
