/**
 * The kit's mechanisms for nested platform objects (kit/codecs.ts, kit/fields.ts, kit/nested.ts,
 * docs/kit.md), on a small table shaped like a shield rule: a top-level name, a nested `config`
 * object with an enum whose numbers skip, a map, a list of enums and a list of objects of a
 * table of their own; and the `precheck` hook of kit/crud-external.ts.
 */
import test from 'ava';
import { pino } from 'pino';
import {
  absentAs,
  blankAsAbsent,
  enumByNumber,
  flag,
  listOf,
  numberedNames,
  stringMap,
  tableList,
  text,
} from '../../../../src/controllers/kit/codecs.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import {
  compareFields,
  createBody,
  field,
  sameMembers,
  specOfRecord,
  wireOf,
} from '../../../../src/controllers/kit/fields.js';
import { nestedIn, wholeNested } from '../../../../src/controllers/kit/nested.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';

const OP = numberedNames(['EQ', 'WITHIN', 'RX'] as const, [5, 12, 14]);
const op = absentAs(enumByNumber(OP), 5);

const ITEM = [
  field('op', op, { api: 'opType', description: 'Operator.' }),
  field('negated', blankAsAbsent(flag(), false), {
    api: 'isNegated',
    unset: false,
    description: 'Negated.',
  }),
] as const;

const FIELDS = [
  field('name', text(), {
    api: 'name',
    description: 'Name.',
    defaultOf: (o) => (o.spec?.id === undefined ? o.metadata.name : undefined),
  }),
  ...nestedIn('config', [
    field('op', op, { api: 'opType', description: 'Operator.' }),
    field('vars', stringMap(), { api: 'vars', description: 'Variables.' }),
    field('steps', listOf(enumByNumber(numberedNames(['A', 'B'] as const, 1))), {
      api: 'steps',
      description: 'Steps.',
    }),
    field('more', tableList(ITEM), { api: 'more', description: 'More.' }),
    field('note', blankAsAbsent(text(), ''), { api: 'note', unset: '', description: 'Note.' }),
  ] as const),
] as const;

const objectOf = (spec: Record<string, unknown>): ManagedObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name: 'meta', namespace: 'ns' },
  spec,
});

/** A record as a platform that binds left-out members as 0 or null stores it. */
const record = (config: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 1,
  name: 'meta',
  config: { opType: 5, vars: { a: '' }, steps: null, more: null, note: null, ...config },
});

test('numberedNames: numbers given or counted from the first', (t) => {
  t.deepEqual(OP.numbers, [5, 12, 14]);
  t.deepEqual(numberedNames(['x', 'y'], 1).numbers, [1, 2], 'counted from 1');
});

for (const [why, wire, read] of [
  ['a number that skips reads as its name', 12, 'WITHIN'],
  ['a number the table lacks is not understood', 13, undefined],
  ['a left-out member is the platform 0 (here EQ, 5)', undefined, 'EQ'],
  ['a null member is the platform 0 too', null, 'EQ'],
] as const) {
  test(`enumByNumber + absentAs: ${why}`, (t) => {
    t.is(op.fromWire(wire), read);
  });
}

test('enumByNumber: sent as its number and shown by its name in a plan', (t) => {
  t.is(op.toWire('RX'), 14);
  t.is(op.render?.(12), 'WITHIN');
  t.is(op.render?.(13), '13', 'an unknown number is shown as it is');
});

test('listOf: null reads as []; an item not understood spoils the list; order counts', (t) => {
  const steps = listOf(enumByNumber(numberedNames(['A', 'B'] as const, 1)));
  t.deepEqual(steps.fromWire(null), []);
  t.deepEqual(steps.fromWire([2, 1]), ['B', 'A']);
  t.is(steps.fromWire([1, 9]), undefined);
  t.false(steps.same!(['A', 'B'], ['B', 'A']));
  t.is(steps.render?.([2, 1]), '["B","A"]');
});

test('stringMap: key order ignored, non-strings dropped, null reads as {}', (t) => {
  const m = stringMap();
  t.true(m.same!({ a: '1', b: '2' }, { b: '2', a: '1' }));
  t.false(m.same!({ a: '1' }, { a: '2' }));
  t.deepEqual(m.fromWire({ a: 'x', n: 1 }), { a: 'x' });
  t.deepEqual(m.fromWire(null), {});
});

test('blankAsAbsent: the platform blank reads as absent', (t) => {
  const note = blankAsAbsent(text(), '');
  t.is(note.fromWire(''), undefined);
  t.is(note.fromWire('x'), 'x');
});

test('tableList: items sent and read member by member, a missing member equal to its unset', (t) => {
  const more = tableList(ITEM);
  t.deepEqual(more.toWire([{ op: 'RX', negated: true }]), [{ opType: 14, isNegated: true }]);
  t.deepEqual(more.fromWire([{ opType: 12, isNegated: null }]), [{ op: 'WITHIN' }]);
  t.true(more.same!([{ op: 'RX' }], [{ op: 'RX', negated: false }]), 'false is the unset');
  t.false(more.same!([{ op: 'RX' }], [{ op: 'RX', negated: true }]));
  t.false(more.same!([{ op: 'RX' }], []), 'length counts');
  t.deepEqual(more.fromWire(null), []);
});

test('sameMembers and wireOf: the table members only, at their api names', (t) => {
  t.true(sameMembers(ITEM, { op: 'EQ' }, { op: 'EQ', negated: false, extra: 1 }));
  t.deepEqual(wireOf(ITEM, { op: 'EQ', negated: undefined }), { opType: 5 });
});

test('nestedIn: the create body nests members; defaultOf undefined leaves a member out', (t) => {
  t.deepEqual(createBody(FIELDS, objectOf({ op: 'RX', vars: { a: '' } })), {
    name: 'meta',
    config: { opType: 14, vars: { a: '' } },
  });
  t.deepEqual(
    createBody(FIELDS, objectOf({ id: 7, op: 'RX' })),
    { config: { opType: 14 } },
    'no name for an object adopted by id',
  );
});

test('dotted members are read from the nested record; blanks and nulls are in sync', (t) => {
  const spec = { op: 'EQ', vars: { a: '' }, steps: [], more: [], note: '' };
  const diff = compareFields(FIELDS, objectOf(spec), record(), 'thing');
  t.deepEqual(diff.diffs, []);
  t.deepEqual(specOfRecord(FIELDS, record({ opType: 12 })), {
    name: 'meta',
    op: 'WITHIN',
    vars: { a: '' },
  });
});

test('wholeNested: one differing member sends the nested object whole, spec over live', (t) => {
  const spec = { op: 'RX' };
  const live = record({ vars: { b: '' }, steps: [2], note: null });
  const base = compareFields(FIELDS, objectOf(spec), live, 'thing');
  t.deepEqual(
    base.diffs.map((d) => [d.field, d.live, d.desired]),
    [['config.opType', 'EQ', 'RX']],
    'shown by name',
  );
  const whole = wholeNested(FIELDS, 'config', spec, live, base);
  t.deepEqual(whole.update, {
    config: { opType: 14, vars: { b: '' }, steps: [2] },
  });
});

test('wholeNested: nothing differing in the nested object: the update is left as it is', (t) => {
  const spec = { name: 'other' };
  const base = compareFields(FIELDS, objectOf(spec), record(), 'thing');
  t.deepEqual(wholeNested(FIELDS, 'config', spec, record(), base).update, { name: 'other' });
});

test('precheck: refuses the object before anything is read', async (t) => {
  const reads: string[] = [];
  const ext = new CrudExternal<ManagedObject, { id: number; name: string }>({
    idField: 'thingId',
    fields: [],
    account: 'unit',
    identity: {
      what: 'thing',
      claimType: 'Thing',
      names: 'unique',
      nameOf: () => 'a',
      read: (id) => (reads.push(id), Promise.resolve(undefined)),
      search: () => (reads.push('search'), Promise.resolve([])),
      idOf: (r) => String(r.id),
      recordNameOf: (r) => r.name,
    },
    api: {
      create: () => Promise.reject(new Error('no create')),
      update: () => Promise.resolve(),
      remove: () => Promise.resolve(),
    },
    hooks: { precheck: () => Promise.reject(new Error('cannot use it: refused')) },
  });
  const ctx = {
    externalId: '1',
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
  await t.throwsAsync(ext.observe(objectOf({}), ctx), { message: /refused/ });
  t.deepEqual(reads, [], 'nothing read');
});
