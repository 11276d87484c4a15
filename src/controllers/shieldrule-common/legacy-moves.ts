/**
 * The shield rule kinds' fields renamed since v1alpha1 (KindModule.legacyMoves): the enums whose
 * values became UpperCamel (renames.ts). Paths and the numbers sent are unchanged.
 */
import type { LegacyFieldMove } from '../kind-module.js';
import {
  COUNTER_KEY_NAMES,
  OPERATOR_NAMES,
  SEVERITY_NAMES,
  TRANSFORMATION_NAMES,
} from './renames.js';

/** Only the entries whose spec name changed: a move's values keep the others. */
function changedOf(names: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(names).filter(([from, to]) => from !== to));
}

/** The move of `path`'s values by `names`. */
function valuesMove(path: string, names: Readonly<Record<string, string>>): LegacyFieldMove {
  return { from: path, to: path, values: changedOf(names) };
}

/** The moves of every shield rule kind (the condition, severity, transformations). */
export const RULE_LEGACY_MOVES: readonly LegacyFieldMove[] = [
  valuesMove('spec.operator', OPERATOR_NAMES),
  valuesMove('spec.chainedConditions[].operator', OPERATOR_NAMES),
  valuesMove('spec.severity', SEVERITY_NAMES),
  valuesMove('spec.transformations[]', TRANSFORMATION_NAMES),
];

/** A rate limit's moves: the rule kinds' and its counter key. */
export const RATE_LIMIT_LEGACY_MOVES: readonly LegacyFieldMove[] = [
  ...RULE_LEGACY_MOVES,
  valuesMove('spec.counterKey', COUNTER_KEY_NAMES),
];
