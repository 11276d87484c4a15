/**
 * Rate limits (`/shield/rate-limit*`): the shared rule fields with their action and counting
 * (`CreateWafRateLimitRuleModel`: request count, counter key, timeframe, block time).
 */
import type { CdnClient } from '../../cdn/client.js';
import { absentAs, integer } from '../kit/codecs.js';
import { field } from '../kit/fields.js';
import {
  BLOCK_TIME,
  COUNTER_KEY,
  RATE_LIMIT_ACTION,
  TIMEFRAME,
} from '../shieldrule-common/enums.js';
import type { RuleApi, RuleFamily } from '../shieldrule-common/family.js';
import { ruleEnum, ruleFields } from '../shieldrule-common/fields.js';
import { SHIELD_RATE_LIMIT_NAMES } from './types.js';

/** The ShieldRateLimit's fields. */
export const RATE_LIMIT_FIELDS = ruleFields(
  'rate limit',
  field('action', ruleEnum(RATE_LIMIT_ACTION), {
    api: 'actionType',
    required: true,
    description:
      'What a client over the limit gets: RateLimit (refused with 429), Log (let through and log) or Challenge.',
  }),
  [
    field('requestCount', absentAs(integer({ minimum: 1, maximum: 2147483647 }), 0), {
      api: 'requestCount',
      required: true,
      bounds: (docs) =>
        docs.bounds('shield', 'CreateWafRateLimitRuleModel.requestCount', ['format']),
      description: 'Requests one client may make per timeframe before the action applies.',
    }),
    field('counterKey', ruleEnum(COUNTER_KEY), {
      api: 'counterKeyType',
      description:
        'What requests are counted per: IP, Host, Country, City, ASN, Organization, JA4 (TLS fingerprint) or IPAndJA4 (the pair). Unset: not managed; a new rule counts per IP.',
    }),
    field('timeframe', ruleEnum(TIMEFRAME), {
      api: 'timeframe',
      required: true,
      description: 'The counting window.',
    }),
    field('blockTime', ruleEnum(BLOCK_TIME), {
      api: 'blockTime',
      required: true,
      description: 'How long a client over the limit gets the action.',
    }),
  ],
);

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
  description:
    "One rate limit rule of a shield zone, managed by cdn-operator: requests matching the condition are counted per client, and a client over requestCount per timeframe gets the action for blockTime. The zone's plan caps how many a zone may have (rateLimitRulesLimit).",
  members: RATE_LIMIT_FIELDS,
  limitField: 'rateLimitRulesLimit',
  api: rateLimitApi,
};
