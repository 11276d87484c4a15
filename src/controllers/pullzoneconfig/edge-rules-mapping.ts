/**
 * Edge rules between the spec form (names, camelCase) and the wire form (EdgeRuleV2Model),
 * plus the canonical form both are compared in: absent and empty parameters are the same,
 * pattern lists compare in order (the platform keeps them as sent).
 */
import type { EdgeRule, EdgeRuleExtraAction, EdgeRuleTrigger } from '../../cdn/types.js';
import { ACTION_TYPES, MATCHING_TYPES, TRIGGER_TYPES, nameOf } from './edge-rules-types.js';

/** One action in the spec. */
export interface EdgeRuleActionSpec {
  type: string;
  parameter1?: string;
  parameter2?: string;
  parameter3?: string;
  /** RunEdgeScript: an EdgeScript of the same namespace instead of its id in `parameter1`. */
  scriptRef?: { name: string };
}

/** One trigger in the spec. */
export interface EdgeRuleTriggerSpec {
  type: string;
  patternMatches?: string[];
  patternMatching?: string;
  parameter1?: string;
}

/** One entry of `spec.edgeRules`. */
export interface EdgeRuleSpec {
  name: string;
  description?: string;
  enabled?: boolean;
  orderIndex?: number;
  action: EdgeRuleActionSpec;
  extraActions?: EdgeRuleActionSpec[];
  triggerMatching?: string;
  triggers?: EdgeRuleTriggerSpec[];
}

/** The actions of a rule with their paths in it (`action`, `extraActions[0]`, ...). */
export function ruleActions(
  rule: EdgeRuleSpec,
): Array<{ path: string; action: EdgeRuleActionSpec }> {
  return [
    { path: 'action', action: rule.action },
    ...(rule.extraActions ?? []).map((action, i) => ({ path: `extraActions[${i}]`, action })),
  ];
}

/** The compared form of a rule (everything the spec manages, defaults applied). */
export interface CanonicalRule {
  ActionType: number;
  ActionParameter1: string;
  ActionParameter2: string;
  ActionParameter3: string;
  ExtraActions: Array<{ ActionType: number; P1: string; P2: string; P3: string }>;
  Triggers: Array<{
    Type: number;
    PatternMatches: string[];
    PatternMatchingType: number;
    Parameter1: string;
  }>;
  TriggerMatchingType: number;
  Description: string;
  Enabled: boolean;
  OrderIndex: number;
}

function code(
  table: Readonly<Record<string, number>>,
  name: string | undefined,
  field: string,
): number {
  const value = table[name ?? ''];
  if (value === undefined) throw new Error(`cannot map ${field}: unknown value ${String(name)}`);
  return value;
}

/** The wire body of a spec rule at list position `index` (no Guid). */
export function toWireRule(rule: EdgeRuleSpec, index: number): EdgeRule {
  return {
    ActionType: code(ACTION_TYPES, rule.action.type, 'action.type') as EdgeRule['ActionType'],
    ActionParameter1: rule.action.parameter1 ?? null,
    ActionParameter2: rule.action.parameter2 ?? null,
    ActionParameter3: rule.action.parameter3 ?? null,
    ExtraActions: (rule.extraActions ?? []).map((a): EdgeRuleExtraAction => ({
      ActionType: code(
        ACTION_TYPES,
        a.type,
        'extraActions.type',
      ) as EdgeRuleExtraAction['ActionType'],
      ActionParameter1: a.parameter1 ?? null,
      ActionParameter2: a.parameter2 ?? null,
      ActionParameter3: a.parameter3 ?? null,
    })),
    Triggers: (rule.triggers ?? []).map((t): EdgeRuleTrigger => ({
      Type: code(TRIGGER_TYPES, t.type, 'triggers.type') as EdgeRuleTrigger['Type'],
      PatternMatches: t.patternMatches ?? [],
      PatternMatchingType: code(
        MATCHING_TYPES,
        t.patternMatching ?? 'MatchAny',
        'patternMatching',
      ) as EdgeRuleTrigger['PatternMatchingType'],
      Parameter1: t.parameter1 ?? null,
    })),
    TriggerMatchingType: code(
      MATCHING_TYPES,
      rule.triggerMatching ?? 'MatchAny',
      'triggerMatching',
    ) as EdgeRule['TriggerMatchingType'],
    Description: rule.description ?? '',
    Enabled: rule.enabled ?? true,
    OrderIndex: rule.orderIndex ?? index,
  };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** The compared form of a wire rule. */
export function canonicalRule(rule: EdgeRule): CanonicalRule {
  return {
    ActionType: num(rule.ActionType),
    ActionParameter1: str(rule.ActionParameter1),
    ActionParameter2: str(rule.ActionParameter2),
    ActionParameter3: str(rule.ActionParameter3),
    ExtraActions: (rule.ExtraActions ?? []).map((a) => ({
      ActionType: num(a.ActionType),
      P1: str(a.ActionParameter1),
      P2: str(a.ActionParameter2),
      P3: str(a.ActionParameter3),
    })),
    Triggers: (rule.Triggers ?? []).map((t) => ({
      Type: num(t.Type),
      PatternMatches: (t.PatternMatches ?? []).map(String),
      PatternMatchingType: num(t.PatternMatchingType),
      Parameter1: str(t.Parameter1),
    })),
    TriggerMatchingType: num(rule.TriggerMatchingType),
    Description: str(rule.Description),
    Enabled: rule.Enabled === true,
    OrderIndex: num(rule.OrderIndex),
  };
}

function actionToSpec(type: unknown, p1: unknown, p2: unknown, p3: unknown): EdgeRuleActionSpec {
  const out: EdgeRuleActionSpec = { type: nameOf(ACTION_TYPES, type) ?? String(type) };
  if (str(p1) !== '') out.parameter1 = str(p1);
  if (str(p2) !== '') out.parameter2 = str(p2);
  if (str(p3) !== '') out.parameter3 = str(p3);
  return out;
}

function triggerToSpec(t: EdgeRuleTrigger): EdgeRuleTriggerSpec {
  const out: EdgeRuleTriggerSpec = { type: nameOf(TRIGGER_TYPES, t.Type) ?? String(t.Type) };
  if ((t.PatternMatches ?? []).length > 0) out.patternMatches = [...(t.PatternMatches ?? [])];
  const matching = nameOf(MATCHING_TYPES, t.PatternMatchingType ?? 0);
  if (matching && matching !== 'MatchAny') out.patternMatching = matching;
  if (str(t.Parameter1) !== '') out.parameter1 = str(t.Parameter1);
  return out;
}

/**
 * The spec form of a live rule (used by `cdnctl export`): only non-default values are
 * written, and `orderIndex` only when it differs from the list position.
 */
export function fromWireRule(rule: EdgeRule, name: string, index: number): EdgeRuleSpec {
  const out: EdgeRuleSpec = {
    name,
    action: actionToSpec(
      rule.ActionType,
      rule.ActionParameter1,
      rule.ActionParameter2,
      rule.ActionParameter3,
    ),
  };
  if (str(rule.Description) !== '') out.description = str(rule.Description);
  if (rule.Enabled !== true) out.enabled = false;
  if (num(rule.OrderIndex) !== index) out.orderIndex = num(rule.OrderIndex);
  return { ...out, ...listsToSpec(rule) };
}

function listsToSpec(rule: EdgeRule): Partial<EdgeRuleSpec> {
  const out: Partial<EdgeRuleSpec> = {};
  const extra = (rule.ExtraActions ?? []).map((a) =>
    actionToSpec(a.ActionType, a.ActionParameter1, a.ActionParameter2, a.ActionParameter3),
  );
  if (extra.length > 0) out.extraActions = extra;
  const matching = nameOf(MATCHING_TYPES, rule.TriggerMatchingType ?? 0);
  if (matching && matching !== 'MatchAny') out.triggerMatching = matching;
  const triggers = (rule.Triggers ?? []).map(triggerToSpec);
  if (triggers.length > 0) out.triggers = triggers;
  return out;
}
