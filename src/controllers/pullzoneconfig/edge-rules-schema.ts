/**
 * CRD schema of `spec.edgeRules`, `spec.edgeRulePolicy` and `status.edgeRules`, built from
 * the name tables in edge-rules-types.ts. Parameter rules are CEL validations on each action,
 * so `kubectl apply` rejects a Redirect without a URL before the operator sees it.
 */
import { groupKey } from '../../api-group.js';
import { nameRefSchema, type Schema } from '../shared/crd-schema.js';
import { booleanSchema, listSchema, objectSchema, stringSchema } from '../shared/schema-nodes.js';
import {
  ACTION_PARAMETERS,
  ACTION_TYPES,
  MATCHING_TYPES,
  TRIGGER_TYPES,
  TRIGGERS_WITH_PARAMETER,
  type ParameterKind,
} from './edge-rules-types.js';

/** Most rules, triggers and patterns one resource may declare (bounds CEL cost too). */
export const MAX_EDGE_RULES = 100;
export const MAX_TRIGGERS = 10;
export const MAX_PATTERNS = 50;
/**
 * Longest parameter or pattern. Together with the list bounds this keeps the API server's
 * estimated CEL cost per rule (`matches` costs about length x regex size) well under its limits.
 */
const MAX_TEXT = 1024;
/** Most extra actions per rule. */
export const MAX_EXTRA_ACTIONS = 5;
/** Entries of `spec.purge` (URLs and cache tags together): one request's purge calls. */
export const MAX_PURGE_ENTRIES = 100;

const KIND_CHECK: Record<ParameterKind, (p: string) => string> = {
  text: (p) => `size(self.${p}) > 0`,
  url: (p) => `self.${p}.matches('^https?://[^\\\\s]+$')`,
  // One spelling per number (no sign, space or leading zero): a storage zone or script id is
  // then the id the reference check knows (shared/platform-id.ts), and no other rule is needed.
  integer: (p) => `self.${p}.matches('^(0|[1-9][0-9]{0,9})$')`,
  statusCode: (p) => `self.${p}.matches('^[1-5][0-9][0-9]$')`,
};

const KIND_TEXT: Record<ParameterKind, string> = {
  text: 'a non-empty string',
  url: 'an http(s) URL',
  integer: 'a non-negative integer (as a string, in decimal without a leading zero)',
  statusCode: 'an HTTP status code such as 301',
};

/** One CEL rule: a parameter check shared by every action type that needs it. */
interface ParameterCheck {
  param: string;
  required: boolean;
  kind: ParameterKind;
  types: string[];
}

/**
 * The parameter checks of ACTION_PARAMETERS, one per (parameter, required, kind) shared by
 * the action types that need it, not one per type: the API server plans every rule of an
 * action again on each write of the object and compiles each `matches` pattern while planning
 * (cel-go re-plans a program per evaluation when cost tracking is on), so 19 rules per action
 * with 14 patterns cost about four times what these 7 rules with 5 patterns cost, on every
 * create, update and status write (issue 32). `messageExpression` names the action type, so
 * the messages stay what they were (evaluated only when the rule fails).
 */
export function parameterChecks(): ParameterCheck[] {
  const groups = new Map<string, ParameterCheck>();
  for (const [action, params] of Object.entries(ACTION_PARAMETERS)) {
    for (const [param, rule] of Object.entries(params)) {
      const key = `${param}|${rule.required}|${rule.kind}`;
      const group = groups.get(key) ?? {
        param,
        required: rule.required,
        kind: rule.kind,
        types: [],
      };
      group.types.push(action);
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}

function actionValidations(): Array<{ rule: string; messageExpression: string }> {
  return parameterChecks().map((c) => {
    const presence = c.required
      ? `has(self.${c.param}) && ${KIND_CHECK[c.kind](c.param)}`
      : `!has(self.${c.param}) || ${KIND_CHECK[c.kind](c.param)}`;
    const applies =
      c.types.length === 1
        ? `self.type != '${c.types[0]}'`
        : `!(self.type in [${c.types.map((t) => `'${t}'`).join(', ')}])`;
    const text = `: ${c.param} ${c.required ? 'is required and ' : ''}must be ${KIND_TEXT[c.kind]}`;
    return {
      rule: `${applies} || (${presence})`,
      messageExpression: `self.type + '${text}'`,
    };
  });
}

const text: Schema = { type: 'string', maxLength: MAX_TEXT };

/**
 * RunEdgeScript names its script by id (`parameter1`) or by reference (`scriptRef`), exactly
 * one; no other action takes a `scriptRef`. No pattern: nothing for the planner to compile.
 */
const SCRIPT_REF_RULE = {
  rule: "self.type == 'RunEdgeScript' ? has(self.parameter1) != has(self.scriptRef) : !has(self.scriptRef)",
  message:
    'RunEdgeScript needs exactly one of parameter1 (the script id) and scriptRef; other actions take no scriptRef',
};

function actionSchema(description: string): Schema {
  return {
    type: 'object',
    description,
    required: ['type'],
    properties: {
      type: { type: 'string', enum: Object.keys(ACTION_TYPES), description: 'Action type.' },
      parameter1: { ...text, description: 'First parameter (URL, header name, seconds, ...).' },
      parameter2: { ...text, description: 'Second parameter (status code, header value, ...).' },
      parameter3: { ...text, description: 'Third parameter, where the action has one.' },
      scriptRef: nameRefSchema(
        'RunEdgeScript: an EdgeScript in this namespace, instead of its id in parameter1. The zone waits (Ready=False ReferenceNotReady) until the EdgeScript has an id.',
        'Name of the EdgeScript.',
      ),
    },
    'x-kubernetes-validations': [...actionValidations(), SCRIPT_REF_RULE],
  };
}

const matching = (what: string): Schema => ({
  type: 'string',
  enum: Object.keys(MATCHING_TYPES),
  default: 'MatchAny',
  description: `How ${what} combine: MatchAny, MatchAll or MatchNone.`,
});

const triggerSchema: Schema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: Object.keys(TRIGGER_TYPES), description: 'Trigger type.' },
    patternMatches: {
      type: 'array',
      maxItems: MAX_PATTERNS,
      items: { type: 'string', maxLength: MAX_TEXT },
      description: 'Patterns matched against the request (wildcards with *).',
    },
    patternMatching: matching('the patterns'),
    parameter1: {
      ...text,
      description: 'Header or cookie name for RequestHeader, ResponseHeader and CookieValue.',
    },
  },
  'x-kubernetes-validations': [
    {
      rule: `!(self.type in [${TRIGGERS_WITH_PARAMETER.map((t) => `'${t}'`).join(', ')}]) || (has(self.parameter1) && size(self.parameter1) > 0)`,
      message: `parameter1 (the header or cookie name) is required for ${TRIGGERS_WITH_PARAMETER.join(', ')} triggers`,
    },
  ],
};

const ruleSchema: Schema = {
  type: 'object',
  required: ['name', 'action'],
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 63,
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
      description: 'Your key for the rule (status.edgeRules maps it to the platform GUID).',
    },
    description: { ...text, description: 'Description shown on the platform.' },
    enabled: { type: 'boolean', default: true, description: 'Whether the rule runs.' },
    orderIndex: {
      type: 'integer',
      format: 'int32',
      minimum: 0,
      maximum: 2147483647,
      description: 'Execution priority on the platform; defaults to the position in the list.',
    },
    action: actionSchema('What the rule does.'),
    extraActions: {
      type: 'array',
      description: 'Further actions run by the same rule, after action.',
      maxItems: MAX_EXTRA_ACTIONS,
      'x-kubernetes-list-type': 'atomic',
      items: actionSchema('A further action run by the same rule.'),
    },
    triggerMatching: matching('the triggers'),
    triggers: {
      type: 'array',
      maxItems: MAX_TRIGGERS,
      'x-kubernetes-list-type': 'atomic',
      items: triggerSchema,
      description: 'Conditions that select requests; a rule without triggers never matches.',
    },
  },
};

/** `spec.edgeRules` and `spec.edgeRulePolicy`. */
export const EDGE_RULE_SPEC_PROPERTIES: Record<string, Schema> = {
  edgeRules: {
    type: 'array',
    description:
      'Edge rules of the zone, in priority order, keyed by name. Drift on a listed rule is corrected.',
    maxItems: MAX_EDGE_RULES,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: ruleSchema,
  },
  purge: {
    type: 'object',
    description: `What a purge request (annotation ${groupKey('purge-requested-at')} set to a new value) purges: the listed URLs and cache tags, or the whole zone when none are listed. At most ${MAX_PURGE_ENTRIES} entries in both lists together.`,
    'x-kubernetes-validations': [
      {
        rule: `(has(self.urls) ? size(self.urls) : 0) + (has(self.cacheTags) ? size(self.cacheTags) : 0) <= ${MAX_PURGE_ENTRIES}`,
        message: `urls and cacheTags together may list at most ${MAX_PURGE_ENTRIES} entries`,
      },
    ],
    properties: {
      urls: {
        type: 'array',
        maxItems: MAX_PURGE_ENTRIES,
        description:
          'Absolute http(s) URLs, or paths starting with / (taken on the zone CDN hostname); a trailing * purges every URL with that prefix.',
        items: {
          type: 'string',
          minLength: 1,
          maxLength: 2048,
          pattern: '^(https?://[^\\s/]+)?/[^\\s]*$',
        },
      },
      cacheTags: {
        type: 'array',
        maxItems: MAX_PURGE_ENTRIES,
        'x-kubernetes-list-type': 'set',
        description:
          "Cache tags to purge: each one is a purge of the zone limited to the responses carrying that tag (the platform's CacheTag).",
        items: { type: 'string', minLength: 1, maxLength: 255, pattern: '^\\S+$' },
      },
    },
  },
  edgeRulePolicy: {
    type: 'string',
    enum: ['Additive', 'Exact'],
    default: 'Additive',
    description:
      'Additive: rules not in spec.edgeRules are left alone (rules this resource created are removed when dropped). Exact: every rule not listed is removed.',
  },
};

/** `status.edgeRules` and `status.purge`. */
export const EDGE_RULE_STATUS_PROPERTIES: Record<string, Schema> = {
  edgeRules: listSchema(
    'Platform GUID of each rule of spec.edgeRules.',
    objectSchema(
      {
        name: stringSchema('Name of the rule in spec.edgeRules.'),
        guid: stringSchema('Platform GUID of the rule.'),
        createdByOperator: booleanSchema(
          'This resource created the rule (only such rules go when dropped in Additive mode).',
        ),
      },
      { required: ['name', 'guid'] },
    ),
  ),
  purge: {
    type: 'object',
    description:
      'The last purge request handled (never repeated for the same annotation value), and the one under way or deferred. At most one purge request starts per object per minute; requests made meanwhile are merged into one.',
    properties: {
      lastRequest: { type: 'string', description: 'The annotation value this purge answered.' },
      completionTime: {
        type: 'string',
        format: 'date-time',
        description: 'When the platform accepted the purge.',
      },
      scope: {
        type: 'string',
        description: 'Zone, or how many URLs and cache tags were purged.',
      },
      startTime: {
        type: 'string',
        format: 'date-time',
        description:
          'When the latest purge request started; the next one may start a minute later.',
      },
      inProgressRequest: {
        type: 'string',
        description:
          'The annotation value of a URL or cache tag purge still being sent (at most 20 entries per reconcile pass).',
      },
      entriesPurged: {
        type: 'integer',
        minimum: 0,
        description:
          'Entries of the purge in progress purged so far (its URLs first, then its cache tags).',
      },
      scheduledTime: {
        type: 'string',
        format: 'date-time',
        description:
          'A newer purge request waits for the minimum interval and is sent at this time.',
      },
    },
  },
};
