/** Custom WAF rules (`/shield/waf/custom-rule*`): the shared rule fields with their action. */
import type { CdnClient } from '../../cdn/client.js';
import { field } from '../kit/fields.js';
import { WAF_ACTION } from '../shieldrule-common/enums.js';
import type { RuleApi, RuleFamily } from '../shieldrule-common/family.js';
import { ruleEnum, ruleFields } from '../shieldrule-common/fields.js';
import { SHIELD_WAF_RULE_NAMES } from './types.js';

/** The ShieldWafRule's fields. */
export const WAF_RULE_FIELDS = ruleFields(
  'custom WAF rule',
  field('action', ruleEnum(WAF_ACTION), {
    api: 'actionType',
    required: true,
    description:
      'What a matching request gets: Block, Log (let through and log), Challenge, Allow (skip the other WAF rules) or Bypass (skip the whole shield).',
  }),
  [],
);

function wafRuleApi(client: CdnClient): RuleApi {
  return {
    list: (zone, opts) => client.listCustomWafRules(zone, opts),
    get: (id, opts) => client.getCustomWafRule(id, opts),
    create: (body, opts) => client.createCustomWafRule(body, opts),
    update: (id, patch, opts) => client.updateCustomWafRule(id, patch, opts),
    delete: (id, opts) => client.deleteCustomWafRule(id, opts),
  };
}

/** The ShieldWafRule family. */
export const WAF_RULE_FAMILY: RuleFamily = {
  names: SHIELD_WAF_RULE_NAMES,
  what: 'custom WAF rule',
  description:
    "One custom WAF rule of a shield zone, managed by cdn-operator: a condition on the request and what a matching request gets. Needs a plan that allows custom WAF rules (the zone's customWafRulesLimit).",
  members: WAF_RULE_FIELDS,
  limitField: 'customWafRulesLimit',
  api: wafRuleApi,
};
