/**
 * The shield rule enum tables (names -> numbers the controller sends) against the official
 * Shield document they were written from: same names, same numbers, in the same order. The
 * numbers are not 0..n (operators skip some, timeframes are seconds), so an index-based table
 * would send the wrong value; this test fails on one.
 */
import test from 'ava';
import { loadOpenApiDocument } from '../../../support/openapi-docs.js';
import {
  BLOCK_TIME,
  COUNTER_KEY,
  fromWire,
  OPERATOR,
  RATE_LIMIT_ACTION,
  SEVERITY,
  TIMEFRAME,
  toWire,
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

  test(`${table.title}: every name maps to its number and back; unknowns are refused`, (t) => {
    table.names.forEach((name, i) => {
      const n = table.numbers[i]!;
      t.is(toWire(table, name), n);
      t.is(fromWire(table, n), name);
    });
    t.is(fromWire(table, 99_999), undefined);
    t.is(fromWire(table, String(table.numbers[0])), undefined, 'strings are not API numbers');
    t.throws(() => toWire(table, 'Nope'), { message: /cannot map .*"Nope": expected one of/ });
  });
}

test('numbers that are not indexes: WITHIN is 12, PerOneMinute is 60, Block is 1', (t) => {
  t.is(toWire(OPERATOR, 'WITHIN'), 12);
  t.is(toWire(TIMEFRAME, 'PerOneMinute'), 60);
  t.is(toWire(BLOCK_TIME, 'ForThirtySeconds'), 30);
  t.is(toWire(WAF_ACTION, 'Block'), 1);
});
