/**
 * The CRD schema every shield rule kind shares: the shield zone (a ShieldPolicy reference or a
 * raw id, exactly one), adoption (by id or by name), the name and description, the condition
 * (variables, operator, value, transformations, chained conditions) and severity, and the
 * status. A kind adds its action (and, for rate limits, the counting) through `own`. Enum
 * names, the request variables and number formats are read from the official Shield document
 * (`CreateCustomWafRuleModel`); lengths and list sizes the document does not give are the
 * operator's own.
 */
import { accountFragment } from '../shared/account-schema.js';
import {
  immutable,
  managedColumns,
  nameRefSchema,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';

/** What a kind adds to the shared schema. */
export interface RuleSchemaOptions {
  /** `custom WAF rule`. */
  what: string;
  /** The top of `kubectl explain`. */
  description: string;
  /** The kind's own spec fields (action, ...). */
  own: Record<string, Schema>;
  /** Which of `own` are required. */
  required: string[];
}

const MODEL = 'CreateCustomWafRuleModel';

function variablesSchema(docs: DocumentBounds): Schema {
  const names = docs.propertyNames('shield', `${MODEL}.variableTypes`);
  return {
    type: 'object',
    description: `Request variables the condition inspects, each with a sub-key (a header, cookie or argument name) or "" for the whole variable; at least one. Keys: ${names.join(', ')}.`,
    minProperties: 1,
    maxProperties: names.length,
    additionalProperties: { type: 'string', maxLength: 256 },
    'x-kubernetes-validations': [
      {
        rule: `self.all(k, k in ${JSON.stringify(names)})`,
        message: `every key must be one of ${names.join(', ')}`,
      },
    ],
  };
}

/** The members of one condition (the rule's own and each chained one). */
function conditionProperties(docs: DocumentBounds): Record<string, Schema> {
  return {
    variables: variablesSchema(docs),
    operator: {
      type: 'string',
      enum: docs.enumNames('shield', 'WafRuleOperatorType'),
      description:
        'How the variables are compared with value: BEGINSWITH, ENDSWITH, CONTAINS, CONTAINSWORD, STRMATCH, EQ (equal), GE, GT, LE, LT (numbers), WITHIN (value lists words), RX (regular expression), STREQ (string equal), DETECTSQLI and DETECTXSS (attack detection; value unused).',
    },
    value: {
      type: 'string',
      maxLength: 4096,
      description: 'What the variables are compared with (unset: empty).',
    },
    negated: {
      type: 'boolean',
      description: 'Match when the comparison fails instead of when it succeeds.',
    },
    regexVariable: {
      type: 'boolean',
      description:
        'The variable sub-keys are regular expressions (e.g. all headers matching x-.*).',
    },
  };
}

/**
 * `shieldPolicyRef` and `shieldZoneId`, the shield zone of an object that lives on one (a shield
 * rule, a ShieldAccessList): set exactly one ({@link ZONE_TARGET_RULE}); both immutable.
 */
export function zoneTargetProperties(docs: DocumentBounds, what: string): Record<string, Schema> {
  return {
    shieldPolicyRef: {
      ...nameRefSchema(
        `The ShieldPolicy (same namespace) whose shield zone holds this ${what}. It waits (Ready=False ReferenceNotReady) until the policy reports status.shieldZoneId. Set exactly one of shieldPolicyRef and shieldZoneId. Immutable.`,
        'Name of the ShieldPolicy.',
      ),
      'x-kubernetes-validations': immutable('shieldPolicyRef'),
    },
    shieldZoneId: {
      ...docs.bounds('shield', 'CreateCustomWafRuleRequest.shieldZoneId', ['format']),
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      description: `Id of the shield zone that holds this ${what}, for zones no ShieldPolicy of this namespace manages. A zone whose ShieldPolicy lives in another namespace is refused (Synced=False ReferenceNotAllowed) and nothing is sent. Set exactly one of shieldPolicyRef and shieldZoneId. Immutable.`,
      'x-kubernetes-validations': immutable('shieldZoneId'),
    },
  };
}

/** The spec rule that exactly one of shieldPolicyRef and shieldZoneId is set. */
export const ZONE_TARGET_RULE: Schema = {
  rule: 'has(self.shieldPolicyRef) != has(self.shieldZoneId)',
  message: 'set exactly one of shieldPolicyRef and shieldZoneId',
};

function ownSpec(docs: DocumentBounds, o: RuleSchemaOptions): Schema {
  const transformations = docs.enumNames('shield', 'WafRuleTransformationType');
  return {
    type: 'object',
    description: o.description,
    required: ['variables', 'operator', ...o.required],
    properties: {
      ...zoneTargetProperties(docs, o.what),
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '.*\\S.*',
        description: `Name of the ${o.what} on the platform (default metadata.name). With spec.adoption the existing rule of this exact name (case-sensitive) is adopted. A rule adopted by spec.ruleId keeps its own name unless this is set.`,
      },
      description: {
        type: 'string',
        maxLength: 1024,
        description: `Description of the ${o.what} (unset: not managed).`,
      },
      ...o.own,
      ...conditionProperties(docs),
      severity: {
        type: 'string',
        enum: docs.enumNames('shield', 'WafRuleSeverityType'),
        description:
          'Severity logged when the rule matches (unset: not managed; a new rule gets NOTICE).',
      },
      transformations: {
        type: 'array',
        maxItems: transformations.length,
        items: { type: 'string', enum: transformations },
        description:
          'Transformations applied to the variables before the comparison, in order (e.g. LOWERCASE, URLDECODE). Unset: not managed.',
      },
      chainedConditions: {
        type: 'array',
        maxItems: 10,
        description:
          'More conditions that must all match as well (AND). Unset: not managed; [] removes them.',
        items: {
          type: 'object',
          description: 'One more condition.',
          required: ['variables', 'operator'],
          properties: conditionProperties(docs),
        },
      },
    },
    'x-kubernetes-validations': [
      ZONE_TARGET_RULE,
      {
        rule: '!(has(self.ruleId) && has(self.adoption))',
        message: 'set either ruleId (adopt by id) or adoption (adopt by name), not both',
      },
    ],
  };
}

/** The schema of a shield rule kind. */
export function ruleSchema(docs: DocumentBounds, o: RuleSchemaOptions): KindSchema {
  return {
    description: o.description,
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs, o), [
      accountFragment(),
      adoptionIdFragment(
        'ruleId',
        { type: 'integer', format: 'int64', minimum: 1, maximum: 2147483647 },
        `Adopt the existing ${o.what} with this id (refused when another object manages it or when it lives on another shield zone). The operator never creates a rule when this is set. Immutable.`,
      ),
      adoptionFragment(o.what, 'spec.name (or metadata.name) on the shield zone'),
    ]),
    status: managedStatusSchema({
      description: `Observed state of the ${o.what}.`,
      resource: o.what,
      conditions: `Ready (the ${o.what} matches the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the rule).`,
      properties: {
        ruleId: { type: 'integer', format: 'int64', description: `Id of the managed ${o.what}.` },
        shieldZoneId: {
          type: 'integer',
          format: 'int64',
          description: 'Id of the shield zone that holds it.',
        },
        name: { type: 'string', description: 'Name of the rule on the platform.' },
      },
    }),
    columns: managedColumns(
      { name: 'ID', type: 'integer', description: 'Id of the rule.', jsonPath: '.status.ruleId' },
      {
        name: 'ZONE',
        type: 'integer',
        description: 'Shield zone.',
        jsonPath: '.status.shieldZoneId',
      },
    ),
  };
}
