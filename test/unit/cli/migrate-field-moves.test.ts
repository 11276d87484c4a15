/**
 * The field mover of `cdnctl migrate` with a table of made-up moves, on plain objects (the live
 * mode) and on YAML documents (the manifest mode): the same table must give the same result.
 */
import test from 'ava';
import { parseDocument } from 'yaml';
import {
  applyFieldMoves,
  FIELD_MOVES,
  plainStore,
  type FieldMove,
} from '../../../src/cli/migrate/field-moves.js';

const CASES: Array<{
  name: string;
  moves: FieldMove[];
  input: Record<string, unknown>;
  output?: Record<string, unknown>;
  error?: RegExp;
}> = [
  {
    name: 'a rename in place',
    moves: [{ from: ['spec', 'old'], to: ['spec', 'new'] }],
    input: { spec: { old: 1, other: 2 } },
    output: { spec: { other: 2, new: 1 } },
  },
  {
    name: 'into a new nested mapping, a subtree moved whole',
    moves: [{ from: ['spec', 'logging'], to: ['spec', 'observability', 'logging'] }],
    input: { spec: { logging: { enabled: true } } },
    output: { spec: { observability: { logging: { enabled: true } } } },
  },
  {
    name: 'a status path (ids move like the spec)',
    moves: [{ from: ['status', 'zoneId'], to: ['status', 'dnsZoneId'] }],
    input: { spec: {}, status: { zoneId: 7 } },
    output: { spec: {}, status: { dnsZoneId: 7 } },
  },
  {
    name: 'an absent source is no move (a second run changes nothing)',
    moves: [{ from: ['spec', 'old'], to: ['spec', 'new'] }],
    input: { spec: { new: 1 } },
    output: { spec: { new: 1 } },
  },
  {
    name: 'moves chain in order',
    moves: [
      { from: ['spec', 'a'], to: ['spec', 'b'] },
      { from: ['spec', 'b'], to: ['spec', 'c'] },
    ],
    input: { spec: { a: 'x' } },
    output: { spec: { c: 'x' } },
  },
  {
    name: 'source and target both set: refused, either could be meant',
    moves: [{ from: ['spec', 'old'], to: ['spec', 'new'] }],
    input: { spec: { old: 1, new: 2 } },
    error: /cannot move spec\.old to spec\.new: both are set/,
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

test('this release moves no field (the groups changed, the fields did not)', (t) => {
  t.deepEqual(FIELD_MOVES, {});
});
