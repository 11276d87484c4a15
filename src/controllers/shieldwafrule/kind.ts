/** The ShieldWafRule kind: one custom WAF rule of a shield zone. */
import type { KindModule } from '../kind-module.js';
import { ruleKindParts } from '../shieldrule-common/family.js';
import { RULE_LEGACY_MOVES } from '../shieldrule-common/legacy-moves.js';
import { SHIELD_WAF_RULE_NAMES } from './types.js';

export const SHIELD_WAF_RULE: KindModule = {
  ...SHIELD_WAF_RULE_NAMES,
  ...ruleKindParts(async () => (await import('./family.js')).WAF_RULE_FAMILY),
  // Custom WAF rules need a plan above Basic: the example is not applied with the chart's defaults.
  example: 'shield/shieldwafrule.yaml',
  legacyMoves: RULE_LEGACY_MOVES,
};
