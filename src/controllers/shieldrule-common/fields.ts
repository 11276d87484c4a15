/**
 * The fields of a shield rule, written once (kit/fields.ts): the name and description, then in
 * `ruleConfiguration` the condition (also the item of `chainedConditions`), the action, severity,
 * transformations and a kind's own (a rate limit's counting). The platform binds a left-out
 * member as 0 or null, so `null`, `[]`, `""` and `false` read as their absence.
 */
import {
  absentAs,
  blankAsAbsent,
  enumByNumber,
  flag,
  listOf,
  tableList,
  stringMap,
  text,
  type Codec,
} from '../kit/codecs.js';
import { field, schemaOf, type AnyField, type Field } from '../kit/fields.js';
import { nestedIn } from '../kit/nested.js';
import type { DocumentBounds, Schema } from '../shared/crd-schema.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { OPERATOR, SEVERITY, TRANSFORMATION, type RuleEnum } from './enums.js';

/** The platform member holding a rule's configuration. */
export const CONFIGURATION = 'ruleConfiguration';

/**
 * A platform enum by name (kit enumByNumber), the CRD listing each name once: a name that stands
 * for two numbers (enums.ts) sends the first and reads both.
 */
function ruleNames<N extends string>(table: RuleEnum<N>): Codec<N> {
  const codec = enumByNumber(table);
  return { ...codec, schema: { ...codec.schema, enum: [...new Set(table.names)] } };
}

/** A platform enum by name; a member the record leaves out is the platform's 0. */
export function ruleEnum<N extends string>(table: RuleEnum<N>): Codec<N> {
  return absentAs(ruleNames(table), 0);
}

const VARIABLES =
  'Request variables the condition inspects, each with a sub-key (a header, cookie or argument name) or "" for the whole variable; at least one.';

function variablesBounds(docs: DocumentBounds): Schema {
  const names = docs.propertyNames('shield', 'CreateCustomWafRuleModel.variableTypes');
  return {
    description: `${VARIABLES} Keys: ${names.join(', ')}.`,
    maxProperties: names.length,
    'x-kubernetes-validations': [
      {
        rule: `self.all(k, k in ${JSON.stringify(names)})`,
        message: `every key must be one of ${names.join(', ')}`,
      },
    ],
  };
}

/** One condition (the rule's own, in its configuration, and each chained one). */
export const CONDITION_FIELDS = [
  field(
    'variables',
    stringMap({ minProperties: 1, additionalProperties: { type: 'string', maxLength: 256 } }),
    { api: 'variableTypes', required: true, description: VARIABLES, bounds: variablesBounds },
  ),
  field('operator', ruleEnum(OPERATOR), {
    api: 'operatorType',
    required: true,
    description:
      'How the variables are compared with value: BeginsWith, EndsWith, Contains, ContainsWord, StrMatch, Equal, GreaterOrEqual, GreaterThan, LessOrEqual, LessThan (numbers), Within (value lists words), Regex (regular expression), StrEqual (string equal), DetectSQLi and DetectXSS (attack detection; value unused).',
  }),
  field('value', blankAsAbsent(text({ maxLength: 4096 }), ''), {
    api: 'value',
    unset: '',
    description: 'What the variables are compared with (unset: empty).',
  }),
  field('negated', blankAsAbsent(flag(), false), {
    api: 'isNegated',
    unset: false,
    description: 'Match when the comparison fails instead of when it succeeds.',
  }),
  field('regexVariable', blankAsAbsent(flag(), false), {
    api: 'isRegexVariable',
    unset: false,
    description: 'The variable sub-keys are regular expressions (e.g. all headers matching x-.*).',
  }),
] as const;

/** The configuration members after the action that every rule kind has. */
const SETTINGS = [
  field('severity', ruleEnum(SEVERITY), {
    api: 'severityType',
    description:
      'Severity logged when the rule matches (unset: not managed; a new rule gets Notice).',
  }),
  field('transformations', listOf(ruleNames(TRANSFORMATION)), {
    api: 'transformationTypes',
    schema: { maxItems: TRANSFORMATION.names.length },
    description:
      'Transformations applied to the variables before the comparison, in order (e.g. Lowercase, URLDecode). Unset: not managed.',
  }),
  field('chainedConditions', tableList(CONDITION_FIELDS), {
    api: 'chainedRuleConditions',
    schema: { maxItems: 10 },
    bounds: (docs) => ({
      items: {
        type: 'object',
        description: 'One more condition.',
        // A copy, so that the CRD file repeats the schema instead of a YAML alias to it.
        ...structuredClone(schemaOf(CONDITION_FIELDS, docs)),
      },
    }),
    description:
      'More conditions that must all match as well (AND). Unset: not managed; [] removes them.',
  }),
] as const;

/** A rule's name and description (top-level members of the record). */
type RuleHead = readonly [Field<'name', string>, Field<'description', string>];

/**
 * The table of a rule kind whose rules are called `what`: the name and description, then in
 * `ruleConfiguration` the condition, its `action`, the shared members and its own (a rate
 * limit's counting).
 */
export function ruleFields<const A extends AnyField, const C extends readonly AnyField[]>(
  what: string,
  action: A,
  own: C,
): readonly [...RuleHead, ...typeof CONDITION_FIELDS, A, ...typeof SETTINGS, ...C] {
  const head = [
    field('name', text({ minLength: 1, maxLength: 255, pattern: '.*\\S.*' }), {
      api: 'ruleName',
      status: 'name',
      // A rule adopted by id keeps its own name unless the spec sets one.
      defaultOf: (obj) => (adoptionIdOf(obj.spec) === undefined ? obj.metadata.name : undefined),
      description: `Name of the ${what} on the platform (default metadata.name). With spec.adoption the existing rule of this exact name (case-sensitive) is adopted. A rule adopted by id (spec.adoption.id) keeps its own name unless this is set.`,
    }),
    field('description', blankAsAbsent(text({ maxLength: 1024 }), ''), {
      api: 'ruleDescription',
      unset: '',
      description: `Description of the ${what} (unset: not managed).`,
    }),
  ] as const;
  return [
    ...head,
    ...nestedIn(CONFIGURATION, [...CONDITION_FIELDS, action, ...SETTINGS, ...own] as const),
  ];
}
