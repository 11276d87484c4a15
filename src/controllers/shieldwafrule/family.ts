/**
 * Custom WAF rules (`/shield/waf/custom-rule*`) as a shield rule family: the action
 * (`WafRuleActionType`) and the shared condition members.
 */
import type { CdnClient } from '../../cdn/client.js';
import { WAF_ACTION } from '../shieldrule-common/enums.js';
import type { RuleApi, RuleFamily } from '../shieldrule-common/family.js';
import { CONDITION_MEMBERS } from '../shieldrule-common/members.js';
import { SHIELD_WAF_RULE_NAMES } from './types.js';

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
  members: [
    { spec: 'action', api: 'actionType', type: 'enum', table: WAF_ACTION },
    ...CONDITION_MEMBERS,
  ],
  limitField: 'customWafRulesLimit',
  api: wafRuleApi,
};
