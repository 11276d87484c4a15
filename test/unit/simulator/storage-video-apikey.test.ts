import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, startTestSim, TEST_KEY } from '../../support/sim-client.js';

let sim: SimulatorHandle;
const keys = [
  { key: TEST_KEY, roles: ['Admin'] },
  ...Array.from({ length: 7 }, (_, i) => ({ key: `k${i}`, roles: ['User'] })),
];
test.before(async () => {
  sim = await startTestSim({ apiKeys: keys });
});
test.after.always(async () => {
  await sim.close();
});

test('storage zone name check: seeded name taken, new name available, Name required', async (t) => {
  const taken = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone/checkavailability',
    body: { Name: 'sim-storage' },
  });
  t.deepEqual(taken.body, { Available: false });
  const free = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone/checkavailability',
    body: { Name: 'brand-new' },
  });
  t.deepEqual(free.body, { Available: true });
  const bad = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone/checkavailability',
    body: {},
  });
  t.is(bad.status, 400);
  t.like(bad.body, { Field: 'Name' });
});

test('video library blocked referrer: added on the seeded library, 404 for unknown, Hostname validated', async (t) => {
  const ok = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/videolibrary/{id}/addBlockedReferrer',
    params: { id: 1 },
    body: { Hostname: 'bad.example' },
  });
  t.is(ok.status, 200);
  t.deepEqual(sim.state.videoLibraries.get(1)?.BlockedReferrers, ['bad.example']);
  const missing = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/videolibrary/{id}/addBlockedReferrer',
    params: { id: 999 },
    body: { Hostname: 'x' },
  });
  t.is(missing.status, 404);
  const empty = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/videolibrary/{id}/addBlockedReferrer',
    params: { id: 1 },
    body: { Hostname: '' },
  });
  t.is(empty.status, 400);
  t.like(empty.body, { Field: 'Hostname' });
});

test('GET /apikey lists the configured keys with roles in the paged envelope', async (t) => {
  const res = await call(t, sim, { area: 'core', method: 'GET', template: '/apikey' });
  t.is(res.status, 200);
  const body = res.body as {
    Items: Array<{ Key: string; Roles: string[] }>;
    TotalItems: number;
    HasMoreItems: boolean;
  };
  t.is(body.TotalItems, keys.length);
  t.deepEqual(body.Items[0], { Id: 1, Key: TEST_KEY, Roles: ['Admin'] });
  t.false(body.HasMoreItems);
});

test('GET /apikey paging: page and perPage (names from the official document) with their ranges', async (t) => {
  const page2 = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/apikey',
    query: { page: 2, perPage: 5 },
  });
  t.like(page2.body, { CurrentPage: 2, TotalItems: 8, HasMoreItems: false });
  t.is((page2.body as { Items: unknown[] }).Items.length, 3);
  const first = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/apikey',
    query: { page: 1, perPage: 5 },
  });
  t.like(first.body, { HasMoreItems: true });
  const cases: Array<[Record<string, number>, string]> = [
    [{ page: 0 }, 'page'],
    [{ page: 2147483648 }, 'page'],
    [{ perPage: 4 }, 'perPage'],
    [{ perPage: 1001 }, 'perPage'],
  ];
  for (const [query, field] of cases) {
    const res = await call(t, sim, { area: 'core', method: 'GET', template: '/apikey', query });
    t.is(res.status, 400, JSON.stringify(query));
    t.like(res.body, { Field: field });
  }
  for (const query of [{ page: 2147483647 }, { perPage: 5 }, { perPage: 1000 }] as Array<
    Record<string, number>
  >) {
    t.is(
      (await call(t, sim, { area: 'core', method: 'GET', template: '/apikey', query })).status,
      200,
      JSON.stringify(query),
    );
  }
});
