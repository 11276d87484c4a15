/**
 * The live binding (src/simulator/documents/binding.ts) as a pure function of a document and
 * a request, table-driven: what each rule rewrites, what it leaves alone, and that a request
 * that already matches the documents exactly passes unchanged and unnoted.
 */
import test from 'ava';
import { CONTRACT_EXCEPTIONS } from '../../../src/simulator/contract-exceptions.js';
import type { BindingRule } from '../../../src/simulator/contract-exception-types.js';
import { Binder } from '../../../src/simulator/documents/binding.js';
import type { ApiDocuments } from '../../../src/simulator/documents/load.js';
import type { RouteDef } from '../../../src/simulator/types.js';

const schemas = {
  Model: {
    type: 'object',
    additionalProperties: false,
    required: ['Name'],
    properties: {
      Name: { type: 'string' },
      EnableWebpVary: { type: 'boolean', nullable: true },
      Flag: { type: 'boolean' },
      Mode: { $ref: '#/components/schemas/Mode' },
      Kind: { nullable: true, oneOf: [{ $ref: '#/components/schemas/Kind' }] },
      Child: { $ref: '#/components/schemas/Child' },
      Children: { type: 'array', items: { $ref: '#/components/schemas/Child' } },
      Labels: { type: 'object', additionalProperties: { type: 'string' }, nullable: true },
      Free: { type: 'object' },
    },
  },
  Mode: { type: 'string', enum: ['shared', 'ifNotPresent'] },
  Kind: { type: 'integer', enum: [0, 1] },
  Child: {
    type: 'object',
    additionalProperties: false,
    properties: { portNumber: { type: 'integer' }, mode: { $ref: '#/components/schemas/Mode' } },
  },
};

const core = {
  paths: {
    '/thing': {
      post: {
        parameters: [
          { name: 'perPage', in: 'query', schema: { type: 'integer' } },
          { name: 'exact', in: 'query', schema: { type: 'boolean' } },
        ],
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Model' } } },
        },
      },
    },
  },
  components: { schemas },
};

const documents = { core, mc: { paths: {} }, shield: { paths: {} } } as unknown as ApiDocuments;
const route: RouteDef = {
  method: 'POST',
  template: '/thing',
  area: 'core',
  handler: () => ({ status: 204 }),
};

function bind(body: unknown, query = ''): ReturnType<Binder['bind']> {
  return new Binder(documents).bind(route, { body, query: new URLSearchParams(query) });
}

const CASES: Array<[string, unknown, unknown, RegExp[]]> = [
  [
    'member names in another case take the document spelling',
    { name: 'a', enableWebPVary: true, CHILD: { PortNumber: 80 } },
    { Name: 'a', EnableWebpVary: true, Child: { portNumber: 80 } },
    [
      /^name is spelled Name/,
      /enableWebPVary is spelled EnableWebpVary .*member-case/,
      /CHILD is spelled Child/,
      /^Child\.PortNumber is spelled portNumber/,
    ],
  ],
  [
    'unknown members are dropped, in nested items too',
    { Name: 'a', Id: 5, Children: [{ portNumber: 1, packageId: '' }] },
    { Name: 'a', Children: [{ portNumber: 1 }] },
    [/^Id is not a member .*unknown-member/, /Children\[0\]\.packageId/],
  ],
  [
    'null for an optional non-nullable member counts as absent; nullable ones keep their null',
    { Name: 'a', Flag: null, Child: null, EnableWebpVary: null, Kind: null, Labels: null },
    { Name: 'a', EnableWebpVary: null, Kind: null, Labels: null },
    [/^Flag is null .*null-optional/, /^Child is null/],
  ],
  [
    'a required member keeps its null, for the document check to reject',
    { Name: null },
    { Name: null },
    [],
  ],
  [
    'string enum values take the document spelling; unknown values stay for the check',
    { Name: 'a', Mode: 'SHARED', Children: [{ mode: 'IfNotPresent' }, { mode: 'never' }] },
    { Name: 'a', Mode: 'shared', Children: [{ mode: 'ifNotPresent' }, { mode: 'never' }] },
    [/Mode "SHARED" is spelled "shared" .*enum-case/, /Children\[0\]\.mode "IfNotPresent"/],
  ],
  [
    'dictionary keys and free objects are kept as sent',
    { Name: 'a', Labels: { AnyKey: 'v' }, Free: { whatever: 1 } },
    { Name: 'a', Labels: { AnyKey: 'v' }, Free: { whatever: 1 } },
    [],
  ],
  [
    'a member given twice in different case: the last one wins, noted',
    { Name: 'a', flag: true, Flag: false },
    { Name: 'a', Flag: false },
    [/flag is spelled Flag/, /Flag repeats Flag/],
  ],
  [
    'integer enums and numbers are not rebound (no document or client shows names or strings)',
    { Name: 'a', Kind: 'One', Child: { portNumber: '80' } },
    { Name: 'a', Kind: 'One', Child: { portNumber: '80' } },
    [],
  ],
];

for (const [what, body, expected, notes] of CASES) {
  test(`binding: ${what}`, (t) => {
    const bound = bind(body);
    t.deepEqual(bound.body, expected);
    t.is(bound.notes.length, notes.length, bound.notes.join('\n'));
    notes.forEach((pattern, i) => t.regex(bound.notes[i] ?? '', pattern));
  });
}

test('binding: an exact request passes unchanged and unnoted', (t) => {
  const body = {
    Name: 'a',
    EnableWebpVary: true,
    Mode: 'shared',
    Children: [{ portNumber: 1, mode: 'ifNotPresent' }],
    Labels: { x: 'y' },
  };
  const bound = bind(structuredClone(body), 'perPage=5&exact=true');
  t.deepEqual(bound.body, body);
  t.deepEqual(bound.notes, []);
  t.is(bound.query.toString(), 'perPage=5&exact=true');
});

test('binding: query names in another case, unknown parameters and boolean case', (t) => {
  const bound = bind(undefined, 'PerPage=5&EXACT=True&page=2');
  t.is(bound.query.toString(), 'perPage=5&exact=true');
  t.is(bound.body, undefined);
  t.deepEqual(
    bound.notes.map((n) => /\(live binding: ([\w-]+)\)$/.exec(n)?.[1]),
    ['query-name-case', 'query-name-case', 'query-boolean-case', 'query-unknown'],
  );
});

test('binding: an operation the document does not have is left alone', (t) => {
  const other: RouteDef = { ...route, template: '/other' };
  const bound = new Binder(documents).bind(other, {
    body: { anything: 1 },
    query: new URLSearchParams('x=1'),
  });
  t.deepEqual(bound.body, { anything: 1 });
  t.deepEqual(bound.notes, []);
});

test('every binding rule is listed with its reason in the contract exceptions table', (t) => {
  const rules: BindingRule[] = [
    'member-case',
    'unknown-member',
    'null-optional',
    'enum-case',
    'query-name-case',
    'query-unknown',
    'query-boolean-case',
  ];
  const listed = CONTRACT_EXCEPTIONS.filter((e) => e.kind === 'binding');
  t.deepEqual(listed.map((e) => e.rule).sort(), [...rules].sort());
  for (const row of listed)
    t.true(row.reason.length > 20 && row.accepts !== '' && row.binds !== '');
});
