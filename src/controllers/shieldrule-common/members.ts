/**
 * The `ruleConfiguration` members both shield rule families share (the condition, severity,
 * transformations and chained conditions), with their spec fields. A family puts its action
 * first and, for rate limits, adds the counting members.
 */
import { OPERATOR, SEVERITY, TRANSFORMATION } from './enums.js';
import type { ConfigMember } from './family.js';

export const CONDITION_MEMBERS: readonly ConfigMember[] = [
  { spec: 'variables', api: 'variableTypes', type: 'variables' },
  { spec: 'operator', api: 'operatorType', type: 'enum', table: OPERATOR },
  { spec: 'value', api: 'value', type: 'string' },
  { spec: 'negated', api: 'isNegated', type: 'boolean' },
  { spec: 'regexVariable', api: 'isRegexVariable', type: 'boolean' },
  { spec: 'severity', api: 'severityType', type: 'enum', table: SEVERITY },
  { spec: 'transformations', api: 'transformationTypes', type: 'enumList', table: TRANSFORMATION },
  { spec: 'chainedConditions', api: 'chainedRuleConditions', type: 'conditions' },
];
