/** ShieldRateLimit end to end: the shield rule flows (flows.ts) for rate limits. */
import { RATE_LIMIT_FAMILY } from '../../../src/controllers/shieldratelimit/family.js';
import { defineShieldRuleTests } from './flows.js';

defineShieldRuleTests({
  family: RATE_LIMIT_FAMILY,
  spec: {
    action: 'RateLimit',
    variables: { REQUEST_URI: '' },
    operator: 'BEGINSWITH',
    value: '/login',
    requestCount: 20,
    timeframe: 'PerOneMinute',
    blockTime: 'ForFiveMinutes',
  },
  prefix: '/shield/rate-limit',
  // A Basic zone allows two rate limits.
  basicAllows: 2,
});
