/** The ShieldWafRule custom resource as the controller reads it (crd.ts describes every field). */
import type { KindNames } from '../kind-names.js';
import type { ShieldRuleSpecBase, ShieldRuleStatusBase } from '../shieldrule-common/types.js';
import type { RuleObject } from '../shieldrule-common/zone.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_WAF_RULE_NAMES: KindNames = {
  kind: 'ShieldWafRule',
  plural: 'shieldwafrules',
  shortNames: ['swr'],
  scope: 'Namespaced',
};

/** `spec` of a ShieldWafRule. */
export interface ShieldWafRuleSpec extends ShieldRuleSpecBase {
  /** What a matching request gets (`WafRuleActionType` name). */
  action: string;
}

/** `status` of a ShieldWafRule. */
export type ShieldWafRuleStatus = ShieldRuleStatusBase;

/** A ShieldWafRule object. */
export interface ShieldWafRule extends RuleObject {
  spec?: ShieldWafRuleSpec & Record<string, unknown>;
}
