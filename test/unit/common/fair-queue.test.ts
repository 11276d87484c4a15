/**
 * The fair queue behind the work queue, the platform slots and the account limiter
 * (src/common/fair-queue.ts): shares between flows by cost, priorities within a flow with
 * aging, no credit for idle time, no gain from emptying and refilling a flow, nothing kept
 * once the queue is empty.
 */
import test from 'ava';
import { FairQueue } from '../../../src/common/fair-queue.js';

/** Takes `n` items; returns `flow:item` labels. */
function take(q: FairQueue<string>, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = q.shift();
    if (!s) break;
    out.push(`${s.flow}:${s.item}`);
  }
  return out;
}

test('equal flows of one priority take turns, whatever their backlog', (t) => {
  const q = new FairQueue<string>({ costs: [1, 2], streak: 8 });
  for (let i = 0; i < 100; i++) q.push(`a${i}`, 'a', 0);
  q.push('b0', 'b', 0);
  q.push('b1', 'b', 0);
  t.deepEqual(take(q, 4), ['a:a0', 'b:b0', 'a:a1', 'b:b1']);
});

test('between flows a high item costs half a low one: 2 to 1, never 1 to 0', (t) => {
  const q = new FairQueue<string>({ costs: [1, 2], streak: 8 });
  for (let i = 0; i < 300; i++) q.push(`h${i}`, 'changes', 0);
  for (let i = 0; i < 300; i++) q.push(`l${i}`, 'creates', 1);
  const served = take(q, 300);
  const high = served.filter((s) => s.startsWith('changes:')).length;
  t.true(high >= 195 && high <= 205, `${high} of 300 were changes`);
});

test(`within a flow high goes first, but low gets a turn after the streak (aging)`, (t) => {
  const q = new FairQueue<string>({ costs: [1, 2], streak: 3 });
  for (let i = 0; i < 10; i++) q.push(`h${i}`, 'ns', 0);
  q.push('l0', 'ns', 1);
  t.deepEqual(take(q, 5), ['ns:h0', 'ns:h1', 'ns:h2', 'ns:l0', 'ns:h3']);
});

test('a flow that empties and refills at once keeps its debt (no starvation by churn)', (t) => {
  const q = new FairQueue<string>({ costs: [1, 2], streak: 8 });
  for (let i = 0; i < 50; i++) q.push(`b${i}`, 'b', 1);
  const served: string[] = [];
  for (let i = 0; i < 60; i++) {
    // Flow a always has exactly one high item: it refills the moment it is served.
    q.push(`a${i}`, 'a', 0);
    const s = q.shift()!;
    served.push(s.flow);
  }
  const b = served.filter((f) => f === 'b').length;
  t.true(b >= 15, `b got ${b} of 60 turns`);
});

test('an idle flow gets no credit for its idle time', (t) => {
  const q = new FairQueue<string>({ costs: [1, 2], streak: 8 });
  for (let i = 0; i < 20; i++) q.push(`a${i}`, 'a', 0);
  q.push('keep', 'c', 0); // keeps the queue from emptying, so shares are not reset
  take(q, 10);
  for (let i = 0; i < 20; i++) q.push(`b${i}`, 'b', 0);
  const next = take(q, 10).map((s) => s.split(':')[0]);
  t.true(next.filter((f) => f === 'b').length <= 6, `b did not get a burst: ${next.join(',')}`);
});

test('delete, has, front, and nothing kept once empty', (t) => {
  const q = new FairQueue<string>({ costs: [1, 2, 4], streak: 8 });
  t.true(q.push('x', 'a', 2));
  t.false(q.push('x', 'a', 2), 'already waiting');
  q.push('y', 'a', 2);
  q.push('z', 'a', 2, true);
  t.true(q.has('y', 'a', 2));
  t.true(q.delete('y', 'a', 2));
  t.false(q.delete('y', 'a', 2));
  t.is(q.size, 2);
  t.deepEqual(take(q, 3), ['a:z', 'a:x']);
  t.is(q.size, 0);
  t.is(q.flows, 0);
  t.throws(() => new FairQueue({ costs: [1, 0], streak: 1 }), { message: /cost must be > 0/ });
});

/**
 * Takes every item (stops early once a call asks about more than 64 flows), counting the flows each take and each `canShift` asks `eligible` about;
 * returns the largest count per call and the flows served.
 */
function drainCounting(
  q: FairQueue<string>,
  accept: (flow: string) => boolean,
): { perCall: number; served: string[] } {
  let asked = 0;
  let perCall = 0;
  const eligible = (flow: string): boolean => {
    asked++;
    return accept(flow);
  };
  const served: string[] = [];
  for (;;) {
    asked = 0;
    const can = q.canShift(eligible);
    perCall = Math.max(perCall, asked);
    asked = 0;
    const s = q.shift(eligible);
    perCall = Math.max(perCall, asked);
    // A scan of every flow asks thousands of times per take: stop rather than drain slowly.
    if (!can || !s || perCall > 64) break;
    served.push(s.flow);
  }
  return { perCall, served };
}

test('a take looks at the flow it serves, not at every flow (20,000 flows, a relist)', (t) => {
  // What a relist of 20,000 namespaces queues; a scan of every flow per take asked `eligible`
  // about each waiting flow (20,000 on the first take), the heap asks about the one it serves.
  const q = new FairQueue<string>({ costs: [1, 2, 4], streak: 8 });
  for (let i = 0; i < 20_000; i++) q.push(`obj-${i}`, `ns-${i}`, 2);
  const { perCall, served } = drainCounting(q, () => true);
  t.is(perCall, 1, 'flows asked about per take or canShift');
  t.is(served.length, 20_000);
  t.is(q.records, 0);
});

test('besides the flow it serves, a take looks only at the flows eligible rejects', (t) => {
  // The work queue's eligibility: namespaces at their in-flight limit are passed over.
  const q = new FairQueue<string>({ costs: [1, 2, 4], streak: 8 });
  for (let i = 0; i < 20_000; i++) q.push(`obj-${i}`, `ns-${i % 5_000}`, 2);
  const busy = new Set(['ns-0', 'ns-1', 'ns-2']);
  const { perCall, served } = drainCounting(q, (flow) => !busy.has(flow));
  t.true(perCall <= 1 + busy.size, `${perCall} flows asked about in one call`);
  t.is(served.length, 20_000 - 12, 'the busy flows keep their 4 items each');
  t.false(
    served.some((f) => busy.has(f)),
    'no busy flow served',
  );
  t.is(q.flows, busy.size);
  t.is(take(q, 20).length, 12, 'served once no longer passed over');
});

test('a record without debt goes at the next take; none is left once drained', (t) => {
  const q = new FairQueue<string>({ costs: [1], streak: 8 });
  q.push('a0', 'a', 0);
  for (let i = 0; i < 3; i++) q.push(`b${i}`, 'b', 0);
  t.deepEqual(take(q, 2), ['a:a0', 'b:b0']);
  t.is(q.records, 2, 'a owes one item while b has not caught up');
  t.is(q.flows, 1);
  t.deepEqual(take(q, 1), ['b:b1']);
  t.is(q.records, 2, 'b caught up with this take; a is dropped by the next');
  t.deepEqual(take(q, 1), ['b:b2']);
  t.is(q.records, 0, 'drained');

  // Emptied by delete rather than by takes.
  for (let i = 0; i < 100; i++) q.push(`x${i}`, `ns-${i % 7}`, 0);
  take(q, 50);
  for (let i = 50; i < 100; i++) q.delete(`x${i}`, `ns-${i % 7}`, 0);
  t.is(q.size, 0);
  t.is(q.records, 0);
  t.is(q.flows, 0);
});
