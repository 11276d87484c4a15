/**
 * The ShieldWafRule CRD schema: the shared shield rule schema (shieldrule-common/crd.ts) with
 * the action, whose names come from the Shield document (`WafRuleActionType`).
 */
import type { DocumentBounds, KindSchema } from '../shared/crd-schema.js';
import { ruleSchema } from '../shieldrule-common/crd.js';

/** The ShieldWafRule schema (shieldwafrules). */
export function shieldWafRuleSchema(docs: DocumentBounds): KindSchema {
  return ruleSchema(docs, {
    what: 'custom WAF rule',
    description:
      "One custom WAF rule of a shield zone, managed by cdn-operator: a condition on the request and what a matching request gets. Needs a plan that allows custom WAF rules (the zone's customWafRulesLimit).",
    own: {
      action: {
        type: 'string',
        enum: docs.enumNames('shield', 'WafRuleActionType'),
        description:
          'What a matching request gets: Block, Log (let through and log), Challenge, Allow (skip the other WAF rules) or Bypass (skip the whole shield).',
      },
    },
    required: ['action'],
  });
}
