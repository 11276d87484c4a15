/**
 * The field mover of `cdnctl migrate` with a table of made-up moves, on plain objects (the live
 * mode) and on YAML documents (the manifest mode): the same table must give the same result.
 */
import test from 'ava';
import { parseDocument } from 'yaml';
import {
  applyFieldMoves,
  FIELD_MOVES,
  SHARED_MOVES,
  plainStore,
  type FieldMove,
} from '../../../src/cli/migrate/field-moves.js';
import { KINDS } from '../../../src/controllers/kinds.js';
import { ADOPTION_IDS } from '../../support/adoption-ids.js';

const CASES: Array<{
  name: string;
  moves: FieldMove[];
  input: Record<string, unknown>;
  output?: Record<string, unknown>;
  error?: RegExp;
}> = [
  {
    name: 'a rename in place',
    moves: [{ from: 'spec.old', to: 'spec.new' }],
    input: { spec: { old: 1, other: 2 } },
    output: { spec: { other: 2, new: 1 } },
  },
  {
    name: 'into a new nested mapping, a subtree moved whole',
    moves: [{ from: 'spec.logging', to: 'spec.observability.logging' }],
    input: { spec: { logging: { enabled: true } } },
    output: { spec: { observability: { logging: { enabled: true } } } },
  },
  {
    name: 'a status path (ids move like the spec)',
    moves: [{ from: 'status.zoneId', to: 'status.dnsZoneId' }],
    input: { spec: {}, status: { zoneId: 7 } },
    output: { spec: {}, status: { dnsZoneId: 7 } },
  },
  {
    name: 'an absent source is no move (a second run changes nothing)',
    moves: [{ from: 'spec.old', to: 'spec.new' }],
    input: { spec: { new: 1 } },
    output: { spec: { new: 1 } },
  },
  {
    name: 'moves chain in order',
    moves: [
      { from: 'spec.a', to: 'spec.b' },
      { from: 'spec.b', to: 'spec.c' },
    ],
    input: { spec: { a: 'x' } },
    output: { spec: { c: 'x' } },
  },
  {
    name: 'source and target both set: refused, either could be meant',
    moves: [{ from: 'spec.old', to: 'spec.new' }],
    input: { spec: { old: 1, new: 2 } },
    error: /cannot move spec\.old to spec\.new: both are set/,
  },
  {
    name: 'a field of every list item',
    moves: [{ from: 'spec.rules[].old', to: 'spec.rules[].new' }],
    input: { spec: { rules: [{ old: 1 }, { other: 2 }, { old: 3 }] } },
    output: { spec: { rules: [{ new: 1 }, { other: 2 }, { new: 3 }] } },
  },
  {
    name: 'enum values respelled in place, unknown values kept',
    moves: [{ from: 'spec.type', to: 'spec.type', values: { dockerHub: 'DockerHub' } }],
    input: { spec: { type: 'dockerHub' } },
    output: { spec: { type: 'DockerHub' } },
  },
  {
    name: 'values of a list of scalars and of nested list items, after a rename',
    moves: [
      { from: 'spec.protocols[]', to: 'spec.protocols[]', values: { tcp: 'TCP', udp: 'UDP' } },
      { from: 'spec.c[].op', to: 'spec.c[].operator', values: { EQ: 'Equal' } },
    ],
    input: { spec: { protocols: ['tcp', 'udp', 'other'], c: [{ op: 'EQ' }, { op: 'LT' }] } },
    output: {
      spec: { protocols: ['TCP', 'UDP', 'other'], c: [{ operator: 'Equal' }, { operator: 'LT' }] },
    },
  },
  {
    name: 'a name or a numeric string becomes the integer the field now takes',
    moves: [{ from: 'spec.p[].code', to: 'spec.p[].code', values: { ok: 200 }, toInteger: true }],
    input: { spec: { p: [{ code: 'ok' }, { code: '404' }, { code: 500 }, { code: 'teapot' }] } },
    output: { spec: { p: [{ code: 200 }, { code: 404 }, { code: 500 }, { code: 'teapot' }] } },
  },
  {
    name: 'a scalar moved into a child of its own place (a switch becomes a block)',
    moves: [{ from: 'spec.dnssec', to: 'spec.dnssec.enabled' }],
    input: { spec: { dnssec: false, other: 1 } },
    output: { spec: { other: 1, dnssec: { enabled: false } } },
  },
  {
    name: 'a block already in the new shape is left alone (a second run changes nothing)',
    moves: [{ from: 'spec.dnssec', to: 'spec.dnssec.enabled' }],
    input: { spec: { dnssec: { enabled: true } } },
    output: { spec: { dnssec: { enabled: true } } },
  },
  {
    name: 'also: constants set beside the moved value, only when it moves',
    moves: [{ from: 'spec.zoneId', to: 'spec.adoption.id', also: { policy: 'ById' } }],
    input: { spec: { zoneId: 42, name: 'x' } },
    output: { spec: { name: 'x', adoption: { policy: 'ById', id: 42 } } },
  },
  {
    name: 'also: no source, nothing set (adoption by name stays)',
    moves: [{ from: 'spec.zoneId', to: 'spec.adoption.id', also: { policy: 'ById' } }],
    input: { spec: { adoption: { policy: 'ByName' } } },
    output: { spec: { adoption: { policy: 'ByName' } } },
  },
  {
    name: 'also: a sibling already holding the same value is kept',
    moves: [{ from: 'spec.zoneId', to: 'spec.adoption.id', also: { policy: 'ById' } }],
    input: { spec: { zoneId: 7, adoption: { policy: 'ById' } } },
    output: { spec: { adoption: { policy: 'ById', id: 7 } } },
  },
  {
    name: 'also: a sibling holding another value refuses the move, nothing changed',
    moves: [{ from: 'spec.zoneId', to: 'spec.adoption.id', also: { policy: 'ById' } }],
    input: { spec: { zoneId: 42, adoption: { policy: 'ByName' } } },
    error:
      /cannot move spec\.zoneId to spec\.adoption\.id: spec\.adoption\.policy is "ByName", not "ById"/,
  },
  {
    name: 'also: beside the value in every list item',
    moves: [{ from: 'spec.r[].old', to: 'spec.r[].a.id', also: { policy: 'ById' } }],
    input: { spec: { r: [{ old: 1 }, {}] } },
    output: { spec: { r: [{ a: { policy: 'ById', id: 1 } }, {}] } },
  },
  {
    name: 'a move across a different number of lists is refused',
    moves: [{ from: 'spec.a[].b', to: 'spec.b' }],
    input: { spec: { a: [{ b: 1 }] } },
    error: /cannot move spec\.a\[\]\.b to spec\.b: they cross a different number of lists/,
  },
];

for (const c of CASES) {
  test(`plain object: ${c.name}`, (t) => {
    const obj = structuredClone(c.input);
    if (c.error) {
      t.throws(() => applyFieldMoves(plainStore(obj), c.moves), { message: c.error });
      return;
    }
    applyFieldMoves(plainStore(obj), c.moves);
    t.deepEqual(obj, c.output);
  });

  test(`YAML document: ${c.name}`, (t) => {
    const doc = parseDocument(JSON.stringify(c.input));
    if (c.error) {
      t.throws(() => applyFieldMoves(doc, c.moves), { message: c.error });
      return;
    }
    applyFieldMoves(doc, c.moves);
    t.deepEqual(doc.toJS(), c.output);
  });
}

test('the table is the shared moves then the legacyMoves of every kind, by kind name', (t) => {
  for (const kind of KINDS) {
    t.deepEqual(FIELD_MOVES[kind.kind], [...SHARED_MOVES, ...(kind.legacyMoves ?? [])], kind.kind);
  }
});

test('a status of v1alpha1 gets the ownership times of v1beta1', (t) => {
  const obj = { status: { ownership: { adopted: false, createRefused: '2026-01-01T00:00:00Z' } } };
  applyFieldMoves(plainStore(obj), FIELD_MOVES['PullZoneConfig'] ?? []);
  t.deepEqual(obj.status.ownership, { adopted: false, createRefusedTime: '2026-01-01T00:00:00Z' });
});

test('also: the report names each constant set, and in YAML the constant comes before the value', (t) => {
  const doc = parseDocument('spec:\n  zoneId: 42 # the zone\n  name: x\n');
  const done = applyFieldMoves(doc, [
    { from: 'spec.zoneId', to: 'spec.adoption.id', also: { policy: 'ById' } },
  ]);
  t.deepEqual(done, ['spec.zoneId -> spec.adoption.id', 'spec.adoption.policy = ById']);
  t.regex(doc.toString(), /adoption:\n {4}policy: ById\n {4}id: 42 # the zone\n/);
});

test('every adoption id of v1alpha1 moves into spec.adoption with policy ById', (t) => {
  for (const { kind, legacyField, id } of ADOPTION_IDS.filter((a) => a.legacy)) {
    const obj = { spec: { [legacyField]: id } };
    applyFieldMoves(plainStore(obj), FIELD_MOVES[kind] ?? []);
    t.deepEqual(obj.spec, { adoption: { policy: 'ById', id } }, kind);
  }
});

test('a ShieldPolicy or DnsRecord pullZoneId names a zone: it is not moved', (t) => {
  for (const kind of ['ShieldPolicy', 'DnsRecord']) {
    const obj = { spec: { pullZoneId: 5 } };
    applyFieldMoves(plainStore(obj), FIELD_MOVES[kind] ?? []);
    t.deepEqual(obj.spec, { pullZoneId: 5 }, kind);
  }
});
