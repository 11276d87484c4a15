/**
 * The ShieldAccessList CRD schema: the shield zone (the shield rules'), adoption by id or name,
 * the field table's properties (fields.ts). The plan's limits are checked against the zone's
 * listing (limits.ts); entries by schema keywords only (entries.ts).
 */
import { accountFragment } from '../shared/account-schema.js';
import { schemaOf } from '../kit/fields.js';
import {
  managedColumns,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type PrinterColumn,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { ZONE_TARGET_RULE, zoneTargetProperties } from '../shieldrule-common/crd.js';
import { ACCESS_LIST_FIELDS } from './fields.js';

const int64 = (description: string): Schema => ({ type: 'integer', format: 'int64', description });

/** An integer column of a status member. */
function column(name: string, description: string, member: string): PrinterColumn {
  return { name, type: 'integer', description, jsonPath: `.status.${member}` };
}

function ownSpec(docs: DocumentBounds, description: string): Schema {
  const { properties, required } = schemaOf(ACCESS_LIST_FIELDS, docs);
  return {
    type: 'object',
    description,
    required,
    properties: { ...zoneTargetProperties(docs, 'access list'), ...properties },
    'x-kubernetes-validations': [
      ZONE_TARGET_RULE,
      {
        rule: '!(has(self.listId) && has(self.adoption))',
        message: 'set either listId (adopt by id) or adoption (adopt by name), not both',
      },
    ],
  };
}

/** The ShieldAccessList schema (shieldaccesslists). */
export function shieldAccessListSchema(docs: DocumentBounds): KindSchema {
  const description =
    "One custom access list of a shield zone (addresses, ranges, AS numbers, countries, organizations or TLS fingerprints) and what matching requests get, managed by cdn-operator. The zone's plan caps the number of lists and entries (customListLimit, customEntryLimit). Curated lists are set in the ShieldPolicy.";
  return {
    description,
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs, description), [
      accountFragment(),
      adoptionIdFragment(
        'listId',
        { type: 'integer', format: 'int64', minimum: 1, maximum: 2147483647 },
        'Adopt the existing custom access list with this id on the shield zone (refused when another object manages it; a list of another zone is not found). The operator never creates a list when this is set. Immutable.',
      ),
      adoptionFragment('custom access list', 'spec.name (or metadata.name) on the shield zone'),
    ]),
    status: managedStatusSchema({
      description: 'Observed state of the access list.',
      resource: 'access list',
      conditions:
        "Ready (the list and its configuration match the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the list or its entries).",
      properties: {
        listId: int64('Id of the managed list.'),
        configurationId: int64("Id of the zone's configuration of the list (enabled, action)."),
        shieldZoneId: int64('Id of the shield zone that holds it.'),
        name: { type: 'string', description: 'Name of the list on the platform.' },
        entryCount: int64('Number of entries the platform counts in the list.'),
      },
    }),
    columns: managedColumns(
      column('ID', 'Id of the list.', 'listId'),
      column('ZONE', 'Shield zone.', 'shieldZoneId'),
      column('ENTRIES', 'Entries in the list.', 'entryCount'),
    ),
  };
}
