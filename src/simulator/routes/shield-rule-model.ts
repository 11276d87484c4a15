/**
 * The rule configuration of custom WAF rules (`CreateCustomWafRuleModel`) and rate limits
 * (`CreateWafRateLimitRuleModel`), bound the way the platform's typed model binds it: a
 * non-nullable number left out becomes 0, a nullable member left out becomes null, unknown
 * members are ignored. The bound configuration is then checked (an action and variables are
 * needed, enums from the official shield document). Pure: no state.
 */
import type { JsonObject } from '../types.js';
import { isObject } from './shield-common.js';

/** `variableTypes` keys of the shield document. */
export const VARIABLE_TYPES = [
  'REQUEST_URI',
  'REQUEST_URI_RAW',
  'ARGS',
  'ARGS_COMBINED_SIZE',
  'ARGS_GET',
  'ARGS_GET_NAMES',
  'ARGS_POST',
  'ARGS_POST_NAMES',
  'FILES_NAMES',
  'GEO',
  'REMOTE_ADDR',
  'QUERY_STRING',
  'REQUEST_BASENAME',
  'REQUEST_BODY',
  'REQUEST_COOKIES_NAMES',
  'REQUEST_COOKIES',
  'REQUEST_FILENAME',
  'REQUEST_HEADERS_NAMES',
  'REQUEST_HEADERS',
  'REQUEST_LINE',
  'REQUEST_METHOD',
  'REQUEST_PROTOCOL',
  'RESPONSE_BODY',
  'RESPONSE_HEADERS',
  'RESPONSE_STATUS',
  'FINGERPRINT',
  'VERIFIED_BOT_CATEGORY',
];

/** `WafRuleOperatorType`. */
export const OPERATOR_TYPES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 14, 15, 17, 18];
/** `WafRuleSeverityType`. */
export const SEVERITY_TYPES = [0, 1, 2];
/** `WafRuleTransformationType` (1..21). */
export const TRANSFORMATION_TYPES = Array.from({ length: 21 }, (_, i) => i + 1);
/** `WafRuleActionType`: 1 Block, 2 Log, 3 Challenge, 4 Allow, 5 Bypass. */
export const WAF_ACTION_TYPES = [1, 2, 3, 4, 5];
/** `RatelimitRuleActionType`: 1 RateLimit, 2 Log, 3 Challenge. */
export const RATE_LIMIT_ACTION_TYPES = [1, 2, 3];
/** `WafRatelimitCounterKeyType`: 0 IP .. 7 IP_JA4. */
export const COUNTER_KEY_TYPES = [0, 1, 2, 3, 4, 5, 6, 7];
/** `WafRateLimitTimeframeType` in seconds. */
export const TIMEFRAMES = [1, 10, 60, 300, 900, 3600];
/** `WafRatelimitBlockType` in seconds. */
export const BLOCK_TIMES = [30, 60, 300, 900, 1800, 3600];

/** Which of the two rule families a configuration belongs to. */
export type RuleKind = 'waf' | 'rateLimit';

/** A bound configuration or the first problem found. */
export type BindResult = { config: JsonObject } | { problem: string };

type Check = (value: unknown, path: string) => string | undefined;

function enumOf(values: number[]): Check {
  return (v, path) =>
    typeof v === 'number' && values.includes(v)
      ? undefined
      : `${path} must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`;
}

function nullable(check: Check): Check {
  return (v, path) => (v === null ? undefined : check(v, path));
}

const isString: Check = (v, path) =>
  typeof v === 'string' ? undefined : `${path} must be a string`;
const isBoolean: Check = (v, path) =>
  typeof v === 'boolean' ? undefined : `${path} must be a boolean`;

const checkVariables: Check = (v, path) => {
  if (!isObject(v) || Object.keys(v).length === 0)
    return `${path} needs at least one variable (e.g. {"REQUEST_URI": ""})`;
  for (const [name, sub] of Object.entries(v)) {
    if (!VARIABLE_TYPES.includes(name)) return `${path}.${name} is not a known variable`;
    if (typeof sub !== 'string') return `${path}.${name} must be a string (a sub-key or "")`;
  }
  return undefined;
};

const checkTransformations: Check = (v, path) => {
  if (!Array.isArray(v)) return `${path} must be a list`;
  const bad = (v as unknown[]).find((t) => !TRANSFORMATION_TYPES.includes(t as number));
  return bad === undefined
    ? undefined
    : `${path} has an unknown transformation ${JSON.stringify(bad)}`;
};

const checkRequestCount: Check = (v, path) =>
  Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 2147483647
    ? undefined
    : `${path} must be an integer from 1, got ${JSON.stringify(v)}`;

/** One bound member: its default when absent and its check. */
interface Member {
  fallback: unknown;
  check: Check;
}

const CONDITION: Record<string, Member> = {
  variableTypes: { fallback: null, check: checkVariables },
  operatorType: { fallback: 0, check: enumOf(OPERATOR_TYPES) },
  value: { fallback: null, check: nullable(isString) },
  isNegated: { fallback: null, check: nullable(isBoolean) },
  isRegexVariable: { fallback: null, check: nullable(isBoolean) },
};

function ruleMembers(kind: RuleKind): Record<string, Member> {
  const common: Record<string, Member> = {
    actionType: {
      fallback: 0,
      check: enumOf(kind === 'waf' ? WAF_ACTION_TYPES : RATE_LIMIT_ACTION_TYPES),
    },
    ...CONDITION,
    severityType: { fallback: 0, check: enumOf(SEVERITY_TYPES) },
    transformationTypes: { fallback: null, check: nullable(checkTransformations) },
  };
  if (kind === 'waf') return common;
  return {
    ...common,
    requestCount: { fallback: 0, check: checkRequestCount },
    counterKeyType: { fallback: 0, check: enumOf(COUNTER_KEY_TYPES) },
    timeframe: { fallback: 0, check: enumOf(TIMEFRAMES) },
    blockTime: { fallback: 0, check: enumOf(BLOCK_TIMES) },
  };
}

function bindMembers(
  raw: JsonObject,
  members: Record<string, Member>,
  path: string,
): { config: JsonObject; problem?: string } {
  const config: JsonObject = {};
  for (const [name, member] of Object.entries(members)) {
    const given = raw[name];
    const value = given === undefined || given === null ? member.fallback : given;
    const problem = member.check(value, `${path}.${name}`);
    if (problem) return { config, problem };
    config[name] = structuredClone(value);
  }
  return { config };
}

function bindChained(raw: unknown, path: string): { value: unknown; problem?: string } {
  if (raw === undefined || raw === null) return { value: null };
  if (!Array.isArray(raw)) return { value: null, problem: `${path} must be a list` };
  const out: JsonObject[] = [];
  for (const [i, item] of raw.entries()) {
    if (!isObject(item)) return { value: null, problem: `${path}[${i}] must be an object` };
    const bound = bindMembers(item, CONDITION, `${path}[${i}]`);
    if (bound.problem) return { value: null, problem: bound.problem };
    out.push(bound.config);
  }
  return { value: out };
}

/** Binds and checks a `ruleConfiguration` of the given family. */
export function bindRuleConfiguration(kind: RuleKind, raw: unknown): BindResult {
  const path = 'ruleConfiguration';
  if (!isObject(raw)) return { problem: `${path} is required and must be an object` };
  const bound = bindMembers(raw, ruleMembers(kind), path);
  if (bound.problem) return { problem: bound.problem };
  const chained = bindChained(raw.chainedRuleConditions, `${path}.chainedRuleConditions`);
  if (chained.problem) return { problem: chained.problem };
  return { config: { ...bound.config, chainedRuleConditions: chained.value } };
}

/** Checks a rule name: required and not blank (the document states no length bound). */
export function ruleNameProblem(name: unknown): string | undefined {
  return typeof name !== 'string' || name.trim() === '' ? 'ruleName is required' : undefined;
}
