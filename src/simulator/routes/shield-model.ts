/**
 * Shield zone records and their validation. Every read (single zone and list) returns every
 * field. Plan limits (`rateLimitRulesLimit`, `customWafRulesLimit`) are set by the service from
 * the plan type.
 *
 * Decision (issue 30): the contract calls six fields "list endpoint only" (`planType`,
 * `dDoSShieldSensitivity`, `dDoSExecutionMode`, `wafExecutionMode`,
 * `wafRequestBodyLimitAction`, `wafResponseBodyLimitAction`); the official document declares
 * them on the single-zone read (ShieldZoneResponse) and live clients read them there. The
 * document is newer than the contract on this point, so it wins: the single-zone read returns
 * them, and a written value reads back as written.
 */
import type { JsonObject } from '../types.js';

/** Limits per plan type (0 Basic, 1 Advanced, 2 Business, 3 Enterprise); simulator defaults. */
export const PLAN_LIMITS: Record<
  number,
  { rateLimitRulesLimit: number; customWafRulesLimit: number }
> = {
  0: { rateLimitRulesLimit: 2, customWafRulesLimit: 0 },
  1: { rateLimitRulesLimit: 10, customWafRulesLimit: 10 },
  2: { rateLimitRulesLimit: 25, customWafRulesLimit: 25 },
  3: { rateLimitRulesLimit: 100, customWafRulesLimit: 100 },
};

type ShieldKind =
  'boolean' | 'integer' | 'date-time' | 'string[]' | 'integer[]' | 'engine[]' | number[];

/** Writable fields of ShieldZoneRequest and their types (enums from the official document). */
const REQUEST_FIELDS: Record<string, ShieldKind> = {
  shieldZoneId: 'integer',
  premiumPlan: 'boolean',
  planType: [0, 1, 2, 3],
  learningMode: 'boolean',
  learningModeUntil: 'date-time',
  wafEnabled: 'boolean',
  wafExecutionMode: [0, 1],
  wafDisabledRules: 'string[]',
  wafLogOnlyRules: 'string[]',
  wafCustomRuleOrder: 'integer[]',
  wafRequestHeaderLoggingEnabled: 'boolean',
  requestBodyLoggingEnabled: 'boolean',
  wafRequestIgnoredHeaders: 'string[]',
  wafRealtimeThreatIntelligenceEnabled: 'boolean',
  wafProfileId: 'integer',
  wafEngineConfig: 'engine[]',
  wafRequestBodyLimitAction: [0, 1, 2],
  wafResponseBodyLimitAction: [0, 1, 2],
  dDoSShieldSensitivity: [0, 1, 2, 3, 4],
  // Not in the document's request model, but written by live clients (live-exceptions.ts).
  dDoSExecutionMode: [0, 1],
  dDoSChallengeWindow: 'integer',
  whitelabelResponsePages: 'boolean',
};

const UNIQUE_LISTS = new Set(['wafDisabledRules', 'wafLogOnlyRules', 'wafRequestIgnoredHeaders']);

function isEngineVariable(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as JsonObject;
  const keys = Object.keys(o);
  return (
    keys.every((k) => k === 'name' || k === 'valueEncoded') && 'name' in o && 'valueEncoded' in o
  );
}

const SHIELD_CHECKS: Record<Exclude<ShieldKind, number[]>, (value: unknown) => boolean> = {
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isSafeInteger(v),
  'date-time': (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  'string[]': (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  'integer[]': (v) => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x)),
  'engine[]': (v) => Array.isArray(v) && v.every(isEngineVariable),
};

function matches(kind: ShieldKind, value: unknown): boolean {
  if (Array.isArray(kind)) return typeof value === 'number' && kind.includes(value);
  return SHIELD_CHECKS[kind](value);
}

function describe(kind: ShieldKind): string {
  return Array.isArray(kind) ? `one of ${kind.join(', ')}` : kind;
}

function fieldProblem(name: string, value: unknown): string | undefined {
  const kind = REQUEST_FIELDS[name];
  if (!kind) return `shieldZone.${name} is not a known property`;
  if (value === null) return undefined;
  if (!matches(kind, value)) return `shieldZone.${name} must be ${describe(kind)}`;
  const list = value as unknown[];
  if (UNIQUE_LISTS.has(name) && new Set(list).size !== list.length) {
    return `shieldZone.${name} must not contain duplicates`;
  }
  return undefined;
}

/** First problem of a ShieldZoneRequest object, or undefined. `null` values are accepted. */
export function checkShieldZoneRequest(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) return 'shieldZone must be an object';
  for (const [name, value] of Object.entries(body as JsonObject)) {
    const problem = fieldProblem(name, value);
    if (problem) return problem;
  }
  return undefined;
}

/** A new shield zone with service defaults. */
export function newShieldZone(shieldZoneId: number, pullZoneId: number): JsonObject {
  return {
    shieldZoneId,
    pullZoneId,
    learningMode: true,
    learningModeUntil: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    wafEnabled: true,
    wafExecutionMode: 1,
    wafDisabledRules: [],
    wafLogOnlyRules: [],
    wafCustomRuleOrder: [],
    wafRequestHeaderLoggingEnabled: false,
    requestBodyLoggingEnabled: false,
    wafRequestIgnoredHeaders: [],
    wafRealtimeThreatIntelligenceEnabled: false,
    wafProfileId: 1,
    wafEngineConfig: [],
    wafRequestBodyLimitAction: 0,
    wafResponseBodyLimitAction: 0,
    ...PLAN_LIMITS[0],
    planType: 0,
    dDoSShieldSensitivity: 2,
    dDoSExecutionMode: 1,
    dDoSChallengeWindow: 3600,
    whitelabelResponsePages: false,
  };
}

/** Applies a validated ShieldZoneRequest; nulls leave fields unchanged; plan sets limits. */
export function applyShieldRequest(zone: JsonObject, request: JsonObject | undefined | null): void {
  if (!request) return;
  for (const [name, value] of Object.entries(request)) {
    if (value === null || name === 'shieldZoneId' || name === 'premiumPlan') continue;
    zone[name] = structuredClone(value);
  }
  if (
    request.premiumPlan === true &&
    (request.planType === undefined || request.planType === null)
  ) {
    zone.planType = 1;
  }
  Object.assign(zone, PLAN_LIMITS[zone.planType as number] ?? PLAN_LIMITS[0]);
}

/** The zone as a read returns it (single zone and list alike): a copy of every field. */
export function readForm(zone: JsonObject): JsonObject {
  return structuredClone(zone);
}

/** The zone as a ShieldZoneRequest (what create/update echo back). */
export function requestForm(zone: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const name of Object.keys(REQUEST_FIELDS)) {
    if (name in zone) out[name] = structuredClone(zone[name]);
  }
  return out;
}
