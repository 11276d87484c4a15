/**
 * The CRD schema of a shield rule kind: its field table's properties (fields.ts), the shield
 * zone (a ShieldPolicy reference or a raw id, exactly one), adoption (by id or by name), status.
 */
import {
  immutable,
  nameRefSchema,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { schemaOf } from '../kit/fields.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { int64Schema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import type { RuleFamily } from './family.js';

/**
 * `shieldPolicyRef` and `shieldZoneId`, the shield zone of an object that lives on one (a shield
 * rule, a ShieldAccessList): set exactly one ({@link ZONE_TARGET_RULE}); both immutable.
 */
export function zoneTargetProperties(what: string): Record<string, Schema> {
  return {
    shieldPolicyRef: {
      ...nameRefSchema(
        `The ShieldPolicy (same namespace) whose shield zone holds this ${what}. It waits (Ready=False ReferenceNotReady) until the policy reports status.shieldZoneId. Set exactly one of shieldPolicyRef and shieldZoneId. Immutable.`,
        'Name of the ShieldPolicy.',
      ),
      'x-kubernetes-validations': immutable('shieldPolicyRef'),
    },
    shieldZoneId: {
      // int64 as every id of the operator's (status.shieldZoneId too); the maximum is the
      // platform's own (the document's int32).
      type: 'integer',
      format: 'int64',
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
    properties: { ...zoneTargetProperties(family.what), ...properties },
    'x-kubernetes-validations': [ZONE_TARGET_RULE],
  };
}

/** The adoption id of a shield rule or list: the platform keeps them as 32-bit integers. */
export const SHIELD_ITEM_ID: Schema = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: 2147483647,
};

/** The schema of the shield rule kind `family`. */
export function ruleSchema(docs: DocumentBounds, family: RuleFamily): KindSchema {
  const { what, description } = family;
  return managedKindSchema({
    description,
    spec: ownSpec(docs, family),
    idSchema: SHIELD_ITEM_ID,
    idDescription: `Adopt the existing ${what} with this id (refused when another object manages it or when it lives on another shield zone). The operator never creates a rule when this is set. Immutable.`,
    what,
    nameField: 'spec.name (or metadata.name) on the shield zone',
    status: {
      description: `Observed state of the ${what}.`,
      conditions: `Ready (the ${what} matches the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the rule).`,
      properties: {
        ruleId: int64Schema(`Id of the managed ${what}.`),
        shieldZoneId: int64Schema('Id of the shield zone that holds it.'),
        name: stringSchema('Name of the rule on the platform.'),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the rule.', 'ruleId'),
      statusColumn('ZONE', 'integer', 'Shield zone.', 'shieldZoneId'),
    ],
  });
}
