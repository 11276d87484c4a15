/**
 * The ShieldAccessList's fields, written once (kit/fields.ts). An update body holds the list's
 * members (`name`, `content`) and the zone's configuration of it (`configuration.*`: two calls).
 * Enum names are the Shield document's (a unit test compares them); lengths and the entry bound
 * are the operator's own (the document gives none).
 */
import { enumByIndex, flag, text, type Codec } from '../kit/codecs.js';
import { field } from '../kit/fields.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { ENTRIES, MAX_ENTRIES } from './entries.js';

/** `AccessListType` names in the order of the platform's numbers. */
export const ACCESS_LIST_TYPES = ['IP', 'CIDR', 'ASN', 'Country', 'Organization', 'JA4'] as const;
/** `AccessListAction` names from 1 (0, None, a new list's, is no settable action). */
export const ACCESS_LIST_ACTIONS = ['Allow', 'Block', 'Challenge', 'Log', 'Bypass'] as const;

/** A type by name. */
export const TYPE = enumByIndex(ACCESS_LIST_TYPES);

/** An action by name; none shows as None in a plan. */
const ACTION: Codec<(typeof ACCESS_LIST_ACTIONS)[number]> = {
  ...enumByIndex(ACCESS_LIST_ACTIONS, 1),
  describe: (live, want) => ({ live: live ?? 'None', desired: want }),
};

/** A description: an empty one is none. */
const DESCRIPTION: Codec<string> = {
  ...text({ maxLength: 1024 }),
  fromWire: (w) => (typeof w === 'string' && w !== '' ? w : undefined),
};

export const ACCESS_LIST_FIELDS = [
  field('name', text({ minLength: 1, maxLength: 255, pattern: '.*\\S.*' }), {
    api: 'name',
    status: 'name',
    // A list adopted by id keeps its own name unless spec.name is set.
    defaultOf: (obj) => (adoptionIdOf(obj.spec) === undefined ? obj.metadata.name : undefined),
    description:
      'Name of the custom list on the platform (default metadata.name). With spec.adoption the existing list of this exact name (case-sensitive) is adopted. A list adopted by id (spec.adoption.id) keeps its own name unless this is set.',
  }),
  field('description', DESCRIPTION, {
    api: 'description',
    write: 'create',
    compare: false,
    description:
      'Description of the list, set when the operator creates it (the platform has no way to change it afterwards, so a later change is not applied).',
  }),
  field('type', TYPE, {
    api: 'type',
    write: 'create',
    required: true,
    description:
      'What the entries are: IP (addresses), CIDR (address ranges), ASN (AS numbers, e.g. AS13335), Country (two-letter codes), Organization (network owner names) or JA4 (TLS fingerprints). Immutable: the platform cannot change a list type.',
  }),
  field('entries', ENTRIES, {
    api: 'content',
    required: true,
    schema: { maxItems: MAX_ENTRIES },
    description: `The entries of the list, each checked against spec.type before anything is sent; compared with the live list as a set (order and repeats do not matter). At most ${MAX_ENTRIES}; the zone's plan caps the entries of all its custom lists (customEntryLimit). [] empties the list.`,
  }),
  field('enabled', flag(), {
    api: 'isEnabled',
    updateApi: 'configuration.isEnabled',
    write: 'update',
    defaultOf: () => true,
    schema: { default: true },
    description: 'Whether the list applies to requests (default true).',
  }),
  field('action', ACTION, {
    api: 'action',
    updateApi: 'configuration.action',
    write: 'update',
    description:
      'What a request matching an entry gets: Allow, Block, Challenge, Log or Bypass (skip the other shield checks). Unset: not managed (a new list has no action).',
  }),
] as const;
