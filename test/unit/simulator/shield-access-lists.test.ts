/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { MANAGED_LISTS } from '../../../src/simulator/routes/shield-access-list-model.js';
import { call, startTestSim } from '../../support/sim-client.js';
import { createShieldZone } from './shield-zone-helper.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const BASE = '/shield/shield-zone/{shieldZoneId}/access-lists';

async function listAll(t: ExecutionContext, shieldZoneId: number): Promise<any> {
  const res = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: BASE,
    params: { shieldZoneId },
  });
  t.is(res.status, 200);
  return res.body;
}

test('custom list: create (disabled until configured), read, update content, configure, delete', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'al-life', 1);
  const created = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: BASE,
    params: { shieldZoneId },
    body: { name: 'office', type: 1, content: '203.0.113.0/24\n2001:db8::/32\n' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const list = (created.body as any).data;
  t.like(list, { name: 'office', type: 1, entryCount: 2, description: null });
  t.regex(list.checksum, /^[0-9a-f]{64}$/);
  const all = await listAll(t, shieldZoneId);
  const details = all.customLists.find((l: any) => l.listId === list.id);
  t.like(details, { isEnabled: false, action: 0, entryCount: 2 });
  t.like(all, { customListCount: 1, customEntryCount: 2, customListLimit: 25 });
  const updated = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${BASE}/{id}`,
    params: { shieldZoneId, id: list.id },
    body: { content: '198.51.100.0/24' },
  });
  t.like((updated.body as any).data, { name: 'office', entryCount: 1, content: '198.51.100.0/24' });
  const configured = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${BASE}/configurations/{id}`,
    params: { shieldZoneId, id: details.configurationId },
    body: { isEnabled: true, action: 2 },
  });
  t.deepEqual((configured.body as any).data, { isEnabled: true, action: 2 });
  const after = await listAll(t, shieldZoneId);
  t.like(
    after.customLists.find((l: any) => l.listId === list.id),
    { isEnabled: true, action: 2 },
  );
  const deleted = await call(t, sim, {
    area: 'shield',
    method: 'DELETE',
    template: `${BASE}/{id}`,
    params: { shieldZoneId, id: list.id },
  });
  t.like(deleted.body, { success: true });
  const gone = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: `${BASE}/{id}`,
    params: { shieldZoneId, id: list.id },
  });
  t.is(gone.status, 404);
  t.is((await listAll(t, shieldZoneId)).customListCount, 0);
});

test('curated lists: one configuration per zone, stable across reads; a higher plan list cannot be enabled', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'al-curated', 0);
  const first = await listAll(t, shieldZoneId);
  const second = await listAll(t, shieldZoneId);
  t.is(first.managedLists.length, MANAGED_LISTS.length);
  t.deepEqual(
    first.managedLists.map((l: any) => l.configurationId),
    second.managedLists.map((l: any) => l.configurationId),
  );
  const vpn = first.managedLists.find((l: any) => l.requiredPlan === 1);
  const refused = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${BASE}/configurations/{id}`,
    params: { shieldZoneId, id: vpn.configurationId },
    body: { isEnabled: true, action: 2 },
  });
  t.is(refused.status, 403);
  t.like(refused.body, { error: { errorKey: 'shield.plan_required' } });
  t.regex((refused.body as any).error.message, /needs the Advanced plan or higher/);
  const tor = first.managedLists.find((l: any) => l.requiredPlan === 0);
  const ok = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${BASE}/configurations/{id}`,
    params: { shieldZoneId, id: tor.configurationId },
    body: { isEnabled: true, action: 3 },
  });
  t.is(ok.status, 200);
  const other = await createShieldZone(t, sim, 'al-curated-other', 0);
  const foreign = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${BASE}/configurations/{id}`,
    params: { shieldZoneId: other, id: tor.configurationId },
    body: { isEnabled: false },
  });
  t.is(foreign.status, 404, "another zone's configuration is not found through this zone");
});

const badEntries: Array<{ type: number; content: string; reason: string }> = [
  { type: 0, content: '203.0.113.7\n300.1.1.1', reason: 'an IP out of range' },
  { type: 1, content: '203.0.113.0/33', reason: 'an IPv4 prefix above 32' },
  { type: 2, content: 'AS12x', reason: 'an ASN that is not a number' },
  { type: 3, content: 'DEU', reason: 'a country that is not two letters' },
  { type: 5, content: 'not-a-ja4', reason: 'a JA4 fingerprint of the wrong form' },
];

for (const c of badEntries) {
  test(`custom list refused with 400: ${c.reason}`, async (t) => {
    const shieldZoneId = await createShieldZone(t, sim, `al-bad-${c.type}`, 1);
    const res = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: BASE,
      params: { shieldZoneId },
      body: { name: 'bad', type: c.type, content: c.content },
    });
    t.is(res.status, 400);
    t.regex((res.body as any).error.message, /is not a valid/);
  });
}

test('custom lists are counted against the plan (Basic: 5 lists)', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'al-limit', 0);
  for (let i = 0; i < 5; i++) {
    const ok = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: BASE,
      params: { shieldZoneId },
      body: { name: `l${i}`, type: 3, content: 'DE' },
    });
    t.is(ok.status, 200);
  }
  const sixth = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: BASE,
    params: { shieldZoneId },
    body: { name: 'l5', type: 3, content: 'FR' },
  });
  t.is(sixth.status, 403);
  t.like(sixth.body, { error: { errorKey: 'shield.plan_required' } });
});

test('enums: the three access list enumerations by value', async (t) => {
  const res = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: `${BASE}/enums`,
    params: { shieldZoneId: '1' },
  });
  t.like((res.body as any).AccessListType, { '0': 'IP', '5': 'JA4' });
  t.like((res.body as any).AccessListAction, { '2': 'Block' });
});
