/**
 * ShieldAccessList mapping and diff (pure): the enum tables against the official document, the
 * desired state of a spec (defaults, adoption by id), the two minimal PATCH bodies (list:
 * name/content; configuration: isEnabled/action) with nothing sent when in sync or only
 * reordered, and the reverse mapping export writes.
 */
import test from 'ava';
import type { AccessListDetails, CustomAccessList } from '../../../../src/cdn/security-types.js';
import { diffAccessList } from '../../../../src/controllers/shieldaccesslist/diff.js';
import {
  ACCESS_LIST_ACTION,
  ACCESS_LIST_TYPE,
} from '../../../../src/controllers/shieldaccesslist/enums.js';
import {
  desiredAccessList,
  specFromLive,
} from '../../../../src/controllers/shieldaccesslist/mapping.js';
import type { ShieldAccessListSpec } from '../../../../src/controllers/shieldaccesslist/types.js';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';

const doc = loadOpenApiDocument('shield') as unknown as {
  components: { schemas: Record<string, { enum: number[]; 'x-enum-varnames': string[] }> };
};

for (const table of [ACCESS_LIST_TYPE, ACCESS_LIST_ACTION]) {
  test(`${table.title}: names and numbers are the document's`, (t) => {
    const schema = doc.components.schemas[table.title];
    if (!schema) return t.fail(`${table.title} missing from the document`);
    t.deepEqual([...table.names], schema['x-enum-varnames']);
    t.deepEqual([...table.numbers], schema.enum);
  });
}

const SPEC: ShieldAccessListSpec = {
  shieldZoneId: 7,
  type: 'CIDR',
  entries: ['192.0.2.0/24', '198.51.100.0/24'],
  action: 'Block',
};

test('desiredAccessList: defaults (name from metadata, enabled), wire numbers', (t) => {
  t.deepEqual(desiredAccessList(SPEC, 'meta'), {
    name: 'meta',
    type: 1,
    entries: ['192.0.2.0/24', '198.51.100.0/24'],
    enabled: true,
    action: 2,
  });
});

test('desiredAccessList: a list adopted by id without spec.name keeps its name; no action unmanaged', (t) => {
  const want = desiredAccessList({ ...SPEC, listId: 3, action: undefined, enabled: false }, 'meta');
  t.false('name' in want);
  t.false('action' in want);
  t.false(want.enabled);
});

test('desiredAccessList: a malformed entry is refused before anything is sent', (t) => {
  t.throws(() => desiredAccessList({ ...SPEC, entries: ['192.0.2.0'] }, 'm'), {
    message: /spec\.entries\[0\].*CIDR/,
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
  listPatch: Record<string, unknown>;
  configPatch: Record<string, unknown>;
}[] = [
  { why: 'in sync: nothing sent', listPatch: {}, configPatch: {} },
  {
    why: 'entries reordered and repeated on the platform: the same set, nothing sent',
    list: { content: '198.51.100.0/24\n\n192.0.2.0/24\n192.0.2.0/24\n' },
    listPatch: {},
    configPatch: {},
  },
  {
    why: 'an entry more in the spec: the content only, in spec order',
    spec: { entries: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'] },
    listPatch: { content: '192.0.2.0/24\n198.51.100.0/24\n203.0.113.0/24' },
    configPatch: {},
  },
  {
    why: '[] empties the list',
    spec: { entries: [] },
    listPatch: { content: '' },
    configPatch: {},
  },
  {
    why: 'renamed on the platform: the name only',
    list: { name: 'other' },
    listPatch: { name: 'meta' },
    configPatch: {},
  },
  {
    why: 'disabled on the platform: isEnabled only',
    details: { isEnabled: false },
    listPatch: {},
    configPatch: { isEnabled: true },
  },
  {
    why: 'another action wanted: action only',
    spec: { action: 'Challenge' },
    listPatch: {},
    configPatch: { action: 3 },
  },
  {
    why: 'action not managed: a live action is kept',
    spec: { action: undefined },
    details: { action: 4 },
    listPatch: {},
    configPatch: {},
  },
  {
    why: 'a description difference is not sent (the platform cannot change it)',
    spec: { description: 'new' },
    list: { description: 'old' },
    listPatch: {},
    configPatch: {},
  },
  {
    why: 'everything differs: both bodies, each with only its members',
    spec: { name: 'n2', entries: ['192.0.2.0/24'], enabled: false, action: 'Log' },
    listPatch: { name: 'n2', content: '192.0.2.0/24' },
    configPatch: { isEnabled: false, action: 4 },
  },
];
for (const c of DIFFS) {
  test(`diffAccessList: ${c.why}`, (t) => {
    const want = desiredAccessList({ ...SPEC, ...c.spec }, 'meta');
    const d = diffAccessList(want, { ...LIST, ...c.list }, { ...DETAILS, ...c.details });
    t.deepEqual(d.listPatch, c.listPatch);
    t.deepEqual(d.configPatch, c.configPatch);
    t.is(d.diffs.length, Object.keys(c.listPatch).length + Object.keys(c.configPatch).length);
  });
}

test('specFromLive: the spec an export writes, which diffs clean against the live list', (t) => {
  const list = { ...LIST, description: 'made outside', content: '192.0.2.0/24\n192.0.2.0/24\n' };
  const spec = specFromLive(list, { ...DETAILS, action: 3, isEnabled: false });
  t.deepEqual(spec, {
    name: 'meta',
    description: 'made outside',
    type: 'CIDR',
    entries: ['192.0.2.0/24'],
    enabled: false,
    action: 'Challenge',
  });
  const want = desiredAccessList({ ...spec, listId: 3 } as ShieldAccessListSpec, 'x');
  const d = diffAccessList(want, list, { ...DETAILS, action: 3, isEnabled: false });
  t.deepEqual(d.diffs, []);
});

test('specFromLive: action None is left out (not a settable action)', (t) => {
  t.false('action' in specFromLive(LIST, { ...DETAILS, action: 0 }));
});
