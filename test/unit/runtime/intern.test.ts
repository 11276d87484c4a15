import test from 'ava';
import { Interner } from '../../../src/runtime/intern.js';
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
