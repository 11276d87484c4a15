/** The ShieldWafRule CRD schema: the shield rule schema of its family (family.ts). */
import type { DocumentBounds, KindSchema } from '../shared/crd-schema.js';
import { ruleSchema } from '../shieldrule-common/crd.js';
import { WAF_RULE_FAMILY } from './family.js';

/** The ShieldWafRule schema (shieldwafrules). */
export function shieldWafRuleSchema(docs: DocumentBounds): KindSchema {
  return ruleSchema(docs, WAF_RULE_FAMILY);
}
