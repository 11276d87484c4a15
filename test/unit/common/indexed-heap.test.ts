/**
 * The heap behind the fair queue (src/common/indexed-heap.ts): entries come out in order
 * after pushes, removals and key changes, each entry knows its place, and an operation costs
 * O(log n) comparisons (counted through the order function, not timed).
 */
import test from 'ava';
import { IndexedHeap } from '../../../src/common/indexed-heap.js';
import { below, seededRandom } from './seeded-random.js';

interface Entry {
  key: number;
  id: number;
  heapIndex: number;
}

function counted(): { heap: IndexedHeap<Entry>; compared: () => number } {
  let n = 0;
  const heap = new IndexedHeap<Entry>((a, b) => {
    n++;
    return a.key < b.key || (a.key === b.key && a.id < b.id);
  });
  return { heap, compared: () => n };
}

const entry = (key: number, id: number): Entry => ({ key, id, heapIndex: -1 });

/** Pops every entry; their ids, and whether each popped entry knew it is in no heap. */
function drain(heap: IndexedHeap<Entry>): { ids: number[]; placesCleared: boolean } {
  const ids: number[] = [];
  let placesCleared = true;
  for (let e = heap.pop(); e; e = heap.pop()) {
    placesCleared &&= e.heapIndex === -1;
    ids.push(e.id);
  }
  return { ids, placesCleared };
}

test('entries come out in order after random pushes, removals and key changes', (t) => {
  for (let seed = 1; seed <= 50; seed++) {
    const random = seededRandom(seed);
    const { heap } = counted();
    const live = new Map<number, Entry>();
    for (let id = 0; id < 300; id++) {
      const e = entry(below(random, 50), id);
      heap.push(e);
      live.set(id, e);
      const other = live.get(below(random, id + 1));
      if (!other) continue;
      if (random() < 0.2) {
        heap.remove(other);
        live.delete(other.id);
      } else if (random() < 0.3) {
        other.key = below(random, 50);
        heap.update(other);
      }
    }
    t.is(heap.size, live.size);
    t.true(heap.some((e) => live.get(e.id) === e));
    const want = [...live.values()].sort((a, b) => a.key - b.key || a.id - b.id).map((e) => e.id);
    t.deepEqual(drain(heap), { ids: want, placesCleared: true }, `seed ${seed}`);
  }
});

test('push, pop, update and remove compare O(log n) times at 20,000 entries', (t) => {
  const { heap, compared } = counted();
  const entries = Array.from({ length: 20_000 }, (_, i) => entry(i % 997, i));
  for (const e of entries) heap.push(e);
  // A binary heap of 20,000 has 15 levels: at most one comparison per level going up, two
  // going down (and one to find that it does not go up). A scan would compare thousands of times.
  const bound = 2 * Math.ceil(Math.log2(20_001)) + 1;
  let worst = 0;
  const measure = (op: () => void): void => {
    const before = compared();
    op();
    worst = Math.max(worst, compared() - before);
  };
  for (let i = 0; i < 2_000; i++) {
    const e = entries[(i * 7919) % entries.length]!;
    measure(() => {
      e.key += 500;
      heap.update(e);
    });
    measure(() => heap.remove(e));
    measure(() => heap.push(e));
    const top = heap.peek()!;
    measure(() => heap.pop());
    measure(() => heap.push(top));
  }
  t.true(worst <= bound, `worst operation compared ${worst} times (bound ${bound})`);
  heap.clear();
  t.is(heap.size, 0);
  t.true(entries.every((e) => e.heapIndex === -1));
});
