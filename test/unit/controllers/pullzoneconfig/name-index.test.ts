import test from 'ava';
import type { PullZone } from '../../../../src/cdn/types.js';
import { ZoneNameIndex } from '../../../../src/controllers/pullzoneconfig/name-index.js';

const zones = (...pairs: Array<[string, number]>): PullZone[] =>
  pairs.map(([Name, Id]) => ({ Name, Id }));

test('one list serves every lookup of an account while fresh; concurrent callers share it', async (t) => {
  let now = 0;
  let lists = 0;
  const index = new ZoneNameIndex(30_000, () => now);
  const list = async (): Promise<PullZone[]> => {
    lists++;
    await new Promise((r) => setTimeout(r, 5));
    return zones(['a', 1], ['b', 2]);
  };
  const got = await Promise.all(['a', 'b', 'c'].map((n) => index.idOf('acct', n, list)));
  t.deepEqual(got, [1, 2, undefined]);
  t.is(lists, 1, 'three first passes, one list');
  now = 29_999;
  t.is(await index.idOf('acct', 'a', list), 1);
  t.is(lists, 1);
  now = 30_000;
  await index.idOf('acct', 'a', list);
  t.is(lists, 2, 'expired: listed again');
});

test('accounts never share an index; remember and forget keep it useful until it expires', async (t) => {
  const index = new ZoneNameIndex();
  t.is(await index.idOf('one', 'z', () => Promise.resolve(zones(['z', 7]))), 7);
  t.is(
    await index.idOf('two', 'z', () => Promise.resolve(zones())),
    undefined,
    'other account, other zones',
  );
  index.remember('two', 'z', 9);
  t.is(await index.idOf('two', 'z', () => Promise.resolve(zones())), 9);
  index.forget('one', 'z');
  t.is(await index.idOf('one', 'z', () => Promise.resolve(zones(['z', 7]))), undefined);
});

test('a failed list is not cached', async (t) => {
  const index = new ZoneNameIndex();
  await t.throwsAsync(index.idOf('acct', 'a', () => Promise.reject(new Error('503'))));
  t.is(await index.idOf('acct', 'a', () => Promise.resolve(zones(['a', 3]))), 3);
});
