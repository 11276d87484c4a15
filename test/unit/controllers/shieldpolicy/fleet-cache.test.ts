import test from 'ava';
import { ShieldFleetCache } from '../../../../src/controllers/shieldpolicy/fleet-cache.js';
import type { WireZone } from '../../../../src/controllers/shieldpolicy/mapping.js';

function fakeList(zones: WireZone[]): { list: () => Promise<WireZone[]>; calls: () => number } {
  let calls = 0;
  return {
    list: async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      return zones.map((z) => ({ ...z }));
    },
    calls: () => calls,
  };
}

const ZONES = Array.from({ length: 50 }, (_, i) => ({ pullZoneId: 1000 + i, wafExecutionMode: 1 }));

test('many lookups at once share one list pass', async (t) => {
  const cache = new ShieldFleetCache();
  const src = fakeList(ZONES);
  const found = await Promise.all(
    ZONES.map((z) => cache.lookup('acct', src.list, z.pullZoneId, 60_000)),
  );
  t.is(src.calls(), 1, 'one pass for 50 policies');
  t.true(found.every((z) => z?.wafExecutionMode === 1));
});

test('the view is reused while younger than the poll interval, refreshed after', async (t) => {
  let now = 0;
  const cache = new ShieldFleetCache({ now: () => now });
  const src = fakeList(ZONES);
  await cache.lookup('acct', src.list, 1000, 60_000);
  now = 59_000;
  await cache.lookup('acct', src.list, 1001, 60_000);
  t.is(src.calls(), 1, 'still fresh');
  now = 61_000;
  await cache.lookup('acct', src.list, 1001, 60_000);
  t.is(src.calls(), 2, 'stale: refreshed once');
});

test('accounts have separate views', async (t) => {
  const cache = new ShieldFleetCache();
  const a = fakeList([{ pullZoneId: 1, wafExecutionMode: 0 }]);
  const b = fakeList([{ pullZoneId: 1, wafExecutionMode: 1 }]);
  t.is((await cache.lookup('a', a.list, 1, 60_000))?.wafExecutionMode, 0);
  t.is((await cache.lookup('b', b.list, 1, 60_000))?.wafExecutionMode, 1);
});

test('written values are seen at once and survive a refresh that started before them', async (t) => {
  let now = 0;
  const cache = new ShieldFleetCache({ now: () => now });
  let release: (z: WireZone[]) => void = () => undefined;
  let calls = 0;
  const slow = (): Promise<WireZone[]> => {
    calls++;
    return new Promise((r) => (release = r));
  };
  const pending = cache.lookup('acct', slow, 1, 60_000);
  now = 10;
  cache.remember('acct', 1, { wafExecutionMode: 0 });
  release([{ pullZoneId: 1, wafExecutionMode: 1 }]); // listed before our write
  t.is((await pending)?.wafExecutionMode, 0, 'our newer write wins over the older listing');
  now = 70_000;
  const fresh = fakeList([{ pullZoneId: 1, wafExecutionMode: 1 }]);
  t.is(
    (await cache.lookup('acct', fresh.list, 1, 60_000))?.wafExecutionMode,
    1,
    'a listing started after the write is the truth again (drift shows)',
  );
  t.is(calls, 1);
});

test('a zone missing from a fresh view forces a refresh only after the floor', async (t) => {
  let now = 0;
  const cache = new ShieldFleetCache({ now: () => now, minRefreshMs: 30_000 });
  const src = fakeList([{ pullZoneId: 1 }]);
  await cache.lookup('acct', src.list, 1, 600_000);
  now = 1_000;
  t.is(await cache.lookup('acct', src.list, 2, 600_000), undefined);
  t.is(src.calls(), 1, 'within the floor: no extra pass');
  now = 31_000;
  await cache.lookup('acct', src.list, 2, 600_000);
  t.is(src.calls(), 2, 'after the floor: one extra pass');
});

test('a failed refresh rejects its callers and the next lookup retries', async (t) => {
  const cache = new ShieldFleetCache();
  let fail = true;
  const list = (): Promise<WireZone[]> =>
    fail ? Promise.reject(new Error('boom')) : Promise.resolve([{ pullZoneId: 1, planType: 2 }]);
  await t.throwsAsync(cache.lookup('acct', list, 1, 60_000), { message: 'boom' });
  fail = false;
  t.is((await cache.lookup('acct', list, 1, 60_000))?.planType, 2);
});
