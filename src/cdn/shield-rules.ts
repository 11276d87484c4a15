/**
 * Custom WAF rules (`/shield/waf/custom-rule*`) and rate limits (`/shield/rate-limit*`): two
 * families of one record shape, read bare (no `data` envelope) with failures in
 * `errorResponse`; lists are paged. Updates are `PATCH` with only the members that change
 * (a given `ruleConfiguration` is bound whole by the platform, so it is sent complete).
 * Creates, updates and deletes are retried only after a 429.
 *
 * A create beyond the zone's plan (Basic: no custom WAF rule, two rate limits) is refused with
 * 403: see {@link isShieldPlanRefusal}.
 */
import { isCdnApiError } from './errors.js';
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import type {
  CustomWafRuleCreate,
  CustomWafRuleUpdate,
  RateLimitCreate,
  RateLimitUpdate,
} from './security-types.js';
import {
  checkGenericResult,
  followShieldPages,
  readShieldPage,
  unwrapRecord,
} from './shield-answers.js';
import { checkId, checkIntRange } from './validate.js';

const INT32_MAX = 2147483647;

/** Which of the two families a call is for. */
export interface RuleFamily {
  /** Noun of the client operations, e.g. `CustomWafRule` in `createCustomWafRule`. */
  noun: 'CustomWafRule' | 'RateLimit';
  /** Path of one rule (`{id}` appended) and of the create. */
  one: string;
  /** Path of a zone's list (`{shieldZoneId}` appended). */
  list: string;
}

/** Custom WAF rules. */
export const WAF_RULES: RuleFamily = {
  noun: 'CustomWafRule',
  one: '/shield/waf/custom-rule',
  list: '/shield/waf/custom-rules',
};
/** Rate limits. */
export const RATE_LIMITS: RuleFamily = {
  noun: 'RateLimit',
  one: '/shield/rate-limit',
  list: '/shield/rate-limits',
};

/**
 * True for the platform's refusal of a shield feature or count the zone's plan does not
 * include (403 on a shield rule, list, page or review call). Such a refusal will not pass on
 * its own: the caller reports which plan the object needs.
 */
export function isShieldPlanRefusal(e: unknown): boolean {
  return isCdnApiError(e) && e.status === 403;
}

function checkRuleId(http: HttpTransport, operation: string, id: number): void {
  // The update and delete paths take an int32 id (the reads an int64): the tighter bound.
  checkIntRange(http, operation, 'id', id, 1, INT32_MAX);
}

/** Every rule of a family on a shield zone (pages followed). */
export function listRules<T>(
  http: HttpTransport,
  family: RuleFamily,
  shieldZoneId: number,
  opts?: PagedCallOptions,
): Promise<T[]> {
  const operation = `list${family.noun}s`;
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  return followShieldPages(async (page, perPage, o) => {
    const res = await http.request(
      {
        operation,
        method: 'GET',
        path: `${family.list}${pathOf`/${shieldZoneId}`}`,
        query: { page, perPage },
      },
      o,
    );
    return readShieldPage<T>(http, operation, res.body);
  }, opts);
}

/** One rule (`notFound` when it does not exist). */
export async function getRule<T>(
  http: HttpTransport,
  family: RuleFamily,
  id: number,
  opts?: CallOptions,
): Promise<T> {
  const operation = `get${family.noun}`;
  checkId(http, operation, 'id', id);
  const res = await http.request(
    { operation, method: 'GET', path: `${family.one}${pathOf`/${id}`}` },
    opts,
  );
  return unwrapRecord<T>(http, operation, res.body);
}

/** Creates a rule on `body.shieldZoneId`. */
export async function createRule<T>(
  http: HttpTransport,
  family: RuleFamily,
  body: CustomWafRuleCreate | RateLimitCreate,
  opts?: CallOptions,
): Promise<T> {
  const operation = `create${family.noun}`;
  if (body.shieldZoneId === undefined)
    throw http.failure(operation, 'invalid', 'shieldZoneId is required', { field: 'shieldZoneId' });
  checkIntRange(http, operation, 'shieldZoneId', body.shieldZoneId, 1, INT32_MAX);
  const res = await http.request({ operation, method: 'POST', path: family.one, body }, opts);
  return unwrapRecord<T>(http, operation, res.body);
}

/** `PATCH`: changes only the members present in `patch` (at least one). */
export async function updateRule<T>(
  http: HttpTransport,
  family: RuleFamily,
  id: number,
  patch: CustomWafRuleUpdate | RateLimitUpdate,
  opts?: CallOptions,
): Promise<T> {
  const operation = `update${family.noun}`;
  checkRuleId(http, operation, id);
  if (Object.values(patch).every((v) => v === undefined))
    throw http.failure(operation, 'invalid', 'nothing to change: the patch is empty');
  const res = await http.request(
    { operation, method: 'PATCH', path: `${family.one}${pathOf`/${id}`}`, body: patch },
    opts,
  );
  return unwrapRecord<T>(http, operation, res.body);
}

/** Deletes a rule (`notFound` when it is already gone). */
export async function deleteRule(
  http: HttpTransport,
  family: RuleFamily,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = `delete${family.noun}`;
  checkRuleId(http, operation, id);
  const res = await http.request(
    { operation, method: 'DELETE', path: `${family.one}${pathOf`/${id}`}` },
    opts,
  );
  checkGenericResult(http, operation, res.body);
}
