/**
 * The ShieldAccessList CRD schema: the shield zone (shared with the shield rules), adoption by
 * id or name, the list's name, description, type and entries, and its configuration (enabled,
 * action). Enum names come from the official Shield document (`AccessListType`,
 * `AccessListAction`); lengths and the entry count bound are the operator's own (the document
 * gives none; the plan's own limits are checked against the zone's listing).
 *
 * Entries are checked by schema keywords only (no CEL on list items, docs/scaling.md): no
 * surrounding space and no line break (the platform takes the list as newline-separated text, so
 * a line break would smuggle in another entry), no repeats (a set). The per-type shape (address,
 * range, AS number, country code, fingerprint) is checked exactly by the operator before
 * anything is sent (entries.ts).
 */
import { accountFragment } from '../shared/account-schema.js';
import {
  immutable,
  managedColumns,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { ZONE_TARGET_RULE, zoneTargetProperties } from '../shieldrule-common/crd.js';

/** The most entries one object may hold (the plan's customEntryLimit applies on top). */
export const MAX_ENTRIES = 10000;

function ownProperties(docs: DocumentBounds): Record<string, Schema> {
  const actions = docs.enumNames('shield', 'AccessListAction').filter((n) => n !== 'None');
  return {
    ...zoneTargetProperties(docs, 'access list'),
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '.*\\S.*',
      description:
        'Name of the custom list on the platform (default metadata.name). With spec.adoption the existing list of this exact name (case-sensitive) is adopted. A list adopted by spec.listId keeps its own name unless this is set.',
    },
    description: {
      type: 'string',
      maxLength: 1024,
      description:
        'Description of the list, set when the operator creates it (the platform has no way to change it afterwards, so a later change is not applied).',
    },
    type: {
      type: 'string',
      enum: docs.enumNames('shield', 'AccessListType'),
      description:
        'What the entries are: IP (addresses), CIDR (address ranges), ASN (AS numbers, e.g. AS13335), Country (two-letter codes), Organization (network owner names) or JA4 (TLS fingerprints). Immutable: the platform cannot change a list type.',
      'x-kubernetes-validations': immutable('type'),
    },
    entries: {
      type: 'array',
      maxItems: MAX_ENTRIES,
      'x-kubernetes-list-type': 'set',
      description: `The entries of the list, each checked against spec.type before anything is sent; compared with the live list as a set (order and repeats do not matter). At most ${MAX_ENTRIES}; the zone's plan caps the entries of all its custom lists (customEntryLimit). [] empties the list.`,
      items: { type: 'string', minLength: 1, maxLength: 256, pattern: '^\\S(?:[^\\r\\n]*\\S)?$' },
    },
    enabled: {
      type: 'boolean',
      default: true,
      description: 'Whether the list applies to requests (default true).',
    },
    action: {
      type: 'string',
      enum: actions,
      description:
        'What a request matching an entry gets: Allow, Block, Challenge, Log or Bypass (skip the other shield checks). Unset: not managed (a new list has no action).',
    },
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
    spec: withFragments(
      {
        type: 'object',
        description,
        required: ['type', 'entries'],
        properties: ownProperties(docs),
        'x-kubernetes-validations': [
          ZONE_TARGET_RULE,
          {
            rule: '!(has(self.listId) && has(self.adoption))',
            message: 'set either listId (adopt by id) or adoption (adopt by name), not both',
          },
        ],
      },
      [
        accountFragment(),
        adoptionIdFragment(
          'listId',
          { type: 'integer', format: 'int64', minimum: 1, maximum: 2147483647 },
          'Adopt the existing custom access list with this id on the shield zone (refused when another object manages it; a list of another zone is not found). The operator never creates a list when this is set. Immutable.',
        ),
        adoptionFragment('custom access list', 'spec.name (or metadata.name) on the shield zone'),
      ],
    ),
    status: managedStatusSchema({
      description: 'Observed state of the access list.',
      resource: 'access list',
      conditions:
        "Ready (the list and its configuration match the spec) and Synced (the last reconcile succeeded; PlanNotSufficient while the zone's plan does not allow the list or its entries).",
      properties: {
        listId: { type: 'integer', format: 'int64', description: 'Id of the managed list.' },
        configurationId: {
          type: 'integer',
          format: 'int64',
          description: "Id of the zone's configuration of the list (enabled, action).",
        },
        shieldZoneId: {
          type: 'integer',
          format: 'int64',
          description: 'Id of the shield zone that holds it.',
        },
        name: { type: 'string', description: 'Name of the list on the platform.' },
        entryCount: {
          type: 'integer',
          format: 'int64',
          description: 'Number of entries the platform counts in the list.',
        },
      },
    }),
    columns: managedColumns(
      { name: 'ID', type: 'integer', description: 'Id of the list.', jsonPath: '.status.listId' },
      {
        name: 'ZONE',
        type: 'integer',
        description: 'Shield zone.',
        jsonPath: '.status.shieldZoneId',
      },
      {
        name: 'ENTRIES',
        type: 'integer',
        description: 'Entries in the list.',
        jsonPath: '.status.entryCount',
      },
    ),
  };
}
