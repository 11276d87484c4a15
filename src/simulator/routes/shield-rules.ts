/**
 * Custom WAF rules (`/shield/waf/custom-rule*`) and rate limits (`/shield/rate-limit*`): two
 * families of the same record (`id`, `shieldZoneId`, `userId`, `ruleName`, `ruleDescription`,
 * `ruleJson`, `ruleConfiguration`), answered bare (no `data` envelope) with failures in the
 * record's `errorResponse` member; lists are paged (`data` + `page`, failures in `error`),
 * deletes answer a bare `GenericRequestResponse`. A create beyond the zone's plan limit
 * (`customWafRulesLimit`, `rateLimitRulesLimit`: Basic allows no custom WAF rule and two rate
 * limits) is refused with 403 `shield.plan_required`.
 */
import type { CollectionName } from '../collections.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';
import {
  findShieldZone,
  genericResult,
  isObject,
  limitRefusal,
  shieldFailure,
  shieldPage,
  zoneNotFound,
} from './shield-common.js';
import { bindRuleConfiguration, ruleNameProblem, type RuleKind } from './shield-rule-model.js';

/** The account user id the simulator stamps on the rules it stores. */
export const SIM_USER_ID = 'sim-user';

interface Family {
  kind: RuleKind;
  collection: CollectionName;
  /** Plural for messages. */
  label: string;
  limitField: 'customWafRulesLimit' | 'rateLimitRulesLimit';
}

const WAF: Family = {
  kind: 'waf',
  collection: 'wafCustomRules',
  label: 'custom WAF rules',
  limitField: 'customWafRulesLimit',
};
const RATE_LIMIT: Family = {
  kind: 'rateLimit',
  collection: 'rateLimits',
  label: 'rate limits',
  limitField: 'rateLimitRulesLimit',
};

function invalid(message: string): SimResponse {
  return shieldFailure('errorResponse', 400, 'validation.invalid_value', message);
}

function ruleNotFound(family: Family, raw: string | undefined): SimResponse {
  return shieldFailure(
    'errorResponse',
    404,
    'shield.rule_not_found',
    `${family.kind === 'waf' ? 'custom WAF rule' : 'rate limit'} ${raw ?? ''} does not exist`,
  );
}

function findRule(family: Family, req: SimRequest, ctx: SimContext): JsonObject | undefined {
  const id = parseId(req.params.id);
  return id === undefined ? undefined : ctx.state.collections.of(family.collection).get(String(id));
}

/** `ruleJson`: the rule as one JSON document, as the platform renders it for its engine. */
function renderRuleJson(rule: JsonObject): string {
  return JSON.stringify({
    name: rule.ruleName,
    description: rule.ruleDescription,
    ...(rule.ruleConfiguration as JsonObject),
  });
}

function stored(rule: JsonObject): SimResponse {
  rule.ruleJson = renderRuleJson(rule);
  return { status: 200, body: structuredClone(rule) };
}

function descriptionProblem(value: unknown): string | undefined {
  return value === undefined || value === null || typeof value === 'string'
    ? undefined
    : 'ruleDescription must be a string';
}

/** Name, description and configuration of a create or replace body, or the first problem. */
function bindWholeRule(family: Family, body: JsonObject): JsonObject | string {
  const problem = ruleNameProblem(body.ruleName) ?? descriptionProblem(body.ruleDescription);
  if (problem) return problem;
  const bound = bindRuleConfiguration(family.kind, body.ruleConfiguration);
  if ('problem' in bound) return bound.problem;
  return {
    ruleName: body.ruleName,
    ruleDescription: body.ruleDescription ?? null,
    ruleConfiguration: bound.config,
  };
}

function createRule(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const body = req.body;
    if (!isObject(body)) return invalid('body must be a JSON object');
    const zone = findShieldZone(ctx, body.shieldZoneId);
    if (!zone) return zoneNotFound('errorResponse', body.shieldZoneId);
    const whole = bindWholeRule(family, body);
    if (typeof whole === 'string') return invalid(whole);
    const zoneId = zone.shieldZoneId as number;
    const limit =
      typeof zone[family.limitField] === 'number' ? (zone[family.limitField] as number) : 0;
    if (ctx.state.collections.ofShieldZone(family.collection, zoneId).length >= limit)
      return limitRefusal('errorResponse', zone, family.label, limit);
    const id = ctx.state.allocateId('wafRule');
    const rule: JsonObject = { id, shieldZoneId: zoneId, userId: SIM_USER_ID, ...whole };
    ctx.state.collections.of(family.collection).set(String(id), rule);
    ctx.state.touch();
    return stored(rule);
  };
}

function getRule(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const rule = findRule(family, req, ctx);
    return rule
      ? { status: 200, body: structuredClone(rule) }
      : ruleNotFound(family, req.params.id);
  };
}

/** PUT replaces name, description and configuration; the zone stays. */
function replaceRule(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const rule = findRule(family, req, ctx);
    if (!rule) return ruleNotFound(family, req.params.id);
    if (!isObject(req.body)) return invalid('body must be a JSON object');
    const whole = bindWholeRule(family, req.body);
    if (typeof whole === 'string') return invalid(whole);
    Object.assign(rule, whole);
    ctx.state.touch();
    return stored(rule);
  };
}

/** The members of a PATCH body that change the rule, or the first problem. */
function bindPatch(family: Family, body: JsonObject): JsonObject | string {
  const changes: JsonObject = {};
  if (body.ruleName !== undefined && body.ruleName !== null) {
    const problem = ruleNameProblem(body.ruleName);
    if (problem) return problem;
    changes.ruleName = body.ruleName;
  }
  if (body.ruleDescription !== undefined && body.ruleDescription !== null) {
    const problem = descriptionProblem(body.ruleDescription);
    if (problem) return problem;
    changes.ruleDescription = body.ruleDescription;
  }
  if (body.ruleConfiguration !== undefined && body.ruleConfiguration !== null) {
    // A configuration is bound as a whole: the model cannot tell a left-out member from 0.
    const bound = bindRuleConfiguration(family.kind, body.ruleConfiguration);
    if ('problem' in bound) return bound.problem;
    changes.ruleConfiguration = bound.config;
  }
  return changes;
}

/** PATCH changes only the members given (null or absent: unchanged). */
function patchRule(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const rule = findRule(family, req, ctx);
    if (!rule) return ruleNotFound(family, req.params.id);
    if (!isObject(req.body)) return invalid('body must be a JSON object');
    const changes = bindPatch(family, req.body);
    if (typeof changes === 'string') return invalid(changes);
    Object.assign(rule, changes);
    ctx.state.touch();
    return stored(rule);
  };
}

function deleteRule(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const rule = findRule(family, req, ctx);
    if (!rule) {
      const missing = ruleNotFound(family, req.params.id).body as JsonObject;
      return { status: 404, body: missing.errorResponse };
    }
    ctx.state.collections.of(family.collection).delete(String(rule.id));
    ctx.state.touch();
    return { status: 200, body: genericResult(200, null, null) };
  };
}

function listRules(family: Family) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = findShieldZone(ctx, req.params.shieldZoneId);
    if (!zone) return zoneNotFound('error', req.params.shieldZoneId);
    const rules = ctx.state.collections.ofShieldZone(
      family.collection,
      zone.shieldZoneId as number,
    );
    return { status: 200, body: shieldPage(req.query, rules) };
  };
}

function route(method: string, template: string, handler: RouteDef['handler']): RouteDef {
  return { method, template, area: 'shield', handler };
}

/** Custom WAF rule and rate limit routes. */
export const SHIELD_RULE_ROUTES: RouteDef[] = [
  route('GET', '/shield/waf/custom-rules/{shieldZoneId}', listRules(WAF)),
  route('GET', '/shield/waf/custom-rule/{id}', getRule(WAF)),
  route('PUT', '/shield/waf/custom-rule/{id}', replaceRule(WAF)),
  route('PATCH', '/shield/waf/custom-rule/{id}', patchRule(WAF)),
  route('DELETE', '/shield/waf/custom-rule/{id}', deleteRule(WAF)),
  route('POST', '/shield/waf/custom-rule', createRule(WAF)),
  route('GET', '/shield/rate-limits/{shieldZoneId}', listRules(RATE_LIMIT)),
  route('GET', '/shield/rate-limit/{id}', getRule(RATE_LIMIT)),
  route('PATCH', '/shield/rate-limit/{id}', patchRule(RATE_LIMIT)),
  route('DELETE', '/shield/rate-limit/{id}', deleteRule(RATE_LIMIT)),
  route('POST', '/shield/rate-limit', createRule(RATE_LIMIT)),
];
