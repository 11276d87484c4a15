/**
 * The stall probe's windows (bench/lib/stall-window.ts): a stall counts in the window it
 * happened in, not in the window of the line that printed it (a stall of the operator's start
 * used to land in the create's first window), and the p99s are known only from STALL_MS up.
 */
import test from 'ava';
import {
  STALL_MS,
  stallWindows,
  summarizeStalls,
  type StallBatch,
  type StallTick,
} from '../../../bench/lib/stall-window.js';
import { stallText } from '../../../bench/report.js';

const stall = (at: number, lateMs: number, ranMs: number, waitedMs: number): StallTick => ({
  at,
  lateMs,
  ranMs,
  waitedMs,
});

test('a stall is placed by its own time, ticks by the second that printed them', (t) => {
  const batches: StallBatch[] = [
    // printed 0.4 s into the create, holding a stall of 0.3 s before it began
    { time: 10_400, ticks: 150, stalls: [stall(9_700, 400, 390, 10), stall(10_300, 30, 10, 20)] },
    { time: 11_400, ticks: 200, stalls: [] },
    { time: 15_400, ticks: 200, stalls: [stall(15_200, 60, 20, 45)] },
  ];
  const windows = stallWindows(batches, 10_000, 20_000);
  t.is(windows.length, 2);
  const [first, second] = windows;
  t.is(first?.[0], 5);
  t.is(first?.[1].ticks, 350);
  t.is(first?.[1].stalls, 1, 'the stall before the create is not in its first window');
  t.is(first?.[1].worstMs, 30);
  t.is(second?.[1].worstWaitedMs, 45);
});

test('p99 is the 1 %-rank value when enough ticks stalled, and STALL_MS below that', (t) => {
  const many = Array.from({ length: 6 }, (_, i) => stall(i, 30 + i * 10, 25 + i * 10, 5));
  t.is(summarizeStalls(500, many).lateP99Ms, 40, 'the 5th largest of 500 ticks');
  t.is(summarizeStalls(500, many).ranP99Ms, 30);
  t.is(summarizeStalls(5000, many).lateP99Ms, STALL_MS, 'fewer than 1 % of ticks stalled');
  const w = summarizeStalls(500, many);
  t.is(w.stallMs, 30 + 40 + 50 + 60 + 70 + 80);
  t.is(w.worstRanMs, 75);
});

test('the report splits the first window’s stalls into running and waiting', (t) => {
  const w = summarizeStalls(500, [stall(1, 100, 40, 62), stall(2, 100, 60, 38)]);
  const text = stallText([[5, w]]);
  t.regex(text, /2 stalls \(200 ms\): the main thread ran 50 %, waited for a CPU 50 %/);
  t.regex(text, /own work's p99 < 20 ms/);
  t.is(stallText([]), '');
});
