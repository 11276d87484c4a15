/**
 * The shield rule enum tables (names -> numbers the controller sends) against the official
 * Shield document they were written from: same document names, same numbers, in the same order;
 * the spec names are UpperCamel and still send the document's numbers. The numbers are not 0..n
 * (operators skip some, timeframes are seconds), so an index-based table would send the wrong
 * value; this test fails on one.
 */
import test from 'ava';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';
import { enumByNumber } from '../../../../src/controllers/kit/codecs.js';
import { RATE_LIMIT_LEGACY_MOVES } from '../../../../src/controllers/shieldrule-common/legacy-moves.js';
import {
  BLOCK_TIME,
  COUNTER_KEY,
  OPERATOR,
  RATE_LIMIT_ACTION,
  SEVERITY,
  TIMEFRAME,
  TRANSFORMATION,
  WAF_ACTION,
} from '../../../../src/controllers/shieldrule-common/enums.js';

const TABLES = [
  WAF_ACTION,
  RATE_LIMIT_ACTION,
  OPERATOR,
  SEVERITY,
  TRANSFORMATION,
  COUNTER_KEY,
  TIMEFRAME,
  BLOCK_TIME,
];

const doc = loadOpenApiDocument('shield') as unknown as {
  components: { schemas: Record<string, { enum: number[]; 'x-enum-varnames': string[] }> };
};

for (const table of TABLES) {
  test(`${table.title}: names and numbers are the document's`, (t) => {
    const schema = doc.components.schemas[table.title];
    if (!schema) return t.fail(`${table.title} missing from the document`);
    t.deepEqual([...table.varnames], schema['x-enum-varnames']);
    t.deepEqual([...table.numbers], schema.enum);
  });

  test(`${table.title}: every name maps to its number and back; unknowns are not understood`, (t) => {
    const codec = enumByNumber(table);
    table.names.forEach((name, i) => {
      const n = table.numbers[i]!;
      t.is(
        codec.toWire(name),
        table.numbers[table.names.indexOf(name)],
        'an alias sends the first',
      );
      t.is(codec.fromWire(n), name);
    });
    t.is(codec.fromWire(99_999), undefined);
    t.is(codec.fromWire(String(table.numbers[0])), undefined, 'strings are not API numbers');
    t.is(codec.toWire('Nope'), undefined, 'a name the CRD enum refuses has no number');
  });
}

test('numbers that are not indexes: Within is 12, PerOneMinute is 60, Block is 1', (t) => {
  t.is(enumByNumber(OPERATOR).toWire('Within'), 12);
  t.is(enumByNumber(TIMEFRAME).toWire('PerOneMinute'), 60);
  t.is(enumByNumber(BLOCK_TIME).toWire('ForThirtySeconds'), 30);
  t.is(enumByNumber(WAF_ACTION).toWire('Block'), 1);
});

// The v1beta1 spec names (docs/api.md) against the numbers the platform's names had in v1alpha1.
const SENT: Array<{ why: string; table: (typeof TABLES)[number]; name: string; number: number }> = [
  { why: 'BEGINSWITH was 0', table: OPERATOR, name: 'BeginsWith', number: 0 },
  { why: 'EQ was 5', table: OPERATOR, name: 'Equal', number: 5 },
  { why: 'RX was 14', table: OPERATOR, name: 'Regex', number: 14 },
  { why: 'DETECTSQLI was 17', table: OPERATOR, name: 'DetectSQLi', number: 17 },
  { why: 'CRITICAL was 2', table: SEVERITY, name: 'Critical', number: 2 },
  { why: 'LOWERCASE was 8', table: TRANSFORMATION, name: 'Lowercase', number: 8 },
  { why: 'NORMALIZEPATH was 10', table: TRANSFORMATION, name: 'NormalizePath', number: 10 },
  { why: 'UTF8TOUNICODE was 21', table: TRANSFORMATION, name: 'UTF8ToUnicode', number: 21 },
  { why: 'IP_JA4 was 7', table: COUNTER_KEY, name: 'IPAndJA4', number: 7 },
];

for (const { why, table, name, number } of SENT) {
  test(`${table.title}: ${name} sends ${number} (${why})`, (t) => {
    t.is(enumByNumber(table).toWire(name), number);
    t.is(enumByNumber(table).fromWire(number), name);
  });
}

test('the British NORMALISEPATH(WIN) read as NormalizePath(Win), which sends the American number', (t) => {
  const codec = enumByNumber(TRANSFORMATION);
  t.is(codec.fromWire(11), 'NormalizePath');
  t.is(codec.fromWire(13), 'NormalizePathWin');
  t.is(codec.toWire('NormalizePath'), 10);
  t.is(codec.toWire('NormalizePathWin'), 12);
});

test('the legacy moves move the adoption id, then rename every v1alpha1 value that changed, and only those', (t) => {
  const [adoption, ...respellings] = RATE_LIMIT_LEGACY_MOVES;
  t.deepEqual(adoption, { from: 'spec.ruleId', to: 'spec.adoption.id', also: { policy: 'ById' } });
  const byPath = new Map(respellings.map((m) => [m.from, m]));
  t.deepEqual(
    [...byPath.keys()],
    [
      'spec.operator',
      'spec.chainedConditions[].operator',
      'spec.severity',
      'spec.transformations[]',
      'spec.counterKey',
    ],
  );
  for (const move of respellings) t.is(move.to, move.from, 'only values change');
  t.is(byPath.get('spec.operator')?.values?.['EQ'], 'Equal');
  t.is(byPath.get('spec.transformations[]')?.values?.['NORMALISEPATH'], 'NormalizePath');
  t.deepEqual(byPath.get('spec.counterKey')?.values, { IP_JA4: 'IPAndJA4' }, 'IP, ASN... stay');
  for (const [table, path] of [
    [OPERATOR, 'spec.operator'],
    [SEVERITY, 'spec.severity'],
    [TRANSFORMATION, 'spec.transformations[]'],
  ] as const) {
    const values: Readonly<Record<string, string | number>> = byPath.get(path)?.values ?? {};
    const renamed = table.varnames.map((old) => values[old] ?? old);
    t.deepEqual(renamed, [...table.names], `${path}: every old value becomes its new one`);
  }
});
