/**
 * The ShieldAccessList field table (pure, through the kit's createBody / compareFields /
 * specOfRecord): the enum names against the official document; the create body (name from
 * metadata, no configuration: a new list is configured by the update); the two minimal update
 * parts (the list's name/content; `configuration`: isEnabled/action) with nothing sent when in
 * sync, only reordered, or only the description differs; the plan lines (names, entry counts);
 * and the spec an export writes, which compares clean.
 */
import test from 'ava';
import type { AccessListDetails, CustomAccessList } from '../../../../src/cdn/security-types.js';
import { compareFields, createBody, specOfRecord } from '../../../../src/controllers/kit/fields.js';
import type { Codec } from '../../../../src/controllers/kit/codecs.js';
import { ACCESS_LIST_FIELDS } from '../../../../src/controllers/shieldaccesslist/fields.js';
import type {
  ShieldAccessList,
  ShieldAccessListSpec,
} from '../../../../src/controllers/shieldaccesslist/types.js';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';

const doc = loadOpenApiDocument('shield') as unknown as {
  components: { schemas: Record<string, { enum: number[]; 'x-enum-varnames': string[] }> };
};

const ENUMS: [title: string, field: string, unsettable: string[]][] = [
  ['AccessListType', 'type', []],
  ['AccessListAction', 'action', ['None']],
];
for (const [title, spec, unsettable] of ENUMS) {
  test(`${title}: the ${spec} codec's names and numbers are the document's`, (t) => {
    const schema = doc.components.schemas[title];
    const codec = ACCESS_LIST_FIELDS.find((f) => f.spec === spec)?.codec as Codec<string>;
    if (!schema) return t.fail(`${title} missing from the document`);
    const names = schema['x-enum-varnames'];
    t.deepEqual(
      codec.schema.enum,
      names.filter((n) => !unsettable.includes(n)),
    );
    names.forEach((name, i) => {
      const number = schema.enum[i];
      if (unsettable.includes(name)) return void t.is(codec.fromWire(number), undefined, name);
      t.is(codec.toWire(name), number, name);
      t.is(codec.fromWire(number), name, name);
    });
  });
}

const SPEC: ShieldAccessListSpec = {
  shieldZoneId: 7,
  type: 'CIDR',
  entries: ['192.0.2.0/24', '198.51.100.0/24'],
  action: 'Block',
};

function object(spec: Partial<ShieldAccessListSpec>): ShieldAccessList {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldAccessList',
    metadata: { name: 'meta', namespace: 'ns', uid: 'u' },
    spec: { ...SPEC, ...spec },
  };
}

test('createBody: name from metadata, type number, entries one per line; no configuration', (t) => {
  t.deepEqual(createBody(ACCESS_LIST_FIELDS, object({ description: 'd' })), {
    name: 'meta',
    description: 'd',
    type: 1,
    content: '192.0.2.0/24\n198.51.100.0/24',
  });
});

const LIST: CustomAccessList = {
  id: 3,
  name: 'meta',
  type: 1,
  content: '192.0.2.0/24\n198.51.100.0/24',
  entryCount: 2,
};
const DETAILS: AccessListDetails = {
  listId: 3,
  configurationId: 9,
  name: 'meta',
  isEnabled: true,
  type: 1,
  action: 2,
  entryCount: 2,
  lastUpdated: '2026-01-01T00:00:00Z',
};

const DIFFS: {
  why: string;
  spec?: Partial<ShieldAccessListSpec>;
  list?: Partial<CustomAccessList>;
  details?: Partial<AccessListDetails>;
  update: { configuration?: object; [member: string]: unknown };
}[] = [
  { why: 'in sync: nothing sent', update: {} },
  {
    why: 'entries reordered and repeated on the platform: the same set, nothing sent',
    list: { content: '198.51.100.0/24\n\n192.0.2.0/24\n192.0.2.0/24\n' },
    update: {},
  },
  {
    why: 'an entry more in the spec: the content only, in spec order',
    spec: { entries: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'] },
    update: { content: '192.0.2.0/24\n198.51.100.0/24\n203.0.113.0/24' },
  },
  {
    why: 'repeats and spaces in the spec are not sent',
    spec: { entries: [' 192.0.2.0/24', '192.0.2.0/24', '203.0.113.0/24'] },
    update: { content: '192.0.2.0/24\n203.0.113.0/24' },
  },
  { why: '[] empties the list', spec: { entries: [] }, update: { content: '' } },
  {
    why: 'renamed on the platform: the name only',
    list: { name: 'other' },
    update: { name: 'meta' },
  },
  {
    why: 'adopted by id without spec.name: a live name is kept',
    spec: { adoption: { policy: 'ById', id: 3 } },
    list: { name: 'other' },
    update: {},
  },
  {
    why: 'disabled on the platform: isEnabled only (default true)',
    details: { isEnabled: false },
    update: { configuration: { isEnabled: true } },
  },
  {
    why: 'another action wanted: action only',
    spec: { action: 'Challenge' },
    update: { configuration: { action: 3 } },
  },
  {
    why: 'no action on the platform (None): the action is sent',
    details: { action: 0 },
    update: { configuration: { action: 2 } },
  },
  {
    why: 'action not managed: a live action is kept',
    spec: { action: undefined },
    details: { action: 4 },
    update: {},
  },
  {
    why: 'a description difference is not sent (the platform cannot change it)',
    spec: { description: 'new' },
    list: { description: 'old' },
    update: {},
  },
  {
    why: 'everything differs: both parts, each with only its members',
    spec: { name: 'n2', entries: ['192.0.2.0/24'], enabled: false, action: 'Log' },
    update: { name: 'n2', content: '192.0.2.0/24', configuration: { isEnabled: false, action: 4 } },
  },
];
for (const c of DIFFS) {
  test(`compareFields: ${c.why}`, (t) => {
    const record = { ...DETAILS, ...c.details, ...LIST, ...c.list };
    const d = compareFields(ACCESS_LIST_FIELDS, object(c.spec ?? {}), record, 'access list');
    t.deepEqual(d.update, c.update);
    t.deepEqual(d.problems, []);
    const { configuration = {}, ...list } = c.update;
    t.is(d.diffs.length, Object.keys(list).length + Object.keys(configuration).length);
  });
}

test('compareFields: plan lines name the actions and count the entries', (t) => {
  const spec = { entries: ['192.0.2.0/24', '203.0.113.0/24'], action: 'Block' as const };
  const record = { ...DETAILS, action: 0, ...LIST };
  const d = compareFields(ACCESS_LIST_FIELDS, object(spec), record, 'access list');
  t.deepEqual(d.diffs, [
    {
      field: 'content',
      live: '2 entries',
      desired: '2 entries: +1 (203.0.113.0/24) -1 (198.51.100.0/24)',
    },
    { field: 'action', live: 'None', desired: 'Block' },
  ]);
});

test('specOfRecord: the spec an export writes, which compares clean with the live list', (t) => {
  const list = { ...LIST, description: 'made outside', content: '192.0.2.0/24\n192.0.2.0/24\n' };
  const record = { ...DETAILS, action: 3, isEnabled: false, ...list };
  const spec = specOfRecord(ACCESS_LIST_FIELDS, record);
  t.deepEqual(spec, {
    name: 'meta',
    description: 'made outside',
    type: 'CIDR',
    entries: ['192.0.2.0/24'],
    enabled: false,
    action: 'Challenge',
  });
  const d = compareFields(
    ACCESS_LIST_FIELDS,
    object({ ...spec, adoption: { policy: 'ById', id: 3 } }),
    record,
    'list',
  );
  t.deepEqual(d.diffs, []);
});

test('specOfRecord: action None and an empty description are left out', (t) => {
  const spec = specOfRecord(ACCESS_LIST_FIELDS, {
    ...DETAILS,
    action: 0,
    ...LIST,
    description: '',
  });
  t.false('action' in spec);
  t.false('description' in spec);
});
