/**
 * Every client method against cdn-sim. Each test validates every request body the client sent
 * against the official OpenAPI request schema (assertBodiesValid).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { appRequest, CERT_B64, KEY_B64 } from './fixtures.js';
import { assertBodiesValid, callsOf, startSimClient } from './sim-harness.js';

test('pull zone lifecycle: add, get, list, update, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await c.addPullZone({ Name: 'lifecycle-zone', OriginUrl: 'https://origin.example' });
  t.true(typeof zone.Id === 'number' && zone.Id > 0);
  t.is(zone.Name, 'lifecycle-zone');
  t.is((await c.getPullZone(zone.Id!)).OriginUrl, 'https://origin.example');
  const updated = await c.updatePullZone(zone.Id!, {
    OriginUrl: 'https://other.example',
    EnableLogging: false,
  });
  t.is(updated.OriginUrl, 'https://other.example');
  t.deepEqual(
    (await c.listPullZones({ search: 'lifecycle' })).map((z) => z.Id),
    [zone.Id],
  );
  await c.deletePullZone(zone.Id!);
  const e = await t.throwsAsync(c.getPullZone(zone.Id!), { instanceOf: CdnApiError });
  t.is(e.kind, 'notFound');
  t.true(h.sent.length >= 2);
  assertBodiesValid(t, h.sent);
});

test('a DnsAccelerate zone reads back its DNS origin port and scheme (issue 49)', async (t) => {
  const h = await startSimClient(t);
  const zone = await h.client.addPullZone({
    Name: 'dns-origin-zone',
    OriginType: 1,
    DnsOriginPort: 8443,
    DnsOriginScheme: 'https',
  });
  t.like(await h.client.getPullZone(zone.Id!), { DnsOriginPort: 8443, DnsOriginScheme: 'https' });
  assertBodiesValid(t, h.sent);
});

test('listPullZones follows pages; with page it returns one page', async (t) => {
  const h = await startSimClient(t);
  for (let i = 0; i < 7; i++)
    await h.client.addPullZone({ Name: `paged-${i}`, OriginUrl: 'https://o.example' });
  t.is((await h.client.listPullZones({ perPage: 5 })).length, 7, 'two pages of 5 followed');
  t.is((await h.client.listPullZones({ page: 2, perPage: 5 })).length, 2, 'second page only');
  assertBodiesValid(t, h.sent);
});

test('hostnames, certificates, force SSL and key type', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const { Id: id } = await c.addPullZone({ Name: 'hosts-zone', OriginUrl: 'https://o.example' });
  const host = 'www.hosts.example';
  await c.addHostname(id!, host);
  await c.setForceSSL(id!, host, true);
  // The hostname's DNS, outside cdn-sim, points at the CDN.
  await h.admin('PUT', `/_sim/external-dns/${host}`);
  await c.loadFreeCertificate(host);
  await c.addCertificate(id!, { hostname: host, certificate: CERT_B64, certificateKey: KEY_B64 });
  await c.updatePrivateKeyType(id!, { Hostname: host, KeyType: 1 });
  let entry = (await c.getPullZone(id!)).Hostnames?.find((x) => x.Value === host);
  t.like(entry, { ForceSSL: true, HasCertificate: true, CertificateKeyType: 1 });
  await c.removeCertificate(id!, host);
  entry = (await c.getPullZone(id!)).Hostnames?.find((x) => x.Value === host);
  t.is(entry?.HasCertificate, false);
  await c.removeHostname(id!, host);
  t.falsy((await c.getPullZone(id!)).Hostnames?.find((x) => x.Value === host));
  t.is(
    h.sent.filter((s) => s.method === 'DELETE').length,
    2,
    'removeHostname/removeCertificate send DELETE with a body',
  );
  assertBodiesValid(t, h.sent);
});

test('referrer and IP lists', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const { Id: id } = await c.addPullZone({ Name: 'lists-zone', OriginUrl: 'https://o.example' });
  await c.addAllowedReferrer(id!, 'good.example');
  await c.addBlockedReferrer(id!, 'bad.example');
  await c.addBlockedIp(id!, '192.0.2.7');
  t.like(await c.getPullZone(id!), {
    AllowedReferrers: ['good.example'],
    BlockedReferrers: ['bad.example'],
    BlockedIps: ['192.0.2.7'],
  });
  await c.removeAllowedReferrer(id!, 'good.example');
  await c.removeBlockedReferrer(id!, 'bad.example');
  await c.removeBlockedIp(id!, '192.0.2.7');
  t.like(await c.getPullZone(id!), { AllowedReferrers: [], BlockedReferrers: [], BlockedIps: [] });
  assertBodiesValid(t, h.sent);
});

test('storage zone name check and video library blocked referrer', async (t) => {
  const h = await startSimClient(t);
  const state = (await h.admin('GET', '/_sim/state')) as {
    storageZones: Array<{ Name: string }>;
    videoLibraries: Array<{ Id: number }>;
  };
  const taken = state.storageZones[0]!.Name;
  t.deepEqual(await h.client.checkStorageZoneAvailability(taken), { available: false });
  t.deepEqual(await h.client.checkStorageZoneAvailability('a-fresh-name-123'), { available: true });
  await h.client.addVideoLibraryBlockedReferrer(state.videoLibraries[0]!.Id, 'leech.example');
  const e = await t.throwsAsync(h.client.addVideoLibraryBlockedReferrer(999999, 'x.example'), {
    instanceOf: CdnApiError,
  });
  t.is(e.kind, 'notFound');
  assertBodiesValid(t, h.sent);
});

test('API keys: listing, paging parameters and client-side range checks', async (t) => {
  const h = await startSimClient(t, {}, ['second-key-abcdefgh']);
  const list = await h.client.listApiKeys({ page: 1, perPage: 5 });
  t.is(list.Items?.length, 2);
  t.true(list.Items?.some((k) => k.Key === h.apiKey));
  const e = await t.throwsAsync(h.client.listApiKeys({ perPage: 1001 }), {
    instanceOf: CdnApiError,
  });
  t.like(e, { kind: 'invalid', field: 'perPage' });
});

test('container apps: create, list, get, container, patch, replace, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const { id } = await c.createApp(appRequest('shop'));
  t.truthy(id);
  t.deepEqual(
    (await c.listApps()).map((a) => a.id),
    [id],
  );
  const app = await c.getApp(id);
  t.is(app.name, 'shop');
  const container = app.containerTemplates[0]!;
  const read = await c.getContainer(id, container.id);
  t.is(read.imageName, 'nginx');
  await c.patchApp(id, { name: 'shop-renamed' });
  t.is((await c.getApp(id)).name, 'shop-renamed');
  await c.replaceApp(id, appRequest('shop-replaced'));
  t.is((await c.getApp(id)).name, 'shop-replaced');
  await c.deleteApp(id);
  const e = await t.throwsAsync(c.getApp(id), { instanceOf: CdnApiError });
  t.is(e.kind, 'notFound');
  t.is(h.sent.find((s) => s.method === 'PATCH')?.path, `/mc/apps/${id}`);
  assertBodiesValid(t, h.sent);
});

test('listApps follows the cursor across pages', async (t) => {
  const h = await startSimClient(t);
  for (let i = 0; i < 3; i++) await h.client.createApp(appRequest(`app-${i}`));
  t.is((await h.client.listApps({ pageSize: 2 })).length, 3);
  t.is(h.sent.length, 3);
  const calls = await callsOf(h, 'GET /mc/apps');
  t.is(calls.count, 2, 'two pages fetched');
  assertBodiesValid(t, h.sent);
});

test('app validation problem becomes invalid with every field error', async (t) => {
  const h = await startSimClient(t);
  const bad = { ...appRequest('ok'), name: '', autoScaling: { min: 0, max: 1 } };
  const e = await t.throwsAsync(h.client.createApp(bad), { instanceOf: CdnApiError });
  t.is(e.kind, 'invalid');
  t.true((e.fields?.length ?? 0) >= 2, 'errors[] kept');
  t.truthy(e.field);
});

test('shield zones: create, get (by pull zone and id), update, list, WAF metrics', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const { Id: pz } = await c.addPullZone({ Name: 'shielded', OriginUrl: 'https://o.example' });
  t.is(await c.getShieldZoneByPullZone(pz!), undefined, 'no shield zone yet');
  const created = await c.createShieldZone({
    pullZoneId: pz!,
    shieldZone: { wafEnabled: true, learningMode: true },
  });
  t.true((created.shieldZoneId ?? 0) > 0);
  t.is(created.pullZoneId, pz);
  t.is(created.wafEnabled, true);
  const conflict = await t.throwsAsync(c.createShieldZone({ pullZoneId: pz!, shieldZone: {} }), {
    instanceOf: CdnApiError,
  });
  t.like(conflict, { kind: 'conflict', status: 409 });
  t.truthy(conflict.errorKey);
  const id = created.shieldZoneId!;
  const updated = await c.updateShieldZone({ shieldZoneId: id, shieldZone: { wafEnabled: false } });
  t.is(updated.wafEnabled, false);
  t.is((await c.getShieldZone(id)).wafEnabled, false);
  t.is((await c.getShieldZoneByPullZone(pz!))?.shieldZoneId, id);
  const page = await c.listShieldZones({ page: 1, perPage: 10 });
  t.is(page.data.length, 1);
  t.is(page.page.currentPage, 1);
  await h.admin('PUT', `/_sim/shield-zones/${id}/waf-rules/913100/metrics`, {
    totalTriggers: 5,
    blockedRequests: 3,
  });
  t.like(await c.getWafRuleMetrics(id, '913100'), { totalTriggers: 5, blockedRequests: 3 });
  const missing = await t.throwsAsync(c.getWafRuleMetrics(999999, '913100'), {
    instanceOf: CdnApiError,
  });
  t.like(missing, { kind: 'notFound', status: 404 });
  t.truthy(missing.errorKey);
  const badRule = await t.throwsAsync(c.getWafRuleMetrics(id, 'no spaces'), {
    instanceOf: CdnApiError,
  });
  t.like(badRule, { kind: 'invalid', field: 'ruleId' });
  const notFound = await t.throwsAsync(c.getShieldZone(999999), { instanceOf: CdnApiError });
  t.is(notFound.kind, 'notFound');
  assertBodiesValid(t, h.sent);
});

test('listAllShieldZones follows pages', async (t) => {
  const h = await startSimClient(t);
  const seeded = (await h.admin('POST', '/_sim/seed', {
    pullZones: Array.from({ length: 3 }, (_, i) => ({
      Name: `seed-${i}`,
      OriginUrl: 'https://o.example',
    })),
  })) as { pullZones: number[] };
  for (const pullZoneId of seeded.pullZones)
    await h.client.createShieldZone({ pullZoneId, shieldZone: {} });
  const page = await h.client.listShieldZones({ page: 1, perPage: 2 });
  t.is(page.data.length, 2);
  t.is((await h.client.listAllShieldZones({ pageSize: 2 })).length, 3);
  t.is((await callsOf(h, 'GET /shield/shield-zones')).count, 3, 'one page by hand, two followed');
  assertBodiesValid(t, h.sent);
});
