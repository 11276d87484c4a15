/**
 * The ShieldPolicy CRD schema: the field table below (descriptions written for this project)
 * with the enum names and number formats the official Shield document gives read from it at
 * generation time (`doc(...)`, `names(...)`), so the CRD cannot drift from what the platform
 * accepts. The document gives no numeric or length bounds for these settings; the bounds below
 * are the operator's own (list sizes, id lengths). Account and status fragments are shared with
 * the other kinds. Rendered by hack/generate-crds.ts.
 */
import { accountFragment } from '../shared/account-schema.js';
import {
  managedColumns,
  nameRefSchema,
  withFragments,
  type BoundKey,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import {
  booleanSchema,
  boundedStringSchema,
  int64Schema,
  listSchema,
  objectSchema,
  statusColumn,
  stringSchema,
} from '../shared/schema-nodes.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { specNameOf } from './enums.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Reads of the Shield document. */
interface ShieldDocument {
  /** Bounds of `ShieldZoneRequest.<field>` (the body of the update call). */
  doc: (field: string, take?: BoundKey[]) => Schema;
  /** A string enum with the (spec) names of the document's integer enum `schema`. */
  names: (schema: string, description: string) => Schema;
}

function shieldDocument(docs: DocumentBounds): ShieldDocument {
  return {
    doc: (field, take) => docs.bounds('shield', `ShieldZoneRequest.${field}`, take),
    names: (schema, description) => ({
      type: 'string',
      enum: docs.enumNames('shield', schema).map((name) => specNameOf(schema, name)),
      description,
    }),
  };
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

type Names = ShieldDocument['names'];

function botSensitivity(names: Names, what: string): Schema {
  return {
    type: 'object',
    description: `${what} check.`,
    properties: {
      sensitivity: names('BotDetectionSensitivity', `How strictly the ${what} check flags bots.`),
    },
  };
}

function botDetectionSpec(names: Names): Schema {
  return {
    type: 'object',
    description:
      "The zone's bot detection (one per zone). Left out, it is not managed; inside, a member left out is not managed either.",
    properties: {
      executionMode: names(
        'BotDetectionExecutionMode',
        'Only log suspected bots, or challenge them.',
      ),
      requestIntegrity: botSensitivity(names, 'Request integrity'),
      ipAddress: botSensitivity(names, 'IP address reputation'),
      browserFingerprint: {
        type: 'object',
        description: 'Browser fingerprint check.',
        properties: {
          sensitivity: names(
            'BotDetectionSensitivity',
            'How strictly the browser fingerprint check flags bots.',
          ),
          aggression: names(
            'BrowserFingerprintAggression',
            'How much fingerprinting work the check does.',
          ),
          complexEnabled: {
            type: 'boolean',
            description: 'Also run the more thorough fingerprint checks.',
          },
        },
      },
    },
  };
}

function uploadScanningSpec(names: Names): Schema {
  return {
    type: 'object',
    description:
      "The zone's scanning of uploaded files (one per zone). Left out, it is not managed; inside, a member left out is not managed either.",
    properties: {
      enabled: { type: 'boolean', description: 'Scan uploads at all.' },
      csamScanningMode: names(
        'UploadScanningScannerMode',
        'What the scan for child sexual abuse material does with a match: nothing, log it or block the upload.',
      ),
      antivirusScanningMode: names(
        'UploadScanningScannerMode',
        'What the antivirus scan does with a match: nothing, log it or block the upload.',
      ),
    },
  };
}

function customPagesSpec(): Schema {
  return {
    type: 'array',
    description:
      "Custom response pages of the zone, the HTML read from a ConfigMap key in this namespace (at most 1 MiB; a change to the ConfigMap is applied at once). Page types left out are not managed. The platform's plan decides whether they are allowed.",
    maxItems: 16,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['pageType'],
    items: {
      type: 'object',
      required: ['pageType', 'configMapRef'],
      properties: {
        pageType: {
          type: 'string',
          pattern: '^[a-z][a-z0-9-]{0,31}$',
          description:
            'The page it replaces, as the platform names it (for example block, challenge or ratelimit).',
        },
        configMapRef: {
          type: 'object',
          required: ['name', 'key'],
          description: 'Where the HTML is.',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 253, description: 'ConfigMap name.' },
            key: {
              type: 'string',
              minLength: 1,
              maxLength: 253,
              description: 'Key holding the HTML.',
            },
          },
        },
      },
    },
  };
}

/** Most curated lists one policy names (the operator's bound; the platform has a handful). */
const MAX_CURATED_LISTS = 50;

function curatedListsSpec(names: Names): Schema {
  const list = objectSchema(
    {
      name: boundedStringSchema(
        "The list's name on the platform (for example Tor Exit Nodes).",
        100,
      ),
      enabled: booleanSchema('Whether the list is applied to requests.'),
      action: names(
        'AccessListAction',
        'What happens to a request from an address (or network, country, ...) on the list.',
      ),
    },
    { required: ['name'] },
  );
  return listSchema(
    "The zone's curated access lists (maintained by the platform: Tor exit nodes, VPN providers, ...), each named as the platform names it. A list left out is not managed; inside an entry, a member left out is not managed either. Enabling a list the zone's plan does not include is held back with PlanNotSufficient (see docs/shieldpolicy.md).",
    list,
    { maxItems: MAX_CURATED_LISTS, key: 'name' },
  );
}

function ownSpec({ doc, names }: ShieldDocument): Schema {
  return {
    type: 'object',
    description:
      'Desired shield settings. Only the settings written here are managed; a setting left out keeps whatever value the platform has.',
    properties: {
      pullZoneRef: nameRefSchema(
        'A PullZoneConfig in this namespace whose pull zone is protected. The policy waits until that resource reports its pull zone id.',
        'Name of the PullZoneConfig.',
      ),
      pullZoneId: {
        type: 'integer',
        format: 'int64',
        minimum: 1,
        description: 'Id of an existing pull zone to protect (instead of pullZoneRef).',
      },
      planType: names(
        'ShieldPlanType',
        "The zone's shield plan; a higher plan raises the custom WAF and rate-limit rule limits and unlocks features such as custom response pages. Left out, the plan is not managed. Deleting the policy never changes the plan.",
      ),
      learningMode: {
        type: 'boolean',
        description:
          'Observe traffic to learn its normal shape before enforcing; rules only log while it is on.',
      },
      learningModeEndTime: {
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
            "Managed rule ids switched off for this zone (order ignored). Each must be one of the zone's managed rules: an id only a higher plan has is refused with PlanNotSufficient, an unknown id with InvalidSpec, and the list is then not written. The result of a 'DisableRule' review belongs here (see status.waf.triggeredRules).",
            1000,
            64,
          ),
          logOnlyRules: stringSet(
            "Managed rule ids that only log, even in Block mode (order ignored); checked like disabledRules. The result of a 'LogOnly' review belongs here.",
            1000,
            64,
          ),
          customRuleOrder: {
            type: 'array',
            description:
              "Ids of the zone's custom WAF rules in evaluation order, each once. Each id counts against the plan's custom WAF rule limit.",
            maxItems: 1000,
            // Ordered: a server-side apply merge of a set may reorder it. Atomic loses the
            // set's uniqueness check, kept by the rule below.
            'x-kubernetes-list-type': 'atomic',
            items: { type: 'integer', format: 'int64', minimum: 1 },
            'x-kubernetes-validations': [
              {
                rule: 'self.all(x, self.exists_one(y, y == x))',
                message: 'each id may appear only once',
              },
            ],
          },
          requestHeaderLoggingEnabled: {
            type: 'boolean',
            description: 'Record request headers of flagged requests.',
          },
          requestBodyLoggingEnabled: {
            type: 'boolean',
            description: 'Record request bodies of flagged requests.',
          },
          requestIgnoredHeaders: stringSet(
            'Request headers left out of logs (order ignored).',
            200,
            256,
          ),
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
          engineConfig: listSchema(
            'Low-level firewall engine variables, one entry per name.',
            objectSchema(
              {
                name: { type: 'string', minLength: 1, description: 'Variable name.' },
                valueEncoded: stringSchema(
                  'Variable value, in the encoded form the platform expects.',
                ),
              },
              { required: ['name', 'valueEncoded'] },
            ),
            { maxItems: 200, key: 'name' },
          ),
          requestBodyLimitAction: names(
            'WAFPayloadLimitAction',
            'What to do with a request whose body is too large to inspect.',
          ),
          responseBodyLimitAction: names(
            'WAFPayloadLimitAction',
            'What to do with a response whose body is too large to inspect.',
          ),
        },
        'x-kubernetes-validations': [
          {
            rule: '!has(self.disabledRules) || !has(self.logOnlyRules) || !self.disabledRules.exists(r, r in self.logOnlyRules)',
            message: 'a rule id cannot be in both disabledRules and logOnlyRules',
          },
        ],
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
          challengeWindowSeconds: {
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
      botDetection: botDetectionSpec(names),
      uploadScanning: uploadScanningSpec(names),
      customPages: customPagesSpec(),
      curatedAccessLists: curatedListsSpec(names),
      ruleMetrics: {
        type: 'array',
        description:
          'WAF rule ids whose trigger counters are copied into status.ruleMetrics, refreshed once per poll interval.',
        maxItems: 50,
        'x-kubernetes-list-type': 'set',
        items: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      },
      rulePolicy: {
        type: 'string',
        enum: ['Additive', 'Exact'],
        default: 'Additive',
        description:
          "Additive: the zone's custom WAF rules, rate limits and custom access lists that no ShieldWafRule, ShieldRateLimit or ShieldAccessList manages are left alone. Exact: each of them is deleted, so the zone holds exactly the rules its objects declare (curated access lists and managed WAF rules are never deleted; a rule this policy lists in waf.customRuleOrder is kept). See docs/shieldpolicy.md.",
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
}

/** A request counter of the status (int64). */
const counter = int64Schema;

function ownStatus({ names }: ShieldDocument): Record<string, Schema> {
  return {
    shieldZoneId: int64Schema('Id of the shield zone.'),
    pullZoneId: int64Schema('Id of the protected pull zone.'),
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
    ruleMetrics: listSchema(
      'Trigger counters of the rules listed in spec.ruleMetrics.',
      objectSchema(
        {
          ruleId: stringSchema('The WAF rule id (from spec.ruleMetrics).'),
          totalTriggers: counter('Requests that matched the rule.'),
          blocked: counter('Matching requests that were blocked.'),
          logged: counter('Matching requests that were only logged.'),
          challenged: counter('Matching requests that were challenged.'),
          error: stringSchema('Why the counters of this rule could not be read.'),
        },
        { required: ['ruleId'] },
      ),
    ),
    customPages: listSchema(
      'The custom pages this policy manages that the zone has, by content hash.',
      objectSchema(
        {
          pageType: stringSchema('The page type.'),
          sha256: stringSchema("SHA-256 (hex) of the zone's page."),
        },
        { required: ['pageType', 'sha256'] },
      ),
    ),
    lastMetricsTime: {
      type: 'string',
      format: 'date-time',
      description: 'When the counters in ruleMetrics last changed.',
    },
    deletedRules: listSchema(
      'The latest custom WAF rules, rate limits and custom access lists that rulePolicy Exact deleted (at most 20, newest first); every deletion is also an Event (DeletedUnmanagedRule).',
      objectSchema(
        {
          type: {
            type: 'string',
            enum: ['CustomWafRule', 'RateLimit', 'CustomAccessList'],
            description: 'What the deleted item was.',
          },
          id: int64Schema('Its platform id.'),
          name: stringSchema('Its name on the platform.'),
          deletionTime: {
            type: 'string',
            format: 'date-time',
            description: 'When it was deleted.',
          },
        },
        { required: ['type', 'id', 'deletionTime'] },
      ),
      { maxItems: 20 },
    ),
    waf: objectSchema(
      {
        triggeredRules: listSchema(
          'The rules with the most triggered requests (at most 20), most first.',
          objectSchema(
            {
              ruleId: stringSchema('The managed rule id.'),
              description: stringSchema("The platform's description of the rule."),
              requests: counter('Requests that triggered the rule.'),
            },
            { required: ['ruleId', 'requests'] },
          ),
          { maxItems: 20 },
        ),
        triggeredRulesTotal: counter('How many rules wait for review.'),
      },
      {
        description:
          "Managed WAF rules that triggered on the zone and wait for review, read once per poll interval while the zone's WAF is on. Put the outcome of a review in spec.waf.logOnlyRules or spec.waf.disabledRules.",
        required: ['triggeredRulesTotal'],
      },
    ),
  };
}

/** The ShieldPolicy schema (shieldpolicies). */
export function shieldPolicySchema(docs: DocumentBounds): KindSchema {
  const shield = shieldDocument(docs);
  return {
    description:
      'Web application firewall and DDoS protection (a bunny.net shield zone) for one pull zone, managed by cdn-operator.',
    categories: ['cdn'],
    spec: withFragments(ownSpec(shield), [accountFragment()]),
    status: managedStatusSchema({
      description: 'Observed state of the shield zone.',
      resource: 'shield zone',
      conditions: 'Ready (the zone matches the spec) and Synced (the last reconcile succeeded).',
      properties: ownStatus(shield),
    }),
    columns: managedColumns(
      statusColumn('ZONE', 'integer', 'Id of the shield zone.', 'shieldZoneId'),
    ),
  };
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = shieldPolicySchema;
