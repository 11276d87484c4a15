/**
 * The shield rule kinds' fields renamed since v1alpha1 (KindModule.legacyMoves): the enums whose
 * values became UpperCamel (renames.ts), and the adoption id. The numbers sent are unchanged.
 */
import { respelledAt } from '../kit/enum-spelling.js';
import type { LegacyFieldMove } from '../kind-module.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import {
  COUNTER_KEY_NAMES,
  OPERATOR_NAMES,
  SEVERITY_NAMES,
  TRANSFORMATION_NAMES,
} from './renames.js';

/** The moves of every shield rule kind (the condition, severity, transformations). */
export const RULE_LEGACY_MOVES: readonly LegacyFieldMove[] = [
  legacyAdoptionIdMove('ruleId'),
  respelledAt('spec.operator', OPERATOR_NAMES),
  respelledAt('spec.chainedConditions[].operator', OPERATOR_NAMES),
  respelledAt('spec.severity', SEVERITY_NAMES),
  respelledAt('spec.transformations[]', TRANSFORMATION_NAMES),
];

/** A rate limit's moves: the rule kinds' and its counter key. */
export const RATE_LIMIT_LEGACY_MOVES: readonly LegacyFieldMove[] = [
  ...RULE_LEGACY_MOVES,
  respelledAt('spec.counterKey', COUNTER_KEY_NAMES),
];
