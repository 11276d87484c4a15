/**
 * The ShieldAccessList CRD schema: the shield zone (the shield rules'), adoption by id or name,
 * the field table's properties (fields.ts). The plan's limits are checked against the zone's
 * listing (limits.ts); entries by schema keywords only (entries.ts).
 */
import { schemaOf } from '../kit/fields.js';
import { type DocumentBounds, type KindSchema, type Schema } from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import { int64Schema, statusColumn, stringSchema } from '../shared/schema-nodes.js';
import {
  SHIELD_ITEM_ID,
  ZONE_TARGET_RULE,
  zoneTargetProperties,
} from '../shieldrule-common/crd.js';
import { ACCESS_LIST_FIELDS } from './fields.js';
import type { KindPart } from '../kit/kind-parts.js';

function ownSpec(docs: DocumentBounds, description: string): Schema {
  const { properties, required } = schemaOf(ACCESS_LIST_FIELDS, docs);
  return {
    type: 'object',
    description,
    required,
    properties: { ...zoneTargetProperties('access list'), ...properties },
    'x-kubernetes-validations': [ZONE_TARGET_RULE],
  };
}

/** The ShieldAccessList schema (shieldaccesslists). */
export function shieldAccessListSchema(docs: DocumentBounds): KindSchema {
  const description =
    "One custom access list of a shield zone (addresses, ranges, AS numbers, countries, organizations or TLS fingerprints) and what matching requests get, managed by cdn-operator. The zone's plan caps the number of lists and entries (customListLimit, customEntryLimit). Curated lists are set in the ShieldPolicy.";
  return managedKindSchema({
    description,
    spec: ownSpec(docs, description),
    idSchema: SHIELD_ITEM_ID,
    idDescription:
      'Adopt the existing custom access list with this id on the shield zone (refused when another object manages it; a list of another zone is not found). The operator never creates a list when this is set. Immutable.',
    what: 'custom access list',
    nameField: 'spec.name (or metadata.name) on the shield zone',
    status: {
      description: 'Observed state of the access list.',
      resource: 'access list',
      conditions:
        "Ready (the list and its configuration match the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the list or its entries).",
      properties: {
        listId: int64Schema('Id of the managed list.'),
        configurationId: int64Schema(
          "Id of the zone's configuration of the list (enabled, action).",
        ),
        shieldZoneId: int64Schema('Id of the shield zone that holds it.'),
        name: stringSchema('Name of the list on the platform.'),
        entryCount: int64Schema('Number of entries the platform counts in the list.'),
      },
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the list.', 'listId'),
      statusColumn('ZONE', 'integer', 'Shield zone.', 'shieldZoneId'),
      statusColumn('ENTRIES', 'integer', 'Entries in the list.', 'entryCount'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = shieldAccessListSchema;
