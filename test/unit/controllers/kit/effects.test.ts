/**
 * One rule for effects (issue 53, items 3 and 5): what a pass did on the platform that a later
 * pass must know is recorded so that a refused status write (409) or a failure later in the
 * pass cannot lose it (`ctx.recordEffect`, written again without precondition):
 *
 * - a DnsZone remembers which inline records it created when a later record call fails in the
 *   same pass, so dropping one from `spec.records` under Additive still deletes it;
 * - the per-object purge bound holds when every status write is refused with 409 (a tenant
 *   bumping the purge annotation in a loop): one whole-zone purge, the next deferred.
 */
import test from 'ava';
import { PURGE_ANNOTATION } from '../../../../src/controllers/pullzoneconfig/purge.js';
import { callCount, startWorld, Subject, writesSince, type World } from './world.js';

let world: World;

test.before(async () => {
  world = await startWorld();
});

test.after.always(async () => {
  await world?.close();
});

interface ZoneRecord {
  id: number;
  name: string;
  created?: boolean;
}

test.serial(
  'DnsZone: a record created before a later call of the pass failed is still known as created',
  async (t) => {
    const domain = `effects-${process.pid}.example.com`;
    const good = { type: 'A', name: 'www', value: '192.0.2.1' };
    // The platform refuses a CNAME beside another record of the name (RFC 1034): the pass
    // fails after the A record was created.
    const clash = { type: 'CNAME', name: 'www', value: 'elsewhere.example.net' };
    const s = new Subject(world, { kind: 'DnsZone' }, 'effects-zone', {
      domain,
      records: [good, clash],
    });
    for (let i = 0; i < 3; i++) await s.pass();
    t.not(s.condition('Synced')?.status, 'True', 'the pass failed on the CNAME');
    const records = (s.obj.status?.records ?? []) as ZoneRecord[];
    t.true(
      records.some((r) => r.name === 'www' && r.created === true),
      JSON.stringify(s.obj.status?.records),
    );
    // Dropped from the spec under Additive: a record the zone created is deleted.
    s.edit((o) => {
      o.spec = { ...o.spec, records: [] };
      o.metadata.generation = 2;
    });
    await s.settle();
    const zoneId = Number(s.obj.status?.dnsZoneId);
    const live = (await world.client.getDnsZone(zoneId)).Records ?? [];
    t.false(
      live.some((r) => r.Name === 'www' && r.Type === 0),
      'the record the zone created is gone',
    );
  },
);

test.serial(
  'PullZoneConfig: the purge bound holds when every status write is refused with 409',
  async (t) => {
    const s = new Subject(world, { kind: 'PullZoneConfig' }, 'effects-purge', {
      settings: { originUrl: 'https://o.example.com' },
    });
    await s.settle();
    const zoneId = s.id('pullZoneId');
    const mark = callCount(world);
    s.conflicts = 1_000;
    for (let i = 0; i < 10; i++) {
      s.edit((o) => {
        o.metadata.annotations = { ...o.metadata.annotations, [PURGE_ANNOTATION]: `bump-${i}` };
      });
      await s.pass();
    }
    const purges = writesSince(world, mark).filter(
      (w) => w.route === 'POST /pullzone/{id}/purgeCache',
    );
    t.is(purges.length, 1, `one whole-zone purge of zone ${zoneId} per minute`);
    t.truthy((s.obj.status?.purge as { startTime?: string } | undefined)?.startTime);
  },
);
