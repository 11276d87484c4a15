import test from 'ava';
import { rotatedOrder } from '../../../bench/lib/round-order.js';

const sides = ['lone', 'ours', 'bare'] as const;

test('round 0 keeps the order; each later round moves the head to the back', (t) => {
  t.deepEqual(rotatedOrder(sides, 0), ['lone', 'ours', 'bare']);
  t.deepEqual(rotatedOrder(sides, 1), ['ours', 'bare', 'lone']);
  t.deepEqual(rotatedOrder(sides, 2), ['bare', 'lone', 'ours']);
  t.deepEqual(rotatedOrder(sides, 3), ['lone', 'ours', 'bare']);
});

test('over as many rounds as sides, every side takes every place once', (t) => {
  for (const list of [
    ['a', 'b'],
    ['lone', 'ours', 'bare'],
    ['w', 'x', 'y', 'z'],
  ]) {
    const rounds = list.map((_, i) => rotatedOrder(list, i));
    for (let place = 0; place < list.length; place++)
      t.deepEqual(new Set(rounds.map((r) => r[place])).size, list.length, `place ${place}`);
  }
});

test('no sides, no order', (t) => {
  t.deepEqual(rotatedOrder([], 4), []);
});
