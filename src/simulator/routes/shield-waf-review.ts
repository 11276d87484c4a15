/**
 * Managed WAF rules and the triggered-rules review (`/shield/waf/rules...`):
 *
 * - `GET /shield/waf/rules/{shieldZoneId}`: the catalogue groups the zone's plan has;
 *   `GET /shield/waf/rules/plan-segmentation`: each plan with the groups it adds.
 * - `GET /shield/waf/rules/review-triggered/{shieldZoneId}`: every managed rule with trigger
 *   metrics on the zone (seeded with `PUT /_sim/shield-zones/{id}/waf-rules/{ruleId}/metrics`)
 *   that has not been reviewed yet.
 * - `POST .../review-triggered/{shieldZoneId}` `{ruleId, action}`: 0 Ignore marks the rule
 *   reviewed, 1 LogOnly moves it to the zone's `wafLogOnlyRules`, 2 DisableRule to its
 *   `wafDisabledRules` (out of the other list). A rule the zone's plan does not have is
 *   refused with 403 `shield.plan_required`.
 *
 * Failures use the `errorResponse` member of these answers.
 */
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import {
  findShieldZone,
  isObject,
  planOf,
  planRefusal,
  shieldFailure,
  zoneNotFound,
} from './shield-common.js';
import { describeRule, planOfRule, rulesByPlan, rulesForPlan } from './shield-waf-catalogue.js';

/** `ReviewActionType`: 0 Ignore, 1 LogOnly, 2 DisableRule. */
export const REVIEW_ACTIONS = [0, 1, 2];

function zoneRules(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = findShieldZone(ctx, req.params.shieldZoneId);
  if (!zone) return zoneNotFound('body', req.params.shieldZoneId);
  return { status: 200, body: rulesForPlan(planOf(zone)) };
}

function planSegmentation(): SimResponse {
  return { status: 200, body: { data: rulesByPlan() } };
}

function reviewKey(zoneId: number, ruleId: string): string {
  return `${zoneId}/${ruleId}`;
}

function triggered(ctx: SimContext, zone: JsonObject): JsonObject[] {
  const zoneId = zone.shieldZoneId as number;
  const prefix = `${zoneId}/`;
  const out: JsonObject[] = [];
  for (const [key, metrics] of ctx.state.wafMetrics) {
    if (!key.startsWith(prefix)) continue;
    const ruleId = key.slice(prefix.length);
    const total = typeof metrics.totalTriggers === 'number' ? metrics.totalTriggers : 0;
    if (total === 0 || ctx.state.collections.of('triggeredRules').has(reviewKey(zoneId, ruleId)))
      continue;
    out.push({
      ruleId,
      ruleDescription: describeRule(ruleId),
      topTargetedUrls: {},
      totalTriggeredRequests: total,
      ruleLogs: [],
    });
  }
  return out;
}

function listTriggered(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = findShieldZone(ctx, req.params.shieldZoneId);
  if (!zone) return zoneNotFound('errorResponse', req.params.shieldZoneId);
  const rules = triggered(ctx, zone);
  return { status: 200, body: { triggeredRules: rules, totalTriggeredRules: rules.length } };
}

function reviewProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'body must be a JSON object';
  if (typeof body.ruleId !== 'string' || body.ruleId === '') return 'ruleId is required';
  if (!REVIEW_ACTIONS.includes((body.action ?? 0) as number))
    return `action must be one of ${REVIEW_ACTIONS.join(', ')}`;
  return planOfRule(body.ruleId) === undefined
    ? `ruleId ${body.ruleId} is not a managed rule`
    : undefined;
}

function withRule(list: unknown, ruleId: string, present: boolean): string[] {
  const rest = (Array.isArray(list) ? (list as string[]) : []).filter((id) => id !== ruleId);
  return present ? [...rest, ruleId] : rest;
}

function reviewRule(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = findShieldZone(ctx, req.params.shieldZoneId);
  if (!zone) return zoneNotFound('errorResponse', req.params.shieldZoneId);
  const problem = reviewProblem(req.body);
  if (problem) return shieldFailure('errorResponse', 400, 'validation.invalid_value', problem);
  const { ruleId, action = 0 } = req.body as { ruleId: string; action?: number };
  const needed = planOfRule(ruleId) as number;
  if (needed > planOf(zone))
    return planRefusal('errorResponse', zone, `WAF rule ${ruleId}`, needed);
  if (action !== 0) {
    zone.wafLogOnlyRules = withRule(zone.wafLogOnlyRules, ruleId, action === 1);
    zone.wafDisabledRules = withRule(zone.wafDisabledRules, ruleId, action === 2);
  }
  const zoneId = zone.shieldZoneId as number;
  ctx.state.collections
    .of('triggeredRules')
    .set(reviewKey(zoneId, ruleId), { shieldZoneId: zoneId, ruleId, action });
  ctx.state.touch();
  return { status: 200, body: { success: true } };
}

function route(method: string, template: string, handler: RouteDef['handler']): RouteDef {
  return { method, template, area: 'shield', handler };
}

/** Managed WAF rule and triggered-rule review routes. */
export const WAF_REVIEW_ROUTES: RouteDef[] = [
  route('GET', '/shield/waf/rules/plan-segmentation', planSegmentation),
  route('GET', '/shield/waf/rules/{shieldZoneId}', zoneRules),
  route('GET', '/shield/waf/rules/review-triggered/{shieldZoneId}', listTriggered),
  route('POST', '/shield/waf/rules/review-triggered/{shieldZoneId}', reviewRule),
];
