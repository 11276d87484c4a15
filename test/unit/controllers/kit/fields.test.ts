/**
 * What field tables say beyond a flat list of members (kit/fields.ts, kit/codecs.ts), added for
 * the DNS kinds and general to every kind:
 *
 * - `appliesTo`: a member that applies only while another spec field has some values is not
 *   sent, compared or exported elsewhere, and `inapplicable` lists a spec that sets it there;
 * - dotted names nest in the CRD (under a `group()` field's object), the body and the export;
 * - `immutableRules` replace `self == oldSelf`; a `counted` list shows its count in plans;
 * - `specOfRecord(..., {omitUnset})` leaves out what a new resource reads back;
 * - `fieldOf` finds a member of a table; `decimal` and `objectList` codecs.
 */
import test from 'ava';
import {
  counted,
  decimal,
  enumByIndex,
  flag,
  group,
  objectList,
  text,
} from '../../../../src/controllers/kit/codecs.js';
import {
  compareFields,
  createBody,
  field,
  fieldOf,
  inapplicable,
  schemaOf,
  specOfRecord,
  type SpecOf,
} from '../../../../src/controllers/kit/fields.js';
import type { DocumentBounds } from '../../../../src/controllers/shared/crd-schema.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';

const DOCS = {} as DocumentBounds;

const FIELDS = [
  field('kind', enumByIndex(['A', 'B'] as const), {
    api: 'Kind',
    write: 'create',
    required: true,
    immutableRules: [{ rule: 'self.lowerAscii() == oldSelf.lowerAscii()', message: 'fixed' }],
    description: 'What it is.',
  }),
  field('weight', decimal({ minimum: 0 }), {
    api: 'Weight',
    appliesTo: { field: 'kind', values: ['A'] },
    unset: 0,
    description: 'A only.',
  }),
  field('logging', group(), { description: 'Logging.' }),
  field('logging.enabled', flag(), {
    api: 'LoggingEnabled',
    required: true,
    unset: false,
    description: 'On.',
  }),
  field('logging.target', text(), {
    api: 'LoggingTarget',
    appliesTo: { field: 'logging.enabled', values: [true] },
    description: 'Where, while on.',
  }),
  field(
    'vars',
    counted(objectList({ name: 'Name', value: 'Value' }, { required: ['name'] }), 'variables'),
    {
      api: 'Vars',
      description: 'Variables.',
    },
  ),
] as const;

type Spec = SpecOf<typeof FIELDS>;

function objectOf(spec: Spec): ManagedObject {
  return { apiVersion: 'x/v1', kind: 'Thing', metadata: { name: 't', namespace: 'n' }, spec };
}

test('dotted names nest under the group; required names land in their own object', (t) => {
  const { properties, required } = schemaOf(FIELDS, DOCS);
  t.deepEqual(required, ['kind'], 'a nested required member is not required at the top');
  const logging = properties.logging as {
    description: string;
    properties: Record<string, unknown>;
    required: string[];
  };
  t.is(logging.description, 'Logging.', 'the group describes the object');
  t.deepEqual(Object.keys(logging.properties), ['enabled', 'target']);
  t.deepEqual(logging.required, ['enabled']);
  t.deepEqual(properties.kind?.['x-kubernetes-validations'], [
    { rule: 'self.lowerAscii() == oldSelf.lowerAscii()', message: 'fixed' },
  ]);
  t.is(properties.weight?.type, 'number', 'decimal is a number, not an integer');
});

const applyCases: { why: string; spec: Spec; body: Record<string, unknown>; off: string[] }[] = [
  {
    why: 'a member that applies is sent, the nested one in its object',
    spec: { kind: 'A', weight: 1.5, logging: { enabled: true, target: 'x' } },
    body: { Kind: 0, Weight: 1.5, LoggingEnabled: true, LoggingTarget: 'x' },
    off: [],
  },
  {
    why: 'a member set where it does not apply is neither sent nor kept quiet',
    spec: { kind: 'B', weight: 2, logging: { enabled: false, target: 'x' } },
    body: { Kind: 1, LoggingEnabled: false },
    off: ['weight', 'logging.target'],
  },
];
for (const c of applyCases) {
  test(`appliesTo: ${c.why}`, (t) => {
    const obj = objectOf(c.spec);
    t.deepEqual(createBody(FIELDS, obj), c.body);
    t.deepEqual(
      inapplicable(FIELDS, obj).map((f) => f.spec),
      c.off,
    );
  });
}

test('appliesTo: a member that does not apply is not compared', (t) => {
  const obj = objectOf({ kind: 'B', weight: 2, logging: { enabled: false, target: 'x' } });
  const live = { Kind: 1, Weight: 9, LoggingEnabled: false, LoggingTarget: 'y' };
  t.deepEqual(compareFields(FIELDS, obj, live, 'thing').diffs, []);
});

test('counted: a plan shows a list by its count (secrets in a list never shown)', (t) => {
  const obj = objectOf({ kind: 'A', vars: [{ name: 'K', value: 'secret' }] });
  const diff = compareFields(FIELDS, obj, { Kind: 0, Vars: [] }, 'thing');
  t.deepEqual(diff.diffs, [{ field: 'Vars', live: '0 variables', desired: '1 variables' }]);
  t.deepEqual(diff.update, { Vars: [{ Name: 'K', Value: 'secret' }] }, 'wire member names');
});

test('specOfRecord: nested members, applying members only, omitUnset', (t) => {
  const record = {
    Kind: 1,
    Weight: 0,
    LoggingEnabled: false,
    LoggingTarget: 'y',
    Vars: [{ Name: 'K', Value: 'v' }],
  };
  t.deepEqual(
    specOfRecord(FIELDS, record),
    { kind: 'B', logging: { enabled: false }, vars: [{ name: 'K', value: 'v' }] },
    'weight (A only) and the target (logging off) do not apply to what the record is',
  );
  t.deepEqual(
    specOfRecord(FIELDS, { Kind: 0, Weight: 0, LoggingEnabled: true }, { omitUnset: true }),
    { kind: 'A', logging: { enabled: true } },
    'a weight of 0 is what a new resource reads: left out',
  );
});

test('fieldOf finds a member by spec name, and refuses one not in the table', (t) => {
  t.is(fieldOf(FIELDS, 'logging.target').api, 'LoggingTarget');
  t.throws(() => fieldOf(FIELDS, 'nothing' as 'kind'), { message: /cannot find field nothing/ });
});

test('decimal reads finite numbers only; objectList maps members both ways', (t) => {
  const d = decimal();
  t.is(d.fromWire(1.25), 1.25);
  t.is(d.fromWire('1.25'), undefined, 'a string is not a number');
  t.is(d.fromWire(Number.NaN), undefined);
  const list = objectList({ name: 'Name' }, {});
  t.deepEqual(list.fromWire([{ Name: 'a' }, {}]), [{ name: 'a' }, { name: '' }]);
  t.is(list.fromWire('x'), undefined);
  t.true(list.same!([{ name: 'a' }], [{ name: 'a' }]));
  t.false(list.same!([{ name: 'a' }, { name: 'b' }], [{ name: 'b' }, { name: 'a' }]), 'in order');
});
