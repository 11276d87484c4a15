import test from 'ava';
import { ExpiringMap } from '../../../../src/controllers/shared/expiring-map.js';

function clocked(maxEntries: number): { map: ExpiringMap<string>; clock: { now: number } } {
  const clock = { now: 1000 };
  return { map: new ExpiringMap<string>({ maxEntries, now: () => clock.now }), clock };
}

test('an entry is read until it expires, then it is gone', (t) => {
  const { map, clock } = clocked(10);
  map.set('a', 'A', 500);
  clock.now += 499;
  t.is(map.get('a'), 'A');
  clock.now += 1;
  t.is(map.get('a'), undefined);
  t.is(map.size, 0, 'dropped when read after its expiry');
});

test('never more than maxEntries: expired ones are swept first, then the oldest written goes', (t) => {
  const { map, clock } = clocked(3);
  map.set('a', 'A', 100);
  map.set('b', 'B', 10_000);
  map.set('c', 'C', 10_000);
  clock.now += 200; // a expired, not read
  map.set('d', 'D', 10_000);
  t.is(map.size, 3);
  t.is(map.get('b'), 'B', 'the expired entry went, not the oldest live one');
  map.set('b', 'B2', 10_000); // written again: now the newest
  map.set('e', 'E', 10_000);
  t.is(map.size, 3);
  t.is(map.get('c'), undefined, 'the entry written longest ago was evicted');
  t.deepEqual(
    ['b', 'd', 'e'].map((k) => map.get(k)),
    ['B2', 'D', 'E'],
  );
});

test('delete drops an entry; a bad bound is refused', (t) => {
  const { map } = clocked(2);
  map.set('a', 'A', 100);
  t.true(map.delete('a'));
  t.false(map.delete('a'));
  t.throws(() => new ExpiringMap({ maxEntries: 0, now: () => 0 }), { message: /maxEntries/ });
});
