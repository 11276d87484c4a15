/** The ShieldWafRule custom resource as the controller reads it (its fields: family.ts). */
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { ShieldRuleSpecBase, ShieldRuleStatusBase } from '../shieldrule-common/types.js';
import type { WAF_RULE_FIELDS } from './family.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_WAF_RULE_NAMES: NamedResourceKind = {
  kind: 'ShieldWafRule',
  plural: 'shieldwafrules',
  shortNames: ['swr'],
  scope: 'Namespaced',
  family: 'shield',
  platformNames: 'shared',
};

/** `spec` of a ShieldWafRule: the field table's members and the shared parts. */
export type ShieldWafRuleSpec = SpecOf<typeof WAF_RULE_FIELDS> & ShieldRuleSpecBase;

/** `status` of a ShieldWafRule. */
export type ShieldWafRuleStatus = ShieldRuleStatusBase;
