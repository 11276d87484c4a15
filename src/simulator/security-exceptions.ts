/**
 * Contract exceptions of the shield rule, access list, shield feature, container registry and
 * log forwarding routes (see contract-exceptions.ts for the two kinds), kept apart so these
 * routes' deviations read as one list; contract-exceptions.ts includes them.
 */
import type { ExceptionArea, ResponseException } from './contract-exception-types.js';

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });

function answers(
  area: ExceptionArea,
  method: string,
  path: string,
  statuses: number[],
  schema: Record<string, unknown> | null,
  reason: string,
): ResponseException[] {
  return statuses.map((status) => ({
    kind: 'response',
    area,
    method,
    path,
    status,
    schema,
    reason,
  }));
}

const PLAN =
  "403 `shield.plan_required`: the zone's plan does not include the feature or its count limit is reached (the document lists 403 for this on the bot detection and upload scanning routes).";
const NOT_FOUND =
  'An unknown shield zone or rule: 404 with the same answer shape; the document lists no 404.';
const INVALID =
  "A body the handler refuses: 400 with the same answer shape, or the strict gate's `error` member for a body the document rejects; the document lists no 400.";

/** A 400 is the operation's own shape (handler) or the strict gate's metrics-style `error`. */
function invalidShape(schema: Record<string, unknown>): Record<string, unknown> {
  return { anyOf: [schema, ref('GetWafRuleMetricsResponse')] };
}

/** `rateLimit` family answers: the document declares the custom WAF rule shape instead. */
const rateLimitList = {
  type: 'object',
  additionalProperties: false,
  properties: {
    data: { type: 'array', nullable: true, items: ref('RateLimitRule') },
    page: ref('PaginationResponse'),
    error: ref('GenericRequestResponse'),
  },
};

const RULE_FAMILIES = [
  [
    '/shield/waf/custom-rule',
    '/shield/waf/custom-rules/{shieldZoneId}',
    'CustomWafRule',
    'GetCustomWafRulesResponse',
  ],
  ['/shield/rate-limit', '/shield/rate-limits/{shieldZoneId}', 'RateLimitRule', null],
] as const;

function ruleExceptions(): ResponseException[] {
  return RULE_FAMILIES.flatMap(([one, list, record, listSchema]) => [
    ...answers('shield', 'POST', one, [400], invalidShape(ref(record)), INVALID),
    ...answers('shield', 'POST', one, [403], ref(record), PLAN),
    ...answers('shield', 'POST', one, [404], ref(record), NOT_FOUND),
    ...answers('shield', 'GET', `${one}/{id}`, [404], ref(record), NOT_FOUND),
    ...answers('shield', 'PATCH', `${one}/{id}`, [400], invalidShape(ref(record)), INVALID),
    ...answers('shield', 'PATCH', `${one}/{id}`, [404], ref(record), NOT_FOUND),
    // Only custom WAF rules have PUT.
    ...(record === 'CustomWafRule'
      ? [
          ...answers('shield', 'PUT', `${one}/{id}`, [400], invalidShape(ref(record)), INVALID),
          ...answers('shield', 'PUT', `${one}/{id}`, [404], ref(record), NOT_FOUND),
        ]
      : []),
    ...answers('shield', 'DELETE', `${one}/{id}`, [404], ref('GenericRequestResponse'), NOT_FOUND),
    ...answers(
      'shield',
      'GET',
      list,
      [404],
      listSchema ? ref(listSchema) : rateLimitList,
      NOT_FOUND,
    ),
  ]);
}

const RATE_LIMIT_READS =
  'Rate limits are read back with their rate-limit members (requestCount, counterKeyType, timeframe, blockTime) as the create and update answers show (RateLimitRule); the document declares the custom WAF rule shape, which has none of them, for the two reads.';

const ACCESS = '/shield/shield-zone/{shieldZoneId}/access-lists';
const ZONE = '/shield/shield-zone/{shieldZoneId}';

function accessListExceptions(): ResponseException[] {
  const one = ref('CustomAccessListResponse');
  return [
    ...answers('shield', 'GET', ACCESS, [404], ref('AccessListsDetailsResponse'), NOT_FOUND),
    ...answers('shield', 'POST', ACCESS, [403], one, PLAN),
    ...answers('shield', 'POST', ACCESS, [404], one, NOT_FOUND),
    ...answers('shield', 'GET', `${ACCESS}/{id}`, [404], one, NOT_FOUND),
    ...answers('shield', 'PATCH', `${ACCESS}/{id}`, [403], one, PLAN),
    ...answers('shield', 'PATCH', `${ACCESS}/{id}`, [404], one, NOT_FOUND),
    ...answers(
      'shield',
      'DELETE',
      `${ACCESS}/{id}`,
      [404],
      ref('GenericRequestResponse'),
      NOT_FOUND,
    ),
    ...answers(
      'shield',
      'PATCH',
      `${ACCESS}/configurations/{id}`,
      [403],
      ref('UpdateAccessListConfigurationResponse'),
      PLAN,
    ),
    ...answers(
      'shield',
      'PATCH',
      `${ACCESS}/configurations/{id}`,
      [404],
      ref('UpdateAccessListConfigurationResponse'),
      NOT_FOUND,
    ),
  ];
}

function featureExceptions(): ResponseException[] {
  return [
    ...answers(
      'shield',
      'PATCH',
      `${ZONE}/bot-detection`,
      [400],
      ref('UpdateBotDetectionResponse'),
      INVALID,
    ),
    ...answers(
      'shield',
      'PATCH',
      `${ZONE}/upload-scanning`,
      [400],
      ref('UpdateUploadScanningConfigurationResponse'),
      INVALID,
    ),
    ...answers(
      'shield',
      'PUT',
      `${ZONE}/custom-page/{pageType}`,
      [403],
      ref('GenericRequestResponse'),
      PLAN,
    ),
    ...answers(
      'shield',
      'GET',
      '/shield/waf/rules/{shieldZoneId}',
      [404],
      ref('GenericRequestResponse'),
      NOT_FOUND,
    ),
    ...answers(
      'shield',
      'GET',
      '/shield/waf/rules/review-triggered/{shieldZoneId}',
      [404],
      ref('GetTriggeredRulesResponse'),
      NOT_FOUND,
    ),
    ...answers(
      'shield',
      'POST',
      '/shield/waf/rules/review-triggered/{shieldZoneId}',
      [400],
      invalidShape(ref('UpdateReviewTriggeredRuleResponse')),
      INVALID,
    ),
    ...answers(
      'shield',
      'POST',
      '/shield/waf/rules/review-triggered/{shieldZoneId}',
      [403],
      ref('UpdateReviewTriggeredRuleResponse'),
      PLAN,
    ),
    ...answers(
      'shield',
      'POST',
      '/shield/waf/rules/review-triggered/{shieldZoneId}',
      [404],
      ref('UpdateReviewTriggeredRuleResponse'),
      NOT_FOUND,
    ),
  ];
}

const LOG = '/mc/log/forwarding';
const LOG_BODY =
  "The document declares this status without a body; the simulator answers with the area's ErrorDetails so that a caller learns which field or application.";

function logForwardingExceptions(): ResponseException[] {
  const details = ref('ErrorDetails');
  return [
    ...answers('mc', 'POST', LOG, [400], details, LOG_BODY),
    ...answers('mc', 'GET', `${LOG}/{appId}`, [404], details, LOG_BODY),
    ...answers('mc', 'PUT', `${LOG}/{appId}`, [400, 404], details, LOG_BODY),
    ...answers('mc', 'DELETE', `${LOG}/{appId}`, [404], details, LOG_BODY),
    ...[
      ['GET', LOG],
      ['POST', LOG],
      ['GET', `${LOG}/{appId}`],
      ['PUT', `${LOG}/{appId}`],
      ['DELETE', `${LOG}/{appId}`],
    ].flatMap(([method, path]) =>
      answers(
        'mc',
        method as string,
        path as string,
        [401],
        ref('ProblemDetails'),
        "401 in the area's problem shape, like every other /mc route; the document declares no body.",
      ),
    ),
  ];
}

/** Deviations of the routes of this group. */
export const SECURITY_EXCEPTIONS: readonly ResponseException[] = [
  ...ruleExceptions(),
  ...answers(
    'shield',
    'GET',
    '/shield/rate-limit/{id}',
    [200],
    ref('RateLimitRule'),
    RATE_LIMIT_READS,
  ),
  ...answers(
    'shield',
    'GET',
    '/shield/rate-limits/{shieldZoneId}',
    [200],
    rateLimitList,
    RATE_LIMIT_READS,
  ),
  ...accessListExceptions(),
  ...featureExceptions(),
  ...logForwardingExceptions(),
];
