/**
 * The CRD schema of a shield rule kind: its field table's properties (fields.ts), the shield
 * zone (a ShieldPolicy reference or a raw id, exactly one), adoption (by id or by name), status.
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
import { schemaOf } from '../kit/fields.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import type { RuleFamily } from './family.js';

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

function ownSpec(docs: DocumentBounds, family: RuleFamily): Schema {
  const { properties, required } = schemaOf(family.members, docs);
  return {
    type: 'object',
    description: family.description,
    required,
    properties: { ...zoneTargetProperties(docs, family.what), ...properties },
    'x-kubernetes-validations': [
      ZONE_TARGET_RULE,
      {
        rule: '!(has(self.ruleId) && has(self.adoption))',
        message: 'set either ruleId (adopt by id) or adoption (adopt by name), not both',
      },
    ],
  };
}

const INT64 = { type: 'integer', format: 'int64' } as const;

/** The schema of the shield rule kind `family`. */
export function ruleSchema(docs: DocumentBounds, family: RuleFamily): KindSchema {
  const { what, description } = family;
  return {
    description,
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs, family), [
      accountFragment(),
      adoptionIdFragment(
        'ruleId',
        { ...INT64, minimum: 1, maximum: 2147483647 },
        `Adopt the existing ${what} with this id (refused when another object manages it or when it lives on another shield zone). The operator never creates a rule when this is set. Immutable.`,
      ),
      adoptionFragment(what, 'spec.name (or metadata.name) on the shield zone'),
    ]),
    status: managedStatusSchema({
      description: `Observed state of the ${what}.`,
      resource: what,
      conditions: `Ready (the ${what} matches the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the rule).`,
      properties: {
        ruleId: { ...INT64, description: `Id of the managed ${what}.` },
        shieldZoneId: { ...INT64, description: 'Id of the shield zone that holds it.' },
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
