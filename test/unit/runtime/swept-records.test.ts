/**
 * The swept-record cache (src/runtime/swept-records.ts): records come back as they went in,
 * whatever their shape; changes between sweeps are seen; a complete sweep drops what it missed.
 */
import test from 'ava';
import { SweptRecords } from '../../../src/runtime/swept-records.js';

const zone = (id: number, origin: string): Record<string, unknown> => ({
  Id: id,
  Name: `z${id}`,
  OriginUrl: origin,
  Hostnames: [{ Id: id * 10, Value: `z${id}.b-cdn.net`, IsSystemHostname: true }],
  EdgeRules: [],
  Nullable: null,
});

test('records come back equal, whether they share the first record’s members (packed) or not', (t) => {
  const r = new SweptRecords();
  const cases: Array<[string, unknown, string]> = [
    ['1', zone(1, 'https://a'), 'the first record fixes the members'],
    ['2', zone(2, 'https://b'), 'the same members, packed'],
    ['3', { Name: 'z3', Id: 3, OriginUrl: 'https://c' }, 'other members in another order'],
    ['4', { ...zone(4, 'https://d'), Extra: true }, 'one member more'],
  ];
  for (const [id, record] of cases) r.put('s', id, record, 1);
  for (const [id, record, why] of cases) t.deepEqual(r.get('s', id)?.record, record, why);
  const got = r.get('s', '2')?.record as Record<string, unknown>;
  got.OriginUrl = 'changed by a reader';
  t.is((r.get('s', '2')?.record as Record<string, unknown>).OriginUrl, 'https://b', 'a copy');
});

test('a second sweep tells changed records from unchanged ones, and a complete sweep drops what it did not list', (t) => {
  const r = new SweptRecords();
  t.is(r.put('s', '1', zone(1, 'https://a'), 10), 'new');
  t.is(r.put('s', '2', zone(2, 'https://b'), 10), 'new');
  t.is(r.put('s', '1', zone(1, 'https://a'), 20), 'same');
  t.is(r.put('s', '2', zone(2, 'https://drift'), 20), 'changed');
  t.is(r.get('s', '2')?.startedAt, 20, 'the sweep that saw it last');
  t.deepEqual(r.finish('s', 20), [], 'both listed');
  r.put('s', '1', zone(1, 'https://a'), 30);
  t.deepEqual(r.finish('s', 30), ['2'], 'zone 2 was not listed by the sweep of 30');
  t.is(r.get('s', '2'), undefined);
  t.is(r.size('s'), 1);
  r.drop('s');
  t.is(r.size(), 0);
});
