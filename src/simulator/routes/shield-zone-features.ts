/**
 * Per-zone feature settings of a shield zone: bot detection and upload scanning
 * (`{data, error}` envelopes; a zone never configured reads as the service defaults; a change
 * needs the Advanced plan or higher) and custom response pages (`/custom-page/{pageType}`, HTML
 * as the raw request body, answered as a JSON string; Advanced plan or higher).
 *
 * Plans: the document declares 403 on the bot detection and upload scanning routes but names
 * no plan. The platform sells bot detection as a premium (paid plan) feature; cdn-sim assumes
 * the same for upload scanning. So a PATCH on a Basic zone that would turn the feature on is
 * 403 in the `error` member (as the document's 403 answer carries it): bot detection with the
 * platform's key `invalid_plan_type.bot_detection` (the one the vendor's Terraform provider
 * matches), upload scanning with `shield.plan_required`. A PATCH that leaves the feature off
 * (every bot detection sensitivity Off and log only; upload scanning disabled) is accepted on
 * every plan: the vendor's provider sends one for every new shield zone (issue 49). Reads stay
 * open, so a client can always see the zone's values (docs/simulator.md).
 *
 * Bodies bind like the platform's typed models: a top-level member left out or null keeps its
 * value; a nested object given (e.g. `browserFingerprint`) replaces the whole object, an enum
 * member left out of it becoming 0, so a client sends nested objects complete.
 */
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import {
  findShieldZone,
  genericResult,
  isObject,
  PLAN_REQUIRED,
  planOf,
  planRefusal,
  shieldFailure,
  zoneNotFound,
} from './shield-common.js';
import { CUSTOM_PAGE_TYPES } from '../../cdn/shield-features.js';

/** Lowest plan with custom response pages (Advanced). */
export const CUSTOM_PAGE_PLAN = 1;
/** Lowest plan whose zones may change bot detection (Advanced; cdn-sim's assumption). */
export const BOT_DETECTION_PLAN = 1;
/** Lowest plan whose zones may change upload scanning (Advanced; cdn-sim's assumption). */
export const UPLOAD_SCANNING_PLAN = 1;

const SENSITIVITY = [0, 1, 2, 3];
const AGGRESSION = [0, 1, 2, 3, 4];
const EXECUTION_MODES = [0, 1];
const SCANNER_MODES = [0, 1, 2];

type Problem = string | undefined;

function enumProblem(path: string, value: unknown, values: number[]): Problem {
  return typeof value === 'number' && values.includes(value)
    ? undefined
    : `${path} must be one of ${values.join(', ')}`;
}

function optionalEnum(path: string, value: unknown, values: number[]): Problem {
  return value === undefined || value === null ? undefined : enumProblem(path, value, values);
}

/** Defaults of a zone whose bot detection was never changed (sensitivity Low, log only). */
export function defaultBotDetection(shieldZoneId: number): JsonObject {
  return {
    shieldZoneId,
    requestIntegrity: { sensitivity: 1 },
    ipAddress: { sensitivity: 1 },
    browserFingerprint: { sensitivity: 1, aggression: 1, complexEnabled: false },
    executionMode: 0,
  };
}

/** Defaults of a zone whose upload scanning was never changed (off). */
export function defaultUploadScanning(shieldZoneId: number): JsonObject {
  return { shieldZoneId, isEnabled: false, csamScanningMode: 0, antivirusScanningMode: 0 };
}

function bodyZoneProblem(body: JsonObject, zone: JsonObject): Problem {
  if (body.shieldZoneId === undefined || body.shieldZoneId === null) return undefined;
  return body.shieldZoneId === zone.shieldZoneId
    ? undefined
    : `shieldZoneId ${JSON.stringify(body.shieldZoneId)} does not match the path`;
}

/** The browser fingerprint members beyond the sensitivity, bound whole. */
function bindFingerprint(value: JsonObject, old: JsonObject): JsonObject | string {
  const aggression = value.aggression ?? 0;
  const problem = enumProblem('browserFingerprint.aggression', aggression, AGGRESSION);
  if (problem) return problem;
  const complex = value.complexEnabled;
  if (complex !== undefined && complex !== null && typeof complex !== 'boolean')
    return 'browserFingerprint.complexEnabled must be a boolean';
  return { aggression, complexEnabled: complex ?? old.complexEnabled ?? false };
}

/** A nested `{sensitivity}` or browser fingerprint object bound whole. */
function bindNested(name: string, value: unknown, old: JsonObject): JsonObject | string {
  if (!isObject(value)) return `${name} must be an object`;
  const sensitivity = value.sensitivity ?? 0;
  const problem = enumProblem(`${name}.sensitivity`, sensitivity, SENSITIVITY);
  if (problem) return problem;
  if (name !== 'browserFingerprint') return { sensitivity };
  const rest = bindFingerprint(value, old);
  return typeof rest === 'string' ? rest : { sensitivity, ...rest };
}

function applyBotDetection(current: JsonObject, body: JsonObject): Problem {
  const problem = optionalEnum('executionMode', body.executionMode, EXECUTION_MODES);
  if (problem) return problem;
  const next = structuredClone(current);
  if (typeof body.executionMode === 'number') next.executionMode = body.executionMode;
  for (const name of ['requestIntegrity', 'ipAddress', 'browserFingerprint']) {
    if (body[name] === undefined || body[name] === null) continue;
    const bound = bindNested(name, body[name], (current[name] as JsonObject | undefined) ?? {});
    if (typeof bound === 'string') return bound;
    next[name] = bound;
  }
  Object.assign(current, next);
  return undefined;
}

function applyUploadScanning(current: JsonObject, body: JsonObject): Problem {
  const problem =
    optionalEnum('csamScanningMode', body.csamScanningMode, SCANNER_MODES) ??
    optionalEnum('antivirusScanningMode', body.antivirusScanningMode, SCANNER_MODES);
  if (problem) return problem;
  if (
    body.isEnabled !== undefined &&
    body.isEnabled !== null &&
    typeof body.isEnabled !== 'boolean'
  )
    return 'isEnabled must be a boolean';
  for (const name of ['isEnabled', 'csamScanningMode', 'antivirusScanningMode']) {
    if (body[name] !== undefined && body[name] !== null) current[name] = body[name];
  }
  return undefined;
}

/** Bot detection that detects nothing: every check Off, log only. */
function botDetectionOff(setting: JsonObject): boolean {
  const off = (name: string): boolean =>
    ((setting[name] as JsonObject | undefined)?.sensitivity ?? 0) === 0;
  return (
    (setting.executionMode ?? 0) === 0 &&
    ['requestIntegrity', 'ipAddress', 'browserFingerprint'].every(off)
  );
}

/** The errorKey of the platform's refusal of bot detection on a plan without it. */
export const BOT_DETECTION_PLAN_KEY = 'invalid_plan_type.bot_detection';

interface Setting {
  collection: 'botDetection' | 'uploadScanning';
  /** The feature's name in a plan refusal. */
  what: string;
  /** Lowest plan that may turn it on. */
  plan: number;
  /** errorKey of the refusal on a lower plan. */
  refusalKey: string;
  defaults: (shieldZoneId: number) => JsonObject;
  apply: (current: JsonObject, body: JsonObject) => Problem;
  /** True when the setting leaves the feature off (allowed on every plan). */
  isOff: (setting: JsonObject) => boolean;
}

const BOT_DETECTION: Setting = {
  collection: 'botDetection',
  what: 'bot detection',
  plan: BOT_DETECTION_PLAN,
  refusalKey: BOT_DETECTION_PLAN_KEY,
  defaults: defaultBotDetection,
  apply: applyBotDetection,
  isOff: botDetectionOff,
};
const UPLOAD_SCANNING: Setting = {
  collection: 'uploadScanning',
  what: 'upload scanning',
  plan: UPLOAD_SCANNING_PLAN,
  refusalKey: PLAN_REQUIRED,
  defaults: defaultUploadScanning,
  apply: applyUploadScanning,
  isOff: (setting) => setting.isEnabled !== true,
};

function currentSetting(setting: Setting, ctx: SimContext, zoneId: number): JsonObject {
  return (
    ctx.state.collections.of(setting.collection).get(String(zoneId)) ?? setting.defaults(zoneId)
  );
}

function getSetting(setting: Setting) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = findShieldZone(ctx, req.params.shieldZoneId);
    if (!zone) return zoneNotFound('error', req.params.shieldZoneId);
    const data = currentSetting(setting, ctx, zone.shieldZoneId as number);
    return { status: 200, body: { data: structuredClone(data) } };
  };
}

function patchSetting(setting: Setting) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = findShieldZone(ctx, req.params.shieldZoneId);
    if (!zone) return zoneNotFound('error', req.params.shieldZoneId);
    const body = req.body;
    if (!isObject(body))
      return shieldFailure('error', 400, 'validation.invalid_body', 'body must be a JSON object');
    const zoneId = zone.shieldZoneId as number;
    const current = structuredClone(currentSetting(setting, ctx, zoneId));
    const problem = bodyZoneProblem(body, zone) ?? setting.apply(current, body);
    if (problem) return shieldFailure('error', 400, 'validation.invalid_value', problem);
    if (planOf(zone) < setting.plan && !setting.isOff(current))
      return planRefusal('error', zone, setting.what, setting.plan, setting.refusalKey);
    ctx.state.collections.of(setting.collection).set(String(zoneId), current);
    ctx.state.touch();
    return { status: 200, body: { data: structuredClone(current) } };
  };
}

/** The zone and normalized page type of a custom page request, or the error answer. */
function pageTarget(
  req: SimRequest,
  ctx: SimContext,
): { zone: JsonObject; key: string; pageType: string } | SimResponse {
  const zone = findShieldZone(ctx, req.params.shieldZoneId);
  if (!zone) return zoneNotFound('body', req.params.shieldZoneId);
  const pageType = (req.params.pageType ?? '').toLowerCase();
  if (!CUSTOM_PAGE_TYPES.includes(pageType)) {
    return shieldFailure(
      'body',
      400,
      'validation.invalid_page_type',
      `pageType must be one of ${CUSTOM_PAGE_TYPES.join(', ')}`,
    );
  }
  return { zone, pageType, key: `${String(zone.shieldZoneId)}/${pageType}` };
}

function isAnswer(value: object): value is SimResponse {
  return 'status' in value;
}

function putPage(req: SimRequest, ctx: SimContext): SimResponse {
  const target = pageTarget(req, ctx);
  if (isAnswer(target)) return target;
  if (planOf(target.zone) < CUSTOM_PAGE_PLAN)
    return planRefusal('body', target.zone, 'custom response pages', CUSTOM_PAGE_PLAN);
  const html = req.body;
  if (typeof html !== 'string' || html.trim() === '')
    return shieldFailure('body', 400, 'validation.required', 'the page body (HTML) is empty');
  ctx.state.collections.of('customPages').set(target.key, {
    shieldZoneId: target.zone.shieldZoneId,
    pageType: target.pageType,
    html,
  });
  ctx.state.touch();
  return { status: 200, body: genericResult(200, null, null) };
}

function pageNotFound(pageType: string): SimResponse {
  return shieldFailure('body', 404, 'shield.custom_page_not_found', `no custom ${pageType} page`);
}

function getPage(req: SimRequest, ctx: SimContext): SimResponse {
  const target = pageTarget(req, ctx);
  if (isAnswer(target)) return target;
  const page = ctx.state.collections.of('customPages').get(target.key);
  return page ? { status: 200, body: page.html } : pageNotFound(target.pageType);
}

function deletePage(req: SimRequest, ctx: SimContext): SimResponse {
  const target = pageTarget(req, ctx);
  if (isAnswer(target)) return target;
  if (!ctx.state.collections.of('customPages').delete(target.key))
    return pageNotFound(target.pageType);
  ctx.state.touch();
  return { status: 200, body: genericResult(200, null, null) };
}

function route(
  method: string,
  template: string,
  handler: RouteDef['handler'],
  rawBody?: true,
): RouteDef {
  return { method, template, area: 'shield', handler, ...(rawBody ? { rawBody } : {}) };
}

const ZONE = '/shield/shield-zone/{shieldZoneId}';

/** Bot detection, upload scanning and custom response page routes. */
export const SHIELD_FEATURE_ROUTES: RouteDef[] = [
  route('GET', `${ZONE}/bot-detection`, getSetting(BOT_DETECTION)),
  route('PATCH', `${ZONE}/bot-detection`, patchSetting(BOT_DETECTION)),
  route('GET', `${ZONE}/upload-scanning`, getSetting(UPLOAD_SCANNING)),
  route('PATCH', `${ZONE}/upload-scanning`, patchSetting(UPLOAD_SCANNING)),
  route('PUT', `${ZONE}/custom-page/{pageType}`, putPage, true),
  route('GET', `${ZONE}/custom-page/{pageType}`, getPage),
  route('DELETE', `${ZONE}/custom-page/{pageType}`, deletePage),
];
