/**
 * The null controller's lag windows (bench/scenarios/null-baseline.ts): `NULL-LAG` lines are
 * read from its output, and the windows that overlap the create are kept, timed from the first
 * POST like the operator's lag series.
 */
import test from 'ava';
import { lagWindows, parseLagLines } from '../../../bench/scenarios/null-baseline.js';

test('NULL-LAG lines are read, other output is ignored', (t) => {
  const text = 'NULL-READY\nNULL-LAG 1000 12.5\nnoise NULL-LAG 1 2\nNULL-LAG 6000 101.25\n';
  t.deepEqual(parseLagLines(text), [
    [1000, 12.5],
    [6000, 101.25],
  ]);
});

const cases: { name: string; from: number; to: number; want: Array<[number, number]> }[] = [
  {
    name: 'windows ending after the start and beginning before the end',
    from: 10_000,
    to: 20_000,
    want: [
      [2, 40],
      [7, 60],
      [12, 30],
    ],
  },
  { name: 'nothing before the create started', from: 40_000, to: 50_000, want: [] },
];

const LAGS: Array<[number, number]> = [
  [7_000, 99],
  [12_000, 40],
  [17_000, 60],
  [22_000, 30],
  [27_000, 80],
];

for (const c of cases)
  test(`lag windows: ${c.name}`, (t) => {
    t.deepEqual(lagWindows(LAGS, c.from, c.to), c.want);
  });
