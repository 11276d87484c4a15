import test from 'ava';
import { firstSweepStart, lastSweepPageAt } from '../../../bench/lib/sweep-start.js';
import type { CallLogEntry } from '../../../src/simulator/calls.js';

const page = (t: number): CallLogEntry => ({
  t,
  method: 'GET',
  route: 'GET /pullzone',
  path: '/pullzone',
  status: 200,
  key: 0,
});
const read = (t: number): CallLogEntry => ({
  t,
  method: 'GET',
  route: 'GET /pullzone/{id}',
  path: '/pullzone/7',
  status: 200,
  key: 0,
});

const CASES: Array<[string, CallLogEntry[], number | undefined, number | undefined]> = [
  [
    'the first page after the gap, not a page of the running sweep',
    [page(0), page(250), page(500), read(20_000), page(60_000), page(60_250)],
    undefined,
    60_000,
  ],
  [
    'a sweep already running when the log starts is not a start',
    [page(1000), page(1250)],
    undefined,
    undefined,
  ],
  [
    'a page after the gap from the page seen before the entries',
    [read(10), page(40_000)],
    5_000,
    40_000,
  ],
  ['pages closer than the gap: no start yet', [page(20_000), page(20_250)], 5_000, undefined],
];
for (const [why, entries, prev, want] of CASES)
  test(`sweep start: ${why}`, (t) => t.is(firstSweepStart(entries, 30_000, prev), want));

test('the last sweep page, or the fallback when the entries have none', (t) => {
  t.is(lastSweepPageAt([page(5), read(9)], undefined), 5);
  t.is(lastSweepPageAt([read(9)], 3), 3);
});
