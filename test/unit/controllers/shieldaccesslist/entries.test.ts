/**
 * Entries of a ShieldAccessList (shieldaccesslist/entries.ts): the normal form, set comparison
 * (order and repeats carry no meaning, so a reorder is no PATCH), and the per-type shape check
 * that refuses a malformed entry (naming its index) before anything is sent.
 */
import test from 'ava';
import {
  checkEntries,
  normalizeEntries,
  sameEntries,
} from '../../../../src/controllers/shieldaccesslist/entries.js';
import { TerminalError } from '../../../../src/runtime/errors.js';

test('normalizeEntries trims, drops blanks and repeats, keeps the order', (t) => {
  t.deepEqual(normalizeEntries([' b ', 'a', '', 'b', '  ', 'c']), ['b', 'a', 'c']);
});

const SAME: [string, string[], string[], boolean][] = [
  ['equal lists', ['a', 'b'], ['a', 'b'], true],
  ['reordered', ['a', 'b', 'c'], ['c', 'a', 'b'], true],
  ['repeats and spaces on one side', ['a', 'b'], ['b ', 'a', 'a'], true],
  ['both empty', [], [], true],
  ['one entry more', ['a', 'b'], ['a', 'b', 'c'], false],
  ['one entry less', ['a', 'b', 'c'], ['a', 'b'], false],
  ['one entry replaced', ['a', 'b'], ['a', 'x'], false],
  ['case differs (entries are compared as written)', ['AS1'], ['as1'], false],
];
for (const [why, a, b, same] of SAME) {
  test(`sameEntries: ${why}`, (t) => {
    t.is(sameEntries(a, b), same);
    t.is(sameEntries(b, a), same, 'symmetric');
  });
}

const SHAPES: [type: string, good: string[], bad: string[]][] = [
  ['IP', ['192.0.2.1', '2001:db8::1', ' 198.51.100.7 '], ['300.1.1.1', '192.0.2.0/24', 'host']],
  [
    'CIDR',
    ['192.0.2.0/24', '2001:db8::/32', '10.0.0.0/8'],
    ['192.0.2.0', '192.0.2.0/33', '2001:db8::/129', 'x/8', '1.2.3.0/24/1'],
  ],
  ['ASN', ['AS13335', '13335', 'as64500'], ['ASX', 'AS', 'AS12345678901']],
  ['Country', ['DE', 'us'], ['DEU', 'D', '1A']],
  ['Organization', ['Example Networks Ltd'], []],
  [
    'JA4',
    ['t13d1516h2_8daaf6152771_b0da82dd1658'],
    ['t13d1516h2_8daaf6152771', 'not-a-fingerprint'],
  ],
];
for (const [type, good, bad] of SHAPES) {
  test(`checkEntries ${type}: accepts valid entries, refuses each malformed one by index`, (t) => {
    t.notThrows(() => checkEntries(type, good));
    for (const entry of bad) {
      const err = t.throws(() => checkEntries(type, [...good, entry]), {
        instanceOf: TerminalError,
      });
      t.is(err?.reason, 'InvalidSpec');
      t.true(err?.message.includes(`spec.entries[${good.length}]`), err?.message);
      t.true(err?.message.includes(JSON.stringify(entry)), err?.message);
    }
  });
}
