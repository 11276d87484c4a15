/**
 * Storage zone client methods (src/cdn/storage-zones.ts) against cdn-sim; every request body is checked against the official request
 * schema (assertBodiesValid).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { assertBodiesValid, startSimClient } from './sim-harness.js';

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
