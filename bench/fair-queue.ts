/**
 * The fair queue's cost per key against the number of namespaces (issue 53): N keys spread over
 * F namespaces, queued in the low lane (a start-up list or a relist of objects already in
 * sync), then handed out one by one the way the work queue does it (`canShift` then `shift`
 * with its eligibility test), once straight on the FairQueue and once through the WorkQueue
 * itself (`add`, then `get` and `done` per key). Figures are this thread's CPU time (the wall
 * clock beside it: on a shared machine it also counts other processes' turns), medians over
 * the rounds after one warm-up round; the slowest single take comes from an extra round that
 * times every take (which would add its own cost to the totals). Nothing is asserted: the
 * goal (20,000 keys from 20,000 namespaces in at most 2 × the time from 10) is reported as met
 * or missed. docs/bench.md has the figures before and after the heap.
 *
 *   node --import tsx bench/fair-queue.ts [--keys 20000] [--namespaces 10,20000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { FairQueue } from '../src/common/fair-queue.js';
import { WorkQueue } from '../src/runtime/workqueue.js';
import { quantile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '20000' },
    namespaces: { type: 'string', default: '10,20000' },
    rounds: { type: 'string', default: '5' },
  },
});
const KEYS = Number(values.keys);
const SPREADS = values.namespaces.split(',').map(Number);
const ROUNDS = Math.max(1, Number(values.rounds));
/** The work queue's lanes and their costs (src/runtime/workqueue.ts); the relist's lane. */
const COSTS = [1, 2, 4];
const LOW = 2;
const STREAK = 8;
/** What the work queue passes without a per-namespace limit: every namespace may get a key. */
const eligible = (_ns: string): boolean => true;

/** Time spent, on the wall clock and on this thread's CPU (what blocks the event loop). */
interface Span {
  wallMs: number;
  cpuMs: number;
}

interface Round {
  queue: Span;
  handOut: Span;
}

/**
 * This thread's CPU time in ms, where Node.js has `process.threadCpuUsage` (23.9 and newer;
 * the wall clock otherwise): on a shared machine the wall clock also counts the time other
 * processes held the cores.
 */
const threadCpu = (process as { threadCpuUsage?: () => { user: number; system: number } })
  .threadCpuUsage;
function cpuMs(): number {
  if (!threadCpu) return performance.now();
  const { user, system } = threadCpu();
  return (user + system) / 1000;
}

/** Starts a stopwatch; the returned function reads the span since. */
function stopwatch(): () => Span {
  const [wall, cpu] = [performance.now(), cpuMs()];
  return () => ({ wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu });
}

function keysOf(namespaces: number): Array<[string, string]> {
  return Array.from({ length: KEYS }, (_, i) => {
    const ns = `ns-${i % namespaces}`;
    return [ns, `${ns}/obj-${i}`];
  });
}

/** One round straight on the FairQueue; `probe` receives each take's duration. */
function runFairQueue(keys: Array<[string, string]>, probe?: (ms: number) => void): Round {
  const q = new FairQueue<string>({ costs: COSTS, streak: STREAK });
  let watch = stopwatch();
  for (const [ns, key] of keys) q.push(key, ns, LOW);
  const queue = watch();
  watch = stopwatch();
  let taken = 0;
  for (;;) {
    const s = probe ? cpuMs() : 0;
    if (!q.canShift(eligible) || !q.shift(eligible)) break;
    if (probe) probe(cpuMs() - s);
    taken++;
  }
  const handOut = watch();
  if (taken !== keys.length) throw new Error(`cannot bench: ${taken} of ${keys.length} handed out`);
  return { queue, handOut };
}

/** One round through the WorkQueue (no per-namespace limit, no rate limit). */
async function runWorkQueue(keys: Array<[string, string]>): Promise<Round> {
  const q = new WorkQueue();
  let watch = stopwatch();
  for (const [, key] of keys) q.add(key, 'low');
  const queue = watch();
  watch = stopwatch();
  for (let i = 0; i < keys.length; i++) q.done((await q.get())!);
  const handOut = watch();
  q.shutdown();
  return { queue, handOut };
}

interface Row {
  namespaces: number;
  fair: Round;
  slowestTakeMs: number;
  work: Round;
}

function medianSpan(spans: Span[]): Span {
  return {
    wallMs: quantile(
      spans.map((x) => x.wallMs),
      0.5,
    ),
    cpuMs: quantile(
      spans.map((x) => x.cpuMs),
      0.5,
    ),
  };
}

function median(rounds: Round[]): Round {
  return {
    queue: medianSpan(rounds.map((r) => r.queue)),
    handOut: medianSpan(rounds.map((r) => r.handOut)),
  };
}

async function measure(namespaces: number): Promise<Row> {
  const keys = keysOf(namespaces);
  const fair: Round[] = [];
  const work: Round[] = [];
  // Round 0 warms the JIT up and is not counted.
  for (let r = 0; r <= ROUNDS; r++) {
    const f = runFairQueue(keys);
    const w = await runWorkQueue(keys);
    if (r === 0) continue;
    fair.push(f);
    work.push(w);
  }
  let slowest = 0;
  runFairQueue(keys, (ms) => (slowest = Math.max(slowest, ms)));
  return { namespaces, fair: median(fair), slowestTakeMs: slowest, work: median(work) };
}

const ms = (x: Span): string => `${round(x.cpuMs, 1)} (${round(x.wallMs, 1)})`;

function printRows(rows: Row[]): void {
  const base = rows[0]!;
  const clock = threadCpu ? 'main-thread CPU ms (wall ms)' : 'wall ms';
  console.log(`${KEYS} keys in the low lane; medians of ${ROUNDS} rounds, ${clock}\n`);
  console.log(
    '| namespaces | FairQueue push | FairQueue hand-out | × fewest | slowest take | WorkQueue add | WorkQueue get+done | × fewest |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.namespaces} | ${ms(r.fair.queue)} | ${ms(r.fair.handOut)} | ` +
        `${round(r.fair.handOut.cpuMs / base.fair.handOut.cpuMs, 2)} | ${round(r.slowestTakeMs, 3)} | ` +
        `${ms(r.work.queue)} | ${ms(r.work.handOut)} | ` +
        `${round(r.work.handOut.cpuMs / base.work.handOut.cpuMs, 2)} |`,
    );
  const last = rows[rows.length - 1]!;
  const ratio = last.fair.handOut.cpuMs / base.fair.handOut.cpuMs;
  const verdict = ratio <= 2 ? 'met' : 'missed';
  console.log(
    `\nFairQueue hand-out from ${last.namespaces} namespaces: ${round(ratio, 2)} × the time ` +
      `from ${base.namespaces} (goal ≤ 2): ${verdict}`,
  );
}

const rows: Row[] = [];
for (const n of SPREADS) rows.push(await measure(n));
printRows(rows);
