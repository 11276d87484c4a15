/**
 * Shield zones and WAF rule metrics (`/shield`). Bodies use `{ data }` envelopes; the list is
 * paged (`page` object); writes and metrics report failures in an `error` member; single-zone
 * reads that find nothing answer 404 with the contract's single-zone error shape. Single-zone
 * reads and the list return the same fields (see shield-model.ts for the decision).
 */
import { shieldError, shieldZoneError } from '../errors.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';
import { shieldPage } from './shield-common.js';
import {
  applyShieldRequest,
  checkShieldZoneRequest,
  newShieldZone,
  requestForm,
  readForm,
} from './shield-model.js';

const RULE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CREATE_FIELDS = [
  'shieldZone',
  'pullZoneId',
  'accessLists',
  'botDetectionExecutionMode',
  'csamScanningMode',
  'antivirusScanningMode',
];

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function zoneByPullZone(ctx: SimContext, pullZoneId: number | undefined): JsonObject | undefined {
  if (pullZoneId === undefined) return undefined;
  return [...ctx.state.shieldZones.values()].find((z) => z.pullZoneId === pullZoneId);
}

function getByPullZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = zoneByPullZone(ctx, parseId(req.params.pullZoneId));
  return zone ? { status: 200, body: { data: readForm(zone) } } : shieldZoneError(404, req.path);
}

function getById(req: SimRequest, ctx: SimContext): SimResponse {
  const id = parseId(req.params.shieldZoneId);
  const zone = id === undefined ? undefined : ctx.state.shieldZones.get(id);
  return zone ? { status: 200, body: { data: readForm(zone) } } : shieldZoneError(404, req.path);
}

function listZones(req: SimRequest, ctx: SimContext): SimResponse {
  const zones = [...ctx.state.shieldZones.values()];
  return { status: 200, body: shieldPage(req.query, zones, readForm) };
}

function createProblem(body: unknown, ctx: SimContext): SimResponse | undefined {
  if (!isObject(body))
    return shieldError(400, 'validation.invalid_body', 'body must be a JSON object');
  const extra = Object.keys(body).find((k) => !CREATE_FIELDS.includes(k));
  if (extra)
    return shieldError(400, 'validation.unknown_property', `${extra} is not a known property`);
  if (!Number.isSafeInteger(body.pullZoneId))
    return shieldError(400, 'validation.required', 'pullZoneId is required and must be an integer');
  const problem = checkShieldZoneRequest(body.shieldZone);
  if (problem) return shieldError(400, 'validation.invalid_value', problem);
  const pullZoneId = body.pullZoneId as number;
  if (!ctx.state.pullZones.has(pullZoneId))
    return shieldError(400, 'shield.pullzone_not_found', `pull zone ${pullZoneId} does not exist`);
  if (zoneByPullZone(ctx, pullZoneId))
    return shieldError(
      409,
      'shield.zone_exists',
      `pull zone ${pullZoneId} already has a shield zone`,
    );
  return undefined;
}

function createZone(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = createProblem(req.body, ctx);
  if (problem) return problem;
  const body = req.body as JsonObject;
  const id = ctx.state.allocateId('shieldZone');
  const zone = newShieldZone(id, body.pullZoneId as number);
  applyShieldRequest(zone, body.shieldZone as JsonObject | undefined);
  ctx.state.shieldZones.set(id, zone);
  ctx.state.touch();
  return {
    status: 200,
    body: { data: { ...structuredClone(body), shieldZone: requestForm(zone) } },
  };
}

function updateZone(req: SimRequest, ctx: SimContext): SimResponse {
  const body = req.body;
  if (!isObject(body))
    return shieldError(400, 'validation.invalid_body', 'body must be a JSON object');
  const extra = Object.keys(body).find((k) => k !== 'shieldZone' && k !== 'shieldZoneId');
  if (extra)
    return shieldError(400, 'validation.unknown_property', `${extra} is not a known property`);
  if (!Number.isSafeInteger(body.shieldZoneId))
    return shieldError(
      400,
      'validation.required',
      'shieldZoneId is required and must be an integer',
    );
  const problem = checkShieldZoneRequest(body.shieldZone);
  if (problem) return shieldError(400, 'validation.invalid_value', problem);
  const zone = ctx.state.shieldZones.get(body.shieldZoneId as number);
  if (!zone)
    return shieldError(
      404,
      'shield.zone_not_found',
      `shield zone ${String(body.shieldZoneId)} does not exist`,
    );
  applyShieldRequest(zone, body.shieldZone as JsonObject | undefined);
  ctx.state.touch();
  return {
    status: 200,
    body: { data: { shieldZoneId: zone.shieldZoneId, shieldZone: requestForm(zone) } },
  };
}

/** Zero counters per day for the 28 days up to today, keyed `YYYY-MM-DD`. */
export function emptyOverview(now = Date.now()): JsonObject {
  const out: JsonObject = {};
  for (let i = 27; i >= 0; i--) {
    const day = new Date(now - i * 86_400_000).toISOString().slice(0, 10);
    out[day] = { totalTriggers: 0, blockedRequests: 0, loggedRequests: 0, challengedRequests: 0 };
  }
  return out;
}

function getWafRuleMetrics(req: SimRequest, ctx: SimContext): SimResponse {
  const ruleId = req.params.ruleId ?? '';
  if (!RULE_ID.test(ruleId))
    return shieldError(
      400,
      'validation.invalid_rule_id',
      'ruleId must match ^[A-Za-z0-9_-]{1,64}$',
    );
  const id = parseId(req.params.shieldZoneId);
  if (id === undefined || !ctx.state.shieldZones.has(id)) {
    return shieldError(
      404,
      'shield.zone_not_found',
      `shield zone ${req.params.shieldZoneId ?? ''} does not exist`,
    );
  }
  const seeded = ctx.state.wafMetrics.get(`${id}/${ruleId}`);
  const data = seeded
    ? structuredClone(seeded)
    : {
        totalTriggers: 0,
        blockedRequests: 0,
        loggedRequests: 0,
        challengedRequests: 0,
        overviewPastTwentyEightDays: emptyOverview(),
      };
  return { status: 200, body: { data } };
}

/** Shield routes. */
export const SHIELD_ROUTES: RouteDef[] = [
  {
    method: 'GET',
    template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    area: 'shield',
    handler: getByPullZone,
  },
  {
    method: 'GET',
    template: '/shield/shield-zone/{shieldZoneId}',
    area: 'shield',
    handler: getById,
  },
  { method: 'GET', template: '/shield/shield-zones', area: 'shield', handler: listZones },
  { method: 'POST', template: '/shield/shield-zone', area: 'shield', handler: createZone },
  { method: 'PATCH', template: '/shield/shield-zone', area: 'shield', handler: updateZone },
  {
    method: 'GET',
    template: '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}',
    area: 'shield',
    handler: getWafRuleMetrics,
  },
];
