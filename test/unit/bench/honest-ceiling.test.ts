import test from 'ava';
import { honestRatio } from '../../../bench/lib/honest-ceiling.js';

const cases: Array<{
  title: string;
  time: number | null;
  ceiling: number;
  nullMs: number | null | undefined;
  want: { ceilingMs: number; ratio: number; machineBound: boolean } | undefined;
}> = [
  {
    title: 'platform-bound: the platform ceiling is above the null time',
    time: 7500,
    ceiling: 6250,
    nullMs: 2000,
    want: { ceilingMs: 6250, ratio: 1.2, machineBound: false },
  },
  {
    title: 'machine-bound: the null controller alone takes longer than the platform allows',
    time: 12_000,
    ceiling: 6250,
    nullMs: 10_000,
    want: { ceilingMs: 10_000, ratio: 1.2, machineBound: true },
  },
  {
    title: 'no ratio when the phase timed out',
    time: null,
    ceiling: 100,
    nullMs: 50,
    want: undefined,
  },
  {
    title: 'no ratio without a baseline',
    time: 100,
    ceiling: 100,
    nullMs: undefined,
    want: undefined,
  },
  {
    title: 'no ratio when the baseline timed out',
    time: 100,
    ceiling: 100,
    nullMs: null,
    want: undefined,
  },
];

for (const c of cases) {
  test(`honest ceiling: ${c.title}`, (t) => {
    const got = honestRatio(c.time, c.ceiling, c.nullMs);
    if (c.want === undefined) {
      t.is(got, undefined);
      return;
    }
    t.is(got?.ceilingMs, c.want.ceilingMs);
    t.is(got?.machineBound, c.want.machineBound);
    t.true(Math.abs((got?.ratio ?? 0) - c.want.ratio) < 1e-9);
  });
}
