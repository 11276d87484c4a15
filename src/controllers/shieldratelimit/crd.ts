/**
 * The ShieldRateLimit CRD schema: the shared shield rule schema (shieldrule-common/crd.ts) with
 * the action and the counting, whose names and number format come from the Shield document
 * (`CreateWafRateLimitRuleModel`).
 */
import type { DocumentBounds, KindSchema } from '../shared/crd-schema.js';
import { ruleSchema } from '../shieldrule-common/crd.js';

const MODEL = 'CreateWafRateLimitRuleModel';

/** The ShieldRateLimit schema (shieldratelimits). */
export function shieldRateLimitSchema(docs: DocumentBounds): KindSchema {
  return ruleSchema(docs, {
    what: 'rate limit',
    description:
      "One rate limit rule of a shield zone, managed by cdn-operator: requests matching the condition are counted per client, and a client over requestCount per timeframe gets the action for blockTime. The zone's plan caps how many a zone may have (rateLimitRulesLimit).",
    own: {
      action: {
        type: 'string',
        enum: docs.enumNames('shield', 'RatelimitRuleActionType'),
        description:
          'What a client over the limit gets: RateLimit (refused with 429), Log (let through and log) or Challenge.',
      },
      requestCount: {
        ...docs.bounds('shield', `${MODEL}.requestCount`, ['format']),
        type: 'integer',
        minimum: 1,
        maximum: 2147483647,
        description: 'Requests one client may make per timeframe before the action applies.',
      },
      counterKey: {
        type: 'string',
        enum: docs.enumNames('shield', 'WafRatelimitCounterKeyType'),
        description:
          'What requests are counted per: IP, Host, Country, City, ASN, Organization, JA4 (TLS fingerprint) or IP_JA4. Unset: not managed; a new rule counts per IP.',
      },
      timeframe: {
        type: 'string',
        enum: docs.enumNames('shield', 'WafRateLimitTimeframeType'),
        description: 'The counting window.',
      },
      blockTime: {
        type: 'string',
        enum: docs.enumNames('shield', 'WafRatelimitBlockType'),
        description: 'How long a client over the limit gets the action.',
      },
    },
    required: ['action', 'requestCount', 'timeframe', 'blockTime'],
  });
}
