/**
 * The fair queue's cost per key against the number of namespaces (issue 53): N keys spread over
 * F namespaces, queued in the low lane (a start-up list or a relist of objects already in
 * sync), then handed out one by one the way the work queue does it (`canShift` then `shift`
 * with its eligibility test), once straight on the FairQueue and once through the WorkQueue
 * itself (`add`, then `get` and `done` per key). Each phase is timed on the wall clock over
 * the rounds after one warm-up round: the best round (the least disturbed by other processes
 * and GC on a shared machine; the verdict's figure) and the median. The slowest single take
 * comes from an extra round that times every take (that would add its own cost to the totals).
 * Nothing is asserted: the goal (20,000 keys from 20,000 namespaces in at most 2 × the time
 * from 10) is reported as met or missed. docs/bench.md has the figures before and after the
 * heap.
 *
 *   node --import tsx bench/fair-queue.ts [--keys 20000] [--namespaces 10,20000] [--rounds 15]
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
    rounds: { type: 'string', default: '15' },
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

/** Milliseconds of the two phases of one round: queueing every key, handing every key out. */
interface Round {
  queue: number;
  handOut: number;
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
  const t0 = performance.now();
  for (const [ns, key] of keys) q.push(key, ns, LOW);
  const t1 = performance.now();
  let taken = 0;
  for (;;) {
    const s = probe ? performance.now() : 0;
    if (!q.canShift(eligible) || !q.shift(eligible)) break;
    if (probe) probe(performance.now() - s);
    taken++;
  }
  const t2 = performance.now();
  if (taken !== keys.length) throw new Error(`cannot bench: ${taken} of ${keys.length} handed out`);
  return { queue: t1 - t0, handOut: t2 - t1 };
}

/** One round through the WorkQueue (no per-namespace limit, no rate limit). */
async function runWorkQueue(keys: Array<[string, string]>): Promise<Round> {
  const q = new WorkQueue();
  const t0 = performance.now();
  for (const [, key] of keys) q.add(key, 'low');
  const t1 = performance.now();
  for (let i = 0; i < keys.length; i++) q.done((await q.get())!);
  const t2 = performance.now();
  q.shutdown();
  return { queue: t1 - t0, handOut: t2 - t1 };
}

/** Best and median of a phase over the rounds. */
interface Figure {
  best: number;
  median: number;
}

interface Row {
  namespaces: number;
  fair: { queue: Figure; handOut: Figure };
  slowestTakeMs: number;
  work: { queue: Figure; handOut: Figure };
}

function summarise(rounds: Round[]): { queue: Figure; handOut: Figure } {
  const figure = (ms: number[]): Figure => ({ best: Math.min(...ms), median: quantile(ms, 0.5) });
  return {
    queue: figure(rounds.map((r) => r.queue)),
    handOut: figure(rounds.map((r) => r.handOut)),
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
  return { namespaces, fair: summarise(fair), slowestTakeMs: slowest, work: summarise(work) };
}

const ms = (f: Figure): string => `${round(f.best, 1)} / ${round(f.median, 1)}`;
const times = (f: Figure, base: Figure): number => round(f.best / base.best, 2);

function printRows(rows: Row[]): void {
  const base = rows[0]!;
  console.log(`${KEYS} keys in the low lane; ms, best / median of ${ROUNDS} rounds\n`);
  console.log(
    '| namespaces | FairQueue push | FairQueue hand-out | × fewest | slowest take | WorkQueue add | WorkQueue get+done | × fewest |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.namespaces} | ${ms(r.fair.queue)} | ${ms(r.fair.handOut)} | ` +
        `${times(r.fair.handOut, base.fair.handOut)} | ${round(r.slowestTakeMs, 2)} | ` +
        `${ms(r.work.queue)} | ${ms(r.work.handOut)} | ${times(r.work.handOut, base.work.handOut)} |`,
    );
  const last = rows[rows.length - 1]!;
  const ratio = times(last.fair.handOut, base.fair.handOut);
  console.log(
    `\nFairQueue hand-out from ${last.namespaces} namespaces: ${ratio} × the time from ` +
      `${base.namespaces} (best rounds; goal ≤ 2): ${ratio <= 2 ? 'met' : 'missed'}`,
  );
}

const rows: Row[] = [];
for (const n of SPREADS) rows.push(await measure(n));
printRows(rows);
