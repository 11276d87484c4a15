/**
 * Pure mapping between a shield rule's spec and the platform's `ruleConfiguration`: the wire
 * value of each spec field, a canonical form for comparison (the platform binds a left-out
 * member as 0 or null, so `null`, `[]`, `""` and `false` compare equal to their absence), the
 * complete configuration an update sends (the platform binds a given configuration whole), and
 * the reverse, for `cdnctl export`.
 */
import { fromWire, toWire } from './enums.js';
import type { ConfigMember } from './family.js';
import type { RuleConditionSpec } from './types.js';

type Json = Record<string, unknown>;

/** The members of one condition (main or chained): spec field -> wire member. */
const CONDITION_FIELDS: readonly (readonly [keyof RuleConditionSpec, string])[] = [
  ['variables', 'variableTypes'],
  ['operator', 'operatorType'],
  ['value', 'value'],
  ['negated', 'isNegated'],
  ['regexVariable', 'isRegexVariable'],
];

function operatorOf(members: readonly ConfigMember[]): ConfigMember {
  const op = members.find((m) => m.api === 'operatorType');
  if (!op?.table) throw new Error('cannot map a condition: the family has no operatorType enum');
  return op;
}

function conditionToWire(c: RuleConditionSpec, members: readonly ConfigMember[]): Json {
  const out: Json = {};
  for (const [field, api] of CONDITION_FIELDS) {
    const v = c[field];
    if (v === undefined) continue;
    out[api] = field === 'operator' ? toWire(operatorOf(members).table!, v as string) : v;
  }
  return out;
}

/** The wire value of one member from its spec value. */
export function toWireValue(
  member: ConfigMember,
  value: unknown,
  members: readonly ConfigMember[],
): unknown {
  switch (member.type) {
    case 'enum':
      return toWire(member.table!, value as string);
    case 'enumList':
      return (value as string[]).map((n) => toWire(member.table!, n));
    case 'conditions':
      return (value as RuleConditionSpec[]).map((c) => conditionToWire(c, members));
    case 'variables':
      return { ...(value as Json) };
    default:
      return value;
  }
}

/**
 * The configuration members the spec manages (spec field present), as wire values. A member
 * the spec leaves out is not managed: an update keeps the live value, a create lets the
 * platform choose.
 */
export function desiredConfiguration(members: readonly ConfigMember[], spec: Json): Json {
  const out: Json = {};
  for (const m of members) {
    if (spec[m.spec] !== undefined) out[m.api] = toWireValue(m, spec[m.spec], members);
  }
  return out;
}

function canonicalVariables(v: unknown): Json {
  if (typeof v !== 'object' || v === null) return {};
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function canonicalCondition(c: unknown): Json {
  const item = (typeof c === 'object' && c !== null ? c : {}) as Json;
  return {
    variableTypes: canonicalVariables(item.variableTypes),
    operatorType: item.operatorType ?? 0,
    value: item.value ?? '',
    isNegated: item.isNegated ?? false,
    isRegexVariable: item.isRegexVariable ?? false,
  };
}

/** The canonical form of each member type (absent and the platform's defaults alike). */
const CANONICAL: Record<ConfigMember['type'], (v: unknown) => unknown> = {
  enumList: (v) => (Array.isArray(v) ? [...(v as unknown[])] : []),
  conditions: (v) => (Array.isArray(v) ? v.map(canonicalCondition) : []),
  variables: canonicalVariables,
  string: (v) => v ?? '',
  boolean: (v) => v ?? false,
  enum: (v) => v ?? 0,
  integer: (v) => v ?? 0,
};

/** A wire value in the form two equal configurations share (see the module comment). */
export function canonicalValue(member: ConfigMember, v: unknown): unknown {
  return CANONICAL[member.type](v);
}

/** True when `a` and `b` are the same value of `member`. */
export function sameValue(member: ConfigMember, a: unknown, b: unknown): boolean {
  return JSON.stringify(canonicalValue(member, a)) === JSON.stringify(canonicalValue(member, b));
}

/**
 * The complete configuration an update sends: the desired members over the live ones, members
 * the platform holds as null left out (it binds an absent member as null or 0 again).
 */
export function completeConfiguration(
  members: readonly ConfigMember[],
  live: Json | undefined,
  desired: Json,
): Json {
  const out: Json = {};
  for (const m of members) {
    const v = m.api in desired ? desired[m.api] : live?.[m.api];
    if (v !== undefined && v !== null) out[m.api] = v;
  }
  return out;
}

function conditionFromWire(c: unknown, members: readonly ConfigMember[]): RuleConditionSpec {
  const w = canonicalCondition(c);
  const out: RuleConditionSpec = {
    variables: w.variableTypes as Record<string, string>,
    operator: fromWire(operatorOf(members).table!, w.operatorType) ?? String(w.operatorType),
  };
  if (w.value !== '') out.value = w.value as string;
  if (w.isNegated === true) out.negated = true;
  if (w.isRegexVariable === true) out.regexVariable = true;
  return out;
}

type FromWire = (
  m: ConfigMember,
  c: unknown,
  raw: unknown,
  all: readonly ConfigMember[],
) => unknown;

/** Spec value of each member type from its canonical wire value; undefined for the default. */
const FROM_WIRE: Record<ConfigMember['type'], FromWire> = {
  enum: (m, c) => fromWire(m.table!, c),
  enumList: (m, c) => {
    const list = (c as unknown[]).map((n) => fromWire(m.table!, n) ?? String(n));
    return list.length > 0 ? list : undefined;
  },
  conditions: (_m, _c, raw, all) => {
    const list = (raw as unknown[] | null | undefined) ?? [];
    return list.length > 0 ? list.map((x) => conditionFromWire(x, all)) : undefined;
  },
  string: (_m, c) => (c === '' ? undefined : c),
  boolean: (_m, c) => (c === true ? true : undefined),
  integer: (_m, c) => c,
  variables: (_m, c) => c,
};

/** A member's spec value from the live wire value; undefined when it holds the default. */
export function fromWireValue(
  member: ConfigMember,
  v: unknown,
  members: readonly ConfigMember[],
): unknown {
  return FROM_WIRE[member.type](member, canonicalValue(member, v), v, members);
}

/** The spec fields of a live configuration (for `cdnctl export`). */
export function specFromConfiguration(
  members: readonly ConfigMember[],
  live: Json | undefined,
): Json {
  const out: Json = {};
  for (const m of members) {
    const v = fromWireValue(m, live?.[m.api], members);
    if (v !== undefined) out[m.spec] = v;
  }
  return out;
}
