/**
 * The ShieldPolicy CustomResourceDefinition, generated: the field table below (descriptions
 * written for this project) with the enum names and number formats the official Shield
 * document gives read from it at generation time (`doc(...)`, `names(...)`), so the CRD cannot
 * drift from what the platform accepts. The document gives no numeric or length bounds for
 * these settings; the bounds below are the operator's own (list sizes, id lengths). The account
 * fields come from shared/account-schema.ts and common-spec.ts.
 *
 *   node --import tsx hack/generate-crds.ts
 */
import {
  credentialsRefFragment,
  plannedChangesSchema,
  withDescription,
  withFragments,
  type Schema,
} from './common-spec.js';
import {
  ACCOUNT_REF_SCHEMA,
  ACCOUNT_XOR_CREDENTIALS_RULE,
  CREDENTIALS_REF_DESCRIPTION,
} from '../../src/controllers/shared/account-schema.js';
import { ownershipStatusSchema } from '../../src/controllers/shared/ownership-schema.js';
import { documentBounds, documentEnumNames, type BoundKey } from './document-bounds.js';

/** Bounds of `ShieldZoneRequest.<field>` (the body of the update call). */
function doc(field: string, take?: BoundKey[]): Schema {
  return documentBounds('shield', `ShieldZoneRequest.${field}`, take);
}

/** A string enum with the names of the document's integer enum `schema`. */
function names(schema: string, description: string): Schema {
  return { type: 'string', enum: documentEnumNames('shield', schema), description };
}

/** A set of managed rule ids or header names (the document: unique strings). */
function stringSet(description: string, maxItems: number, maxLength: number): Schema {
  return {
    type: 'array',
    description,
    maxItems,
    'x-kubernetes-list-type': 'set',
    items: { type: 'string', minLength: 1, maxLength },
  };
}

const OWN_SPEC: Schema = {
  type: 'object',
  description:
    'Desired shield settings. Only the settings written here are managed; a setting left out keeps whatever value the platform has.',
  properties: {
    pullZoneRef: {
      type: 'object',
      description:
        'A PullZoneConfig in this namespace whose pull zone is protected. The policy waits until that resource reports its pull zone id.',
      required: ['name'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 253,
          description: 'Name of the PullZoneConfig.',
        },
      },
    },
    pullZoneId: {
      type: 'integer',
      format: 'int64',
      minimum: 1,
      description: 'Id of an existing pull zone to protect (instead of pullZoneRef).',
    },
    learningMode: {
      type: 'boolean',
      description:
        'Observe traffic to learn its normal shape before enforcing; rules only log while it is on.',
    },
    learningModeUntil: {
      type: 'string',
      ...doc('learningModeUntil'),
      description: 'When learning mode ends by itself (RFC 3339 time).',
    },
    waf: {
      type: 'object',
      description: 'Web application firewall settings.',
      properties: {
        enabled: { type: 'boolean', description: 'Turns the firewall on or off.' },
        executionMode: names('WAFExecutionMode', 'Log matching requests only, or block them.'),
        disabledRules: stringSet(
          'Managed rule ids switched off for this zone (order ignored).',
          1000,
          64,
        ),
        logOnlyRules: stringSet(
          'Managed rule ids that only log, even in Block mode (order ignored).',
          1000,
          64,
        ),
        customRuleOrder: {
          type: 'array',
          description:
            "Ids of the zone's custom WAF rules in evaluation order. Each id counts against the plan's custom WAF rule limit.",
          maxItems: 1000,
          'x-kubernetes-list-type': 'set',
          items: { type: 'integer', format: 'int64', minimum: 1 },
        },
        requestHeaderLoggingEnabled: {
          type: 'boolean',
          description: 'Record request headers of flagged requests.',
        },
        requestBodyLoggingEnabled: {
          type: 'boolean',
          description: 'Record request bodies of flagged requests.',
        },
        requestIgnoredHeaders: stringSet('Request headers left out of logs (order ignored).', 200, 256),
        realtimeThreatIntelligenceEnabled: {
          type: 'boolean',
          description: "Use the platform's live threat feeds in addition to the rules.",
        },
        profileId: {
          type: 'integer',
          ...doc('wafProfileId'),
          minimum: 0,
          description: 'Id of the WAF rule profile to apply.',
        },
        engineConfig: {
          type: 'array',
          description: 'Low-level firewall engine variables, one entry per name.',
          maxItems: 200,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name', 'valueEncoded'],
            properties: {
              name: { type: 'string', minLength: 1, description: 'Variable name.' },
              valueEncoded: {
                type: 'string',
                description: 'Variable value, in the encoded form the platform expects.',
              },
            },
          },
        },
        requestBodyLimitAction: names(
          'WAFPayloadLimitAction',
          'What to do with a request whose body is too large to inspect.',
        ),
        responseBodyLimitAction: names(
          'WAFPayloadLimitAction',
          'What to do with a response whose body is too large to inspect.',
        ),
      },
    },
    ddos: {
      type: 'object',
      description: 'DDoS protection settings.',
      properties: {
        shieldSensitivity: names(
          'DDoSShieldSensitivity',
          'How eagerly traffic is treated as an attack; Challenge asks every visitor to pass a challenge.',
        ),
        executionMode: names(
          'DDoSExecutionMode',
          "Log suspected attack traffic only, or block it. Observed only: the platform's update call does not accept it (see docs/shieldpolicy.md).",
        ),
        challengeWindow: {
          type: 'integer',
          ...doc('dDoSChallengeWindow'),
          minimum: 0,
          description: 'Seconds a visitor who passed a challenge is trusted.',
        },
      },
    },
    whitelabelResponsePages: {
      type: 'boolean',
      description: 'Serve block and challenge pages without platform branding.',
    },
    ruleMetrics: {
      type: 'array',
      description:
        'WAF rule ids whose trigger counters are copied into status.ruleMetrics, refreshed once per poll interval.',
      maxItems: 50,
      'x-kubernetes-list-type': 'set',
      items: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    },
    deletionPolicy: {
      type: 'string',
      enum: ['Reset', 'Orphan'],
      default: 'Reset',
      description:
        'What happens to the shield zone when this resource is deleted (the platform cannot delete one): Reset returns every setting this policy manages to the value of a new zone; Orphan leaves the zone exactly as it is.',
    },
  },
  'x-kubernetes-validations': [
    {
      rule: 'has(self.pullZoneRef) != has(self.pullZoneId)',
      message: 'set exactly one of pullZoneRef and pullZoneId',
    },
  ],
};

const CONDITIONS: Schema = {
  type: 'array',
  description: 'Ready (the zone matches the spec) and Synced (the last reconcile succeeded).',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  items: {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string', description: 'Condition type (Ready or Synced).' },
      status: {
        type: 'string',
        enum: ['True', 'False', 'Unknown'],
        description: 'Whether the condition holds.',
      },
      reason: { type: 'string', description: 'Machine-readable reason of the last transition.' },
      message: { type: 'string', description: 'Human-readable detail.' },
      lastTransitionTime: {
        type: 'string',
        format: 'date-time',
        description: 'When the status last changed.',
      },
      observedGeneration: {
        type: 'integer',
        format: 'int64',
        description: 'The metadata.generation the condition was computed for.',
      },
    },
  },
};

function counter(description: string): Schema {
  return { type: 'integer', format: 'int64', description };
}

const STATUS: Schema = {
  type: 'object',
  description: 'Observed state of the shield zone.',
  properties: {
    ownership: ownershipStatusSchema,
    shieldZoneId: { type: 'integer', format: 'int64', description: 'Id of the shield zone.' },
    pullZoneId: { type: 'integer', format: 'int64', description: 'Id of the protected pull zone.' },
    planType: names('ShieldPlanType', 'Shield plan of the zone.'),
    rateLimitRulesLimit: {
      type: 'integer',
      format: 'int32',
      description: 'How many rate-limit rules the plan allows.',
    },
    customWafRulesLimit: {
      type: 'integer',
      format: 'int32',
      description: 'How many custom WAF rules the plan allows.',
    },
    ruleMetrics: {
      type: 'array',
      description: 'Trigger counters of the rules listed in spec.ruleMetrics.',
      items: {
        type: 'object',
        required: ['ruleId'],
        properties: {
          ruleId: { type: 'string', description: 'The WAF rule id (from spec.ruleMetrics).' },
          totalTriggers: counter('Requests that matched the rule.'),
          blocked: counter('Matching requests that were blocked.'),
          logged: counter('Matching requests that were only logged.'),
          challenged: counter('Matching requests that were challenged.'),
          error: { type: 'string', description: 'Why the counters of this rule could not be read.' },
        },
      },
    },
    lastMetricsTime: {
      type: 'string',
      format: 'date-time',
      description: 'When the counters in ruleMetrics last changed.',
    },
    conditions: CONDITIONS,
    observedGeneration: {
      type: 'integer',
      format: 'int64',
      description: 'The metadata.generation the operator last reconciled.',
    },
    lastSyncTime: {
      type: 'string',
      format: 'date-time',
      description: 'When the operator last compared the zone with the spec.',
    },
    plannedChanges: plannedChangesSchema('Shield zone'),
  },
};

const VERSION_META = {
  name: 'v1alpha1',
  served: true,
  storage: true,
  subresources: { status: {} },
  additionalPrinterColumns: [
    {
      name: 'READY',
      type: 'string',
      jsonPath: ".status.conditions[?(@.type=='Ready')].status",
    },
    {
      name: 'SYNCED',
      type: 'string',
      jsonPath: ".status.conditions[?(@.type=='Synced')].status",
    },
    {
      name: 'ZONE',
      type: 'integer',
      description: 'Id of the shield zone.',
      jsonPath: '.status.shieldZoneId',
    },
    { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
};

/** The CRD object (shieldpolicies.cdn.operator.io). */
export function buildShieldPolicyCrd(): Schema {
  const spec = withFragments(OWN_SPEC, [
    {
      properties: { accountRef: ACCOUNT_REF_SCHEMA },
      rules: [ACCOUNT_XOR_CREDENTIALS_RULE],
    },
    withDescription(
      credentialsRefFragment('shield zone', true),
      'credentialsRef',
      CREDENTIALS_REF_DESCRIPTION,
    ),
  ]);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'shieldpolicies.cdn.operator.io' },
    spec: {
      group: 'cdn.operator.io',
      names: {
        kind: 'ShieldPolicy',
        listKind: 'ShieldPolicyList',
        plural: 'shieldpolicies',
        singular: 'shieldpolicy',
        shortNames: ['shp'],
        categories: ['cdn'],
      },
      scope: 'Namespaced',
      versions: [
        {
          ...VERSION_META,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                'Web application firewall and DDoS protection (a bunny.net shield zone) for one pull zone, managed by cdn-operator.',
              properties: {
                apiVersion: { type: 'string', description: 'API version of this object.' },
                kind: { type: 'string', description: 'Kind of this object (ShieldPolicy).' },
                metadata: { type: 'object' },
                spec,
                status: STATUS,
              },
            },
          },
        },
      ],
    },
  };
}
