/**
 * Rate limits (`/shield/rate-limit*`) as a shield rule family: the action
 * (`RatelimitRuleActionType`), the shared condition members, and the counting (request count,
 * counter key, timeframe, block time).
 */
import type { CdnClient } from '../../cdn/client.js';
import {
  BLOCK_TIME,
  COUNTER_KEY,
  RATE_LIMIT_ACTION,
  TIMEFRAME,
} from '../shieldrule-common/enums.js';
import type { RuleApi, RuleFamily } from '../shieldrule-common/family.js';
import { CONDITION_MEMBERS } from '../shieldrule-common/members.js';
import { SHIELD_RATE_LIMIT_NAMES } from './types.js';

function rateLimitApi(client: CdnClient): RuleApi {
  return {
    list: (zone, opts) => client.listRateLimits(zone, opts),
    get: (id, opts) => client.getRateLimit(id, opts),
    create: (body, opts) => client.createRateLimit(body, opts),
    update: (id, patch, opts) => client.updateRateLimit(id, patch, opts),
    delete: (id, opts) => client.deleteRateLimit(id, opts),
  };
}

/** The ShieldRateLimit family. */
export const RATE_LIMIT_FAMILY: RuleFamily = {
  names: SHIELD_RATE_LIMIT_NAMES,
  what: 'rate limit',
  members: [
    { spec: 'action', api: 'actionType', type: 'enum', table: RATE_LIMIT_ACTION },
    ...CONDITION_MEMBERS,
    { spec: 'requestCount', api: 'requestCount', type: 'integer' },
    { spec: 'counterKey', api: 'counterKeyType', type: 'enum', table: COUNTER_KEY },
    { spec: 'timeframe', api: 'timeframe', type: 'enum', table: TIMEFRAME },
    { spec: 'blockTime', api: 'blockTime', type: 'enum', table: BLOCK_TIME },
  ],
  limitField: 'rateLimitRulesLimit',
  api: rateLimitApi,
};
