import test from 'ava';
import { pagesSection } from '../../../bench/lib/pages-report.js';
import type { PagesModeResult, PagesResult } from '../../../bench/scenarios/observe-by-pages.js';

function result(n: number, reads: number, p99Ms: number): PagesResult {
  const pages: PagesModeResult = {
    mode: 'pages',
    operatorArgs: [],
    readyMs: 1000,
    windowMs: 600_000,
    readsById: 0,
    correctionReads: 0,
    sweepPages: 100,
    readsPerObjectPerPollInterval: reads,
    readsPerObjectPer10m: reads,
    sweepRequestsPerSecond: 1.7,
    otherWrites: 0,
    drift: { made: 50, corrected: 50, p50Ms: 29_000, p99Ms, maxMs: p99Ms },
    heapUsedBytes: 1 << 20,
  };
  return {
    params: {
      n,
      pollIntervalMs: 600_000,
      windowMs: 600_000,
      drifts: 50,
      modes: ['pages'],
      readShare: 0.2,
      sweepIntervalMs: 60_000,
      workers: 8,
      timeoutMs: 1,
    },
    modes: [pages],
  };
}

const CASES: Array<[string, PagesResult, RegExp[]]> = [
  [
    'at 10,000 the reads get a verdict, the drift none',
    result(10_000, 0.0102, 77_000),
    [
      /reads per object per poll interval with sweeps: 0\.0102 ❌ \(goal ≤ 0\.01 at 10,000\)/,
      /p99: 77\.0 s \(goal set at 100,000; no verdict here\)/,
    ],
  ],
  [
    'at 100,000 the drift gets a verdict, the reads none',
    result(100_000, 0.0102, 59_400),
    [
      /with sweeps: 0\.0102 \(goal set at 10,000; no verdict here\)/,
      /p99: 59\.4 s ✅ \(goal ≤ 60 s at 100,000\)/,
    ],
  ],
];
for (const [why, r, patterns] of CASES)
  test(`pages report: ${why}`, (t) => {
    const md = pagesSection([r]).join('\n');
    for (const re of patterns) t.regex(md, re);
  });
