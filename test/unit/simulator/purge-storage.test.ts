import test from 'ava';
import type { CallResult } from '../../support/sim-client.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { SimState, createState } from '../../../src/simulator/state.js';
import { renderStorageZone } from '../../../src/simulator/routes/storage-zones-model.js';
import { admin, call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

test('purgeCache: 204 with no body, null or a CacheTag; 404 unknown zone; 400 bad body; counted', async (t) => {
  const id = await createPullZone(t, sim, 'purge-zone');
  const purge = (params: { id: number }, body?: unknown): Promise<CallResult> =>
    call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone/{id}/purgeCache',
      params,
      body,
    });
  t.is((await purge({ id })).status, 204);
  t.is((await purge({ id }, null)).status, 204);
  t.is((await purge({ id }, { CacheTag: 'product-1' })).status, 204);
  t.is((await purge({ id: 999999 })).status, 404);
  const bad = await purge({ id }, { CacheTag: 5 });
  t.is(bad.status, 400);
  t.like(bad.body, { Field: 'CacheTag' });
  t.is(
    (await purge({ id }, { Tag: 'x' })).status,
    204,
    'an unknown member is ignored (live binding)',
  );
  const calls = (await admin(sim, 'GET', '/_sim/calls')).body as {
    routes: Record<string, { byStatus: Record<string, number> }>;
  };
  t.is(calls.routes['POST /pullzone/{id}/purgeCache']?.byStatus['204'], 4);
});

test('purge URL: 200 for an http(s) URL, 400 for a missing or relative url or a bad flag', async (t) => {
  const purge = (query: Record<string, string>): Promise<CallResult> =>
    call(t, sim, { area: 'core', method: 'POST', template: '/purge', query });
  t.is((await purge({ url: 'https://cdn.example/img/*', async: 'true' })).status, 200);
  t.is((await purge({ url: 'https://cdn.example/a/', exactPath: 'false' })).status, 200);
  for (const [query, field] of [
    [{}, 'url'],
    [{ url: '/relative' }, 'url'],
    [{ url: 'ftp://x.example/' }, 'url'],
    [{ url: 'https://x.example/', async: 'maybe' }, 'async'],
  ] as Array<[Record<string, string>, string]>) {
    const res = await purge(query);
    t.is(res.status, 400, JSON.stringify(query));
    t.like(res.body, { Field: field });
  }
});

test('storage zone lifecycle: add (201 record with passwords), get, list, update, reset, delete', async (t) => {
  const add = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone',
    body: { Name: 'assets-1', Region: 'DE', ReplicationRegions: ['NY'], ZoneTier: 0 },
  });
  t.is(add.status, 201);
  const zone = add.body as Record<string, unknown>;
  t.like(zone, { Name: 'assets-1', Region: 'DE', ReplicationRegions: ['NY'], ZoneTier: 0 });
  t.regex(String(zone.Password), /^[0-9a-f-]{20,}$/);
  const id = zone.Id as number;
  const get = (): Promise<CallResult> =>
    call(t, sim, { area: 'core', method: 'GET', template: '/storagezone/{id}', params: { id } });
  t.is((await get()).status, 200);
  const taken = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone/checkavailability',
    body: { Name: 'ASSETS-1' },
  });
  t.deepEqual(taken.body, { Available: false });
  const update = (body: unknown): Promise<CallResult> =>
    call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/storagezone/{id}',
      params: { id },
      body,
    });
  t.is((await update({ ReplicationZones: ['NY', 'SYD'], Rewrite404To200: true })).status, 204);
  t.like((await get()).body, { ReplicationRegions: ['NY', 'SYD'], Rewrite404To200: true });
  const removal = await update({ ReplicationZones: ['SYD'] });
  t.is(removal.status, 400);
  t.like(removal.body, { ErrorKey: 'storagezone.replication_remove' });
  const reset = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone/{id}/resetPassword',
    params: { id },
  });
  t.is(reset.status, 204);
  const fresh = (await get()).body as { Password: string };
  t.not(fresh.Password, zone.Password);
  const list = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/storagezone',
    query: { page: 1, perPage: 5, search: 'assets' },
  });
  t.like(list.body, { TotalItems: 1, HasMoreItems: false });
  const del = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/storagezone/{id}',
    params: { id },
  });
  t.is(del.status, 204);
  t.is((await get()).status, 404);
});

test('storage zone add: required fields, regions, tier, duplicate names are 400 with the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ Region: 'DE' }, 'Name'],
    [{ Name: 'x1' }, 'Region'],
    [{ Name: 'x2', Region: 'XX' }, 'Region'],
    [{ Name: 'x3', Region: 'DE', ReplicationRegions: ['MARS'] }, 'ReplicationRegions'],
    [{ Name: 'x4', Region: 'DE', ZoneTier: 2 }, 'ZoneTier'],
    [{ Name: 'bad name', Region: 'DE' }, 'Name'],
    [{ Name: 'sim-storage', Region: 'DE' }, 'Name'],
    [{ Name: 'x5', Region: 'DE', ZoneTier: 'fast' }, 'ZoneTier'],
  ];
  for (const [body, field] of cases) {
    const res = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/storagezone',
      body,
    });
    t.is(res.status, 400, JSON.stringify(body));
    t.like(res.body, { Field: field });
  }
});

test('deleting a storage zone with deleteLinkedPullZones removes the pull zones serving from it', async (t) => {
  const add = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/storagezone',
    body: { Name: 'linked-zone', Region: 'NY' },
  });
  const storageId = (add.body as { Id: number }).Id;
  const pullId = await createPullZone(t, sim, 'linked-pull', {
    StorageZoneId: storageId,
    OriginType: 2,
  });
  const get = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/storagezone/{id}',
    params: { id: storageId },
  });
  t.deepEqual(
    (get.body as { PullZones: Array<{ Id: number }> }).PullZones.map((z) => z.Id),
    [pullId],
  );
  await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/storagezone/{id}',
    params: { id: storageId },
    query: { deleteLinkedPullZones: true },
  });
  t.false(sim.state.pullZones.has(pullId));
});

test("deleteLinkedPullZones: absent means true (the document's default); false keeps the pull zones", async (t) => {
  const addZone = async (name: string): Promise<number> => {
    const add = await call(t, sim, {
      area: 'core',
      method: 'POST',
      template: '/storagezone',
      body: { Name: name, Region: 'DE' },
    });
    return (add.body as { Id: number }).Id;
  };
  const del = (id: number, query?: Record<string, boolean>): Promise<CallResult> =>
    call(t, sim, {
      area: 'core',
      method: 'DELETE',
      template: '/storagezone/{id}',
      params: { id },
      ...(query ? { query } : {}),
    });
  const byDefault = await addZone('linked-default');
  const gone = await createPullZone(t, sim, 'linked-default-pull', {
    StorageZoneId: byDefault,
    OriginType: 2,
  });
  t.is((await del(byDefault)).status, 204);
  t.false(sim.state.pullZones.has(gone), 'no query parameter: linked pull zones are deleted');

  const kept = await addZone('linked-kept');
  const stays = await createPullZone(t, sim, 'linked-kept-pull', {
    StorageZoneId: kept,
    OriginType: 2,
  });
  t.is((await del(kept, { deleteLinkedPullZones: false })).status, 204);
  t.false(sim.state.storageZones.has(kept));
  t.true(sim.state.pullZones.has(stays), 'deleteLinkedPullZones=false keeps them');
});

test('a seeded zone gets its passwords once, and they are saved with the state', (t) => {
  const state = createState();
  const seeded = state.storageZones.get(1)!;
  const before = state.revision;
  const first = renderStorageZone(state, seeded);
  t.true(state.revision > before, 'state marked changed, so persistence saves the passwords');
  const restored = new SimState();
  restored.restore(state.snapshot());
  const again = renderStorageZone(restored, restored.storageZones.get(1)!);
  t.is(again.Password, first.Password);
  t.is(again.ReadOnlyPassword, first.ReadOnlyPassword);
});
