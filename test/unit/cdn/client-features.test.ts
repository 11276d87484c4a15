/**
 * Edge rule, purge and storage zone client methods against cdn-sim; every request body is
 * checked against the official request schema (assertBodiesValid).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { assertBodiesValid, startSimClient } from './sim-harness.js';

test('edge rules: create, read back from the zone, update by Guid, toggle, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await c.addPullZone({ Name: 'client-er', OriginUrl: 'https://o.example' });
  const id = zone.Id!;
  await c.addOrUpdateEdgeRule(id, {
    ActionType: 5,
    ActionParameter1: 'X-Frame-Options',
    ActionParameter2: 'DENY',
    Triggers: [{ Type: 3, PatternMatches: ['html'], PatternMatchingType: 0 }],
    TriggerMatchingType: 1,
    Enabled: true,
    Description: 'frame',
  });
  const [rule] = (await c.getPullZone(id)).EdgeRules ?? [];
  t.truthy(rule?.Guid);
  await c.addOrUpdateEdgeRule(id, { ...rule, ActionParameter2: 'SAMEORIGIN' });
  await c.setEdgeRuleEnabled(id, rule!.Guid!, false);
  const [after] = (await c.getPullZone(id)).EdgeRules ?? [];
  t.like(after, { Guid: rule?.Guid, ActionParameter2: 'SAMEORIGIN', Enabled: false });
  await c.deleteEdgeRule(id, rule!.Guid!);
  t.deepEqual((await c.getPullZone(id)).EdgeRules, []);
  const e = await t.throwsAsync(c.deleteEdgeRule(id, rule!.Guid!), { instanceOf: CdnApiError });
  t.is(e.kind, 'notFound');
  await t.throwsAsync(c.deleteEdgeRule(id, ''), { instanceOf: CdnApiError, message: /edgeRuleId/ });
  assertBodiesValid(t, h.sent);
});

test('purge: zone and cache tag send valid bodies, URL purge validates the URL first', async (t) => {
  const h = await startSimClient(t);
  const zone = await h.client.addPullZone({ Name: 'client-purge', OriginUrl: 'https://o.example' });
  await h.client.purgePullZone(zone.Id!);
  await h.client.purgePullZone(zone.Id!, 'tag-1');
  await h.client.purgeUrl('https://client-purge.b-cdn.net/img/*', { async: true });
  const bad = await t.throwsAsync(h.client.purgeUrl('not a url'), { instanceOf: CdnApiError });
  t.is(bad.kind, 'invalid');
  const calls = (await h.admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number }>;
  };
  t.is(calls.routes['POST /pullzone/{id}/purgeCache']?.count, 2);
  t.is(calls.routes['POST /purge']?.count, 1, 'the invalid URL never reached the API');
  assertBodiesValid(t, h.sent);
});

test('storage zones: add, list, get, update, reset, delete; passwords never in error text', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await c.addStorageZone({ Name: 'client-store', Region: 'DE', ZoneTier: 0 });
  t.truthy(zone.Password);
  t.deepEqual(
    (await c.listStorageZones({ search: 'client-store' })).map((z) => z.Id),
    [zone.Id],
  );
  await c.updateStorageZone(zone.Id!, { ReplicationZones: ['NY'] });
  t.deepEqual((await c.getStorageZone(zone.Id!)).ReplicationRegions, ['NY']);
  await c.resetStorageZonePassword(zone.Id!, 'read-write');
  await c.resetStorageZonePassword(zone.Id!, 'read-only');
  const fresh = await c.getStorageZone(zone.Id!);
  t.not(fresh.Password, zone.Password);
  t.not(fresh.ReadOnlyPassword, zone.ReadOnlyPassword);
  // The API echoes a bad Region in its message; a password there must be scrubbed.
  const dup = await t.throwsAsync(
    c.addStorageZone({ Name: 'client-store-2', Region: String(fresh.Password) }),
    { instanceOf: CdnApiError },
  );
  t.false(dup.message.includes(String(fresh.Password)));
  await c.deleteStorageZone(zone.Id!);
  const gone = await t.throwsAsync(c.getStorageZone(zone.Id!), { instanceOf: CdnApiError });
  t.is(gone.kind, 'notFound');
  assertBodiesValid(t, h.sent);
});
