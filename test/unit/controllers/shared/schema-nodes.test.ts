/**
 * The shared CRD schema builders (schema-nodes.ts, managed-spec.ts): the
 * generated CRDs depend on their exact keys and key order, so each case pins the whole node.
 */
import test from 'ava';
import type { KindSchema } from '../../../../src/controllers/shared/crd-schema.js';
import { managedKindSchema, managedSpec } from '../../../../src/controllers/shared/managed-spec.js';
import {
  boundedStringSchema,
  listSchema,
  objectSchema,
  statusColumn,
} from '../../../../src/controllers/shared/schema-nodes.js';

const ITEM = { type: 'string' };

const NODES: { reason: string; node: unknown; want: unknown }[] = [
  {
    reason: 'a plain list has no bounds and is atomic (ordered, replaced whole)',
    node: listSchema('Names.', ITEM),
    want: { type: 'array', description: 'Names.', 'x-kubernetes-list-type': 'atomic', items: ITEM },
  },
  {
    reason: 'a keyed list is a map list on that key, its bound before the list type',
    node: listSchema('Entries.', ITEM, { maxItems: 20, key: 'name' }),
    want: {
      type: 'array',
      description: 'Entries.',
      maxItems: 20,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: ITEM,
    },
  },
  {
    reason: 'an object without options has only its properties',
    node: objectSchema({ a: ITEM }),
    want: { type: 'object', properties: { a: ITEM } },
  },
  {
    reason: 'description comes before required, both before the properties',
    node: objectSchema({ a: ITEM }, { required: ['a'], description: 'One.' }),
    want: { type: 'object', description: 'One.', required: ['a'], properties: { a: ITEM } },
  },
  {
    reason: 'a bounded string is non-empty',
    node: boundedStringSchema('Name.', 255),
    want: { type: 'string', minLength: 1, maxLength: 255, description: 'Name.' },
  },
  {
    reason: 'a status column reads status.<member>',
    node: statusColumn('ID', 'integer', 'Id.', 'zoneId'),
    want: { name: 'ID', type: 'integer', description: 'Id.', jsonPath: '.status.zoneId' },
  },
];

for (const c of NODES) {
  test(`schema node: ${c.reason}`, (t) => {
    t.deepEqual(c.node, c.want);
  });
}

const OWN = { type: 'object', properties: { region: ITEM } };

type Props = Record<string, Record<string, unknown>>;

/** `spec.adoption.properties` of a managed spec. */
function adoptionOf(spec: { properties?: unknown }): Props {
  return ((spec.properties as Props).adoption?.properties ?? {}) as Props;
}

test('managedSpec: account first, then adoption (its id immutable, a positive int64 by default), the own fields', (t) => {
  const spec = managedSpec(OWN, {
    idDescription: 'Adopt by id.',
    what: 'zone',
    nameField: 'spec.name',
  });
  const properties = spec.properties as Props;
  const names = Object.keys(properties);
  t.deepEqual(names.slice(-4), ['adoption', 'deletionPolicy', 'managementPolicy', 'region']);
  t.true(names.indexOf('credentialsRef') < names.indexOf('adoption'), 'account fields come first');
  const adoption = adoptionOf(spec);
  t.deepEqual(adoption.policy?.enum, ['ById', 'ByName']);
  t.like(adoption.id, {
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'Adopt by id.',
  });
  t.deepEqual(adoption.id?.['x-kubernetes-validations'], [
    { rule: 'self == oldSelf', message: 'adoption.id is immutable' },
  ]);
  t.deepEqual(properties.adoption?.['x-kubernetes-validations'], [
    {
      rule: "self.policy != 'ById' || has(self.id)",
      message: 'adoption.id is required with policy ById',
    },
    {
      rule: "self.policy == 'ById' || !has(self.id)",
      message: 'adoption.id is set only with policy ById',
    },
  ]);
});

test('managedSpec: a kind-specific id schema replaces the default', (t) => {
  const spec = managedSpec(OWN, {
    idSchema: { type: 'string', minLength: 1 },
    idDescription: 'Adopt by id.',
    what: 'application',
    nameField: 'spec.name',
  });
  const id = adoptionOf(spec).id;
  t.is(id?.type, 'string');
  t.false('format' in (id ?? {}), 'nothing of the default int64 schema is left');
});

const KIND = {
  description: 'A zone.',
  spec: OWN,
  idDescription: 'Adopt by id.',
  what: 'storage zone',
  nameField: 'spec.name',
  status: { description: 'Observed.', conditions: 'Ready.', properties: {} },
  columns: [statusColumn('ID', 'integer', 'Id.', 'zoneId')],
};

/** The description of `status.lastSyncTime`, which names the status's resource. */
function lastSyncOf(schema: KindSchema): unknown {
  const properties = schema.status.properties as Record<string, Record<string, unknown>>;
  return properties.lastSyncTime?.description;
}

test('managedKindSchema: spec required, in the cdn category, managed columns around the own ones', (t) => {
  const schema = managedKindSchema(KIND);
  t.true(schema.requireSpec);
  t.deepEqual(schema.categories, ['cdn']);
  t.deepEqual(
    schema.columns.map((c) => c.name),
    ['READY', 'SYNCED', 'ID', 'AGE'],
  );
});

const RESOURCES = [
  { reason: 'the status names the adopted resource by default', status: {}, want: 'storage zone' },
  { reason: 'a status resource of its own wins', status: { resource: 'zone' }, want: 'zone' },
];

for (const c of RESOURCES) {
  test(`managedKindSchema: ${c.reason}`, (t) => {
    const schema = managedKindSchema({ ...KIND, status: { ...KIND.status, ...c.status } });
    t.is(lastSyncOf(schema), `When the operator last compared the ${c.want} with the spec.`);
  });
}
