/**
 * Field table options and codec members that ShieldAccessList brought to the kit
 * (kit/fields.ts, kit/codecs.ts), each beside the default it leaves unchanged:
 *
 * - `enumByIndex(names, first)`: names sent from `first` (0 = none reads as unset);
 * - `Codec.describe`: how a difference shows in a plan entry;
 * - `compare: false`: sent by the create, never compared, no immutability rule;
 * - `defaultOf` answering undefined: no default for this object, the member is not managed.
 */
import test from 'ava';
import { enumByIndex, text, type Codec } from '../../../../src/controllers/kit/codecs.js';
import {
  compareFields,
  createBody,
  field,
  schemaOf,
} from '../../../../src/controllers/kit/fields.js';
import type { DocumentBounds } from '../../../../src/controllers/shared/crd-schema.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';

const objectOf = (spec: Record<string, unknown>): ManagedObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name: 'meta-name', namespace: 'ns', uid: 'uid-a' },
  spec,
});

const NAMES = ['Allow', 'Block'] as const;

const WIRE: { first: number; name: (typeof NAMES)[number]; wire: number; why: string }[] = [
  { first: 0, name: 'Allow', wire: 0, why: 'default: the index' },
  { first: 0, name: 'Block', wire: 1, why: 'default: the index' },
  { first: 1, name: 'Allow', wire: 1, why: 'from 1: 0 is none' },
  { first: 1, name: 'Block', wire: 2, why: 'from 1' },
];
for (const c of WIRE) {
  test(`enumByIndex first ${c.first}: ${c.name} is ${c.wire} both ways (${c.why})`, (t) => {
    const codec = enumByIndex(NAMES, c.first);
    t.is(codec.toWire(c.name), c.wire);
    t.is(codec.fromWire(c.wire), c.name);
  });
}

test('enumByIndex from 1: 0 (none) and numbers outside the names read as unset', (t) => {
  const codec = enumByIndex(NAMES, 1);
  t.is(codec.fromWire(0), undefined);
  t.is(codec.fromWire(3), undefined);
  t.is(codec.fromWire('1'), undefined);
  t.deepEqual(codec.schema, { type: 'string', enum: ['Allow', 'Block'] }, 'the CRD names only');
});

const ACTION: Codec<(typeof NAMES)[number]> = {
  ...enumByIndex(NAMES, 1),
  describe: (live, want) => ({ live: live ?? 'None', desired: want }),
};

test('a codec describe shows the plan entry; without it both wire values are shown', (t) => {
  const described = [field('action', ACTION, { api: 'action', description: 'A.' })];
  const plain = [field('action', enumByIndex(NAMES, 1), { api: 'action', description: 'A.' })];
  const obj = objectOf({ action: 'Block' });
  const d = compareFields(described, obj, { action: 0 }, 'thing');
  t.deepEqual(d.diffs, [{ field: 'action', live: 'None', desired: 'Block' }]);
  t.deepEqual(d.update, { action: 2 }, 'the body is the wire value either way');
  const p = compareFields(plain, obj, { action: 0 }, 'thing');
  t.deepEqual(p.diffs, [{ field: 'action', live: '0', desired: '2' }]);
});

const DOCS = {} as DocumentBounds;

test('compare false: created with the member, never compared, no immutability rule', (t) => {
  const once = field('note', text(), {
    api: 'note',
    write: 'create',
    compare: false,
    description: 'N.',
  });
  const frozen = field('kind', text(), { api: 'kind', write: 'create', description: 'K.' });
  const obj = objectOf({ note: 'new', kind: 'a' });
  t.deepEqual(createBody([once, frozen], obj), { note: 'new', kind: 'a' });
  const d = compareFields([once, frozen], obj, { note: 'old', kind: 'a' }, 'thing');
  t.deepEqual(
    d,
    { diffs: [], update: {}, problems: [] },
    'a changed note is neither sent nor a problem',
  );
  const p = compareFields([frozen], objectOf({ kind: 'b' }), { kind: 'a' }, 'thing');
  t.is(p.problems.length, 1, 'a create-only member compared as before');
  const { properties } = schemaOf([once, frozen], DOCS);
  t.is(properties.note?.['x-kubernetes-validations'], undefined);
  t.truthy(properties.kind?.['x-kubernetes-validations'], 'write create alone stays immutable');
});

const NAME = field('name', text(), {
  api: 'name',
  defaultOf: (o: ManagedObject) => (o.spec?.id === undefined ? o.metadata.name : undefined),
  description: 'The name.',
});

test('defaultOf undefined: the member is not managed (not sent, not compared)', (t) => {
  const adopted = objectOf({ id: 7 });
  t.deepEqual(createBody([NAME], adopted), {});
  t.deepEqual(compareFields([NAME], adopted, { name: 'theirs' }, 'thing').diffs, []);
  const own = objectOf({});
  t.deepEqual(createBody([NAME], own), { name: 'meta-name' }, 'a default still applies');
  t.deepEqual(compareFields([NAME], own, { name: 'theirs' }, 'thing').update, {
    name: 'meta-name',
  });
});
