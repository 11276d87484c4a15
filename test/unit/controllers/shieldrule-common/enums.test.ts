/**
 * The shield rule enum tables (names -> numbers the controller sends) against the official
 * Shield document they were written from: same names, same numbers, in the same order. The
 * numbers are not 0..n (operators skip some, timeframes are seconds), so an index-based table
 * would send the wrong value; this test fails on one.
 */
import test from 'ava';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';
import { enumByNumber } from '../../../../src/controllers/kit/codecs.js';
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
    t.deepEqual([...table.names], schema['x-enum-varnames']);
    t.deepEqual([...table.numbers], schema.enum);
  });

  test(`${table.title}: every name maps to its number and back; unknowns are not understood`, (t) => {
    const codec = enumByNumber(table);
    table.names.forEach((name, i) => {
      const n = table.numbers[i]!;
      t.is(codec.toWire(name), n);
      t.is(codec.fromWire(n), name);
    });
    t.is(codec.fromWire(99_999), undefined);
    t.is(codec.fromWire(String(table.numbers[0])), undefined, 'strings are not API numbers');
    t.is(codec.toWire('Nope'), undefined, 'a name the CRD enum refuses has no number');
  });
}

test('numbers that are not indexes: WITHIN is 12, PerOneMinute is 60, Block is 1', (t) => {
  t.is(enumByNumber(OPERATOR).toWire('WITHIN'), 12);
  t.is(enumByNumber(TIMEFRAME).toWire('PerOneMinute'), 60);
  t.is(enumByNumber(BLOCK_TIME).toWire('ForThirtySeconds'), 30);
  t.is(enumByNumber(WAF_ACTION).toWire('Block'), 1);
});
