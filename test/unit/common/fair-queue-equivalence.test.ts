/**
 * The fair queue keeps its flows in heaps (O(log flows) per take, issue 53) but must serve
 * exactly as the rules say when written as a scan of every flow (fair-queue-model.ts): the
 * same item, flow and priority from every take, the same answers from push, delete, has and
 * canShift, and the same counts of items, flows and records after every call, over random
 * sequences with few flows (ties, records dropped and made again, debts, aging) and many.
 */
import test from 'ava';
import { FairQueue, type FairQueueOptions } from '../../../src/common/fair-queue.js';
import { ScanningFairQueue } from './fair-queue-model.js';
import { below, seededRandom } from './seeded-random.js';

type Queue = FairQueue<string> | ScanningFairQueue<string>;

interface Case {
  reason: string;
  options: FairQueueOptions;
  flows: number;
  items: number;
}

const cases: Case[] = [
  {
    reason: 'the work queue lanes, few flows: ties and refills',
    options: { costs: [1, 2, 4], streak: 8 },
    flows: 4,
    items: 6,
  },
  {
    reason: 'the slot and limiter shape with a short streak: aging at every turn',
    options: { costs: [1, 2], streak: 1 },
    flows: 6,
    items: 8,
  },
  {
    reason: 'one priority, streak 0',
    options: { costs: [3], streak: 0 },
    flows: 5,
    items: 5,
  },
  {
    reason: 'fractional costs, a lower priority cheaper than a higher one',
    options: { costs: [0.5, 3, 1.25], streak: 3 },
    flows: 7,
    items: 10,
  },
  {
    reason: 'many flows',
    options: { costs: [1, 2, 4], streak: 8 },
    flows: 60,
    items: 4,
  },
];

/** One random call, made on both queues; returns what each answered. */
function step(random: () => number, c: Case, queues: Queue[]): unknown[] {
  const flow = `ns-${below(random, c.flows)}`;
  const item = `i${below(random, c.items)}`;
  // Priorities outside the range are clamped by both.
  const priority = below(random, c.options.costs.length + 1) - (random() < 0.05 ? 1 : 0);
  const rejected = new Set(Array.from({ length: below(random, 3) }, () => below(random, c.flows)));
  const eligible = (f: string): boolean => !rejected.has(Number(f.slice(3)));
  const roll = random();
  if (roll < 0.45) {
    const front = random() < 0.15;
    return queues.map((q) => q.push(item, flow, priority, front));
  }
  if (roll < 0.55) return queues.map((q) => q.delete(item, flow, priority));
  if (roll < 0.6) return queues.map((q) => q.has(item, flow, priority));
  if (roll < 0.65) return queues.map((q) => q.canShift(eligible));
  const useEligible = random() < 0.4;
  return queues.map((q) => q.shift(useEligible ? eligible : undefined));
}

for (const c of cases)
  test(`same answers as the scanning model: ${c.reason}`, (t) => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = seededRandom(seed);
      const fast = new FairQueue<string>(c.options);
      const model = new ScanningFairQueue<string>(c.options);
      for (let i = 0; i < 400; i++) {
        const [got, want] = step(random, c, [fast, model]);
        const counts = (q: Queue): number[] => [q.size, q.flows, q.records];
        const same = JSON.stringify([got, counts(fast)]) === JSON.stringify([want, counts(model)]);
        if (!same) {
          t.deepEqual([got, counts(fast)], [want, counts(model)], `seed ${seed}, call ${i}`);
          return;
        }
      }
    }
    t.pass();
  });
