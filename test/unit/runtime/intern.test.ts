import test from 'ava';
import { Interner, SharedRecords } from '../../../src/runtime/intern.js';
import { flatString } from '../../../src/runtime/flat-string.js';

test('an interner is bounded: it starts afresh when full and keeps answering equal strings', (t) => {
  const i = new Interner(3);
  for (const v of ['a', 'b', 'c', 'd', 'e', 'a']) t.is(i.intern(v), v);
  t.true(i.size <= 3);
});

test('flatString returns an equal string', (t) => {
  const ns = 'team-a';
  for (const s of [`${ns}/zone-1`, '', 'ü/名前', 'a\u0000b']) t.is(flatString(s), s);
});

test('shared records: equal flat records give one frozen copy; member order matters', (t) => {
  const r = new SharedRecords(8);
  const a = r.share({ type: 'Ready', status: 'True', n: 1 });
  t.is(r.share({ type: 'Ready', status: 'True', n: 1 }), a);
  t.true(Object.isFrozen(a));
  const reordered = { status: 'True', type: 'Ready', n: 1 };
  t.is(r.share(reordered), reordered, 'other member order: kept as is (same JSON as before)');
  const nested = { a: [1] };
  t.is(r.share(nested), nested);
  t.false(Object.isFrozen(nested));
  const list = r.shareList([{ type: 'Ready' }, { type: 'Synced' }]);
  t.is(r.shareList([{ type: 'Ready' }, { type: 'Synced' }]), list);
  t.true(Object.isFrozen(list));
  const mixed = [{ a: 1 }, 'x'];
  t.is(r.shareList(mixed), mixed);
});

test('shared records are bounded: the table starts afresh when full', (t) => {
  const r = new SharedRecords(3);
  for (let i = 0; i < 10; i++) r.share({ i });
  t.true(r.size <= 3);
  t.deepEqual(r.share({ i: 9 }), { i: 9 });
});
