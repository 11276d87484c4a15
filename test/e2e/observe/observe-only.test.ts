/**
 * Observe-only objects (`spec.managementPolicy: Observe`, issue 48) end to end on the real
 * apiserver, a real operator process and cdn-sim (strict): a DnsZone that only observes a zone
 * made outside the operator is Ready with its id, serves as `dnsZoneRef` for a DnsRecord, shows
 * a change made on the platform in its status, writes nothing to the zone and deletes nothing
 * when it goes; it never keeps another object from managing the zone, and an observer in
 * another namespace is refused once the zone is managed (and its id reaches no record there).
 * The CRD's rules: Observe needs `spec.adoption`, and the policy is immutable.
 */
import test from 'ava';
import {
  apply,
  conditionOf,
  deleteObject,
  getObject,
  kubectlRaw,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { callCount, writesSince } from '../support/sim-log.js';
import {
  objectYaml,
  settle,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';

const DNSZ = 'dnszones.dns.cdn.operator.io';
const DNSR = 'dnsrecords.dns.cdn.operator.io';
const DOMAIN = 'e2e-observed.example';
const FAST = { 'cdn.operator.io/poll-interval': '3s' };
const OBSERVE = { domain: DOMAIN, managementPolicy: 'Observe', adoption: { policy: 'ByName' } };
let env: TenancyEnv;
let zoneId = 0;

test.before(async () => {
  env = await startTenancyEnv();
  zoneId = Number((await env.cdn.addDnsZone({ Domain: DOMAIN })).Id);
});

test.after.always(async () => {
  await env?.stop();
});

const recordCountOf = (o: KubeJson | undefined): number => Number(o?.status?.recordCount ?? -1);

test.serial(
  'an observe-only DnsZone is Ready with its id, is a dnsZoneRef target and writes nothing',
  async (t) => {
    const { teamA } = env;
    const since = callCount(env.sim);
    await apply(objectYaml('DnsZone', teamA, 'observed', OBSERVE, FAST));
    const zone = await waitCondition(DNSZ, teamA, 'observed', 'Ready', 'True');
    t.is(Number(zone.status?.dnsZoneId), zoneId);
    t.like(conditionOf(zone, 'Synced'), { status: 'True', reason: 'ObserveOnly' });
    t.deepEqual(zone.metadata.finalizers ?? [], [], 'no finalizer');

    await apply(
      objectYaml('DnsRecord', teamA, 'www', {
        dnsZoneRef: { name: 'observed' },
        type: 'A',
        name: 'www',
        value: '192.0.2.81',
      }),
    );
    const rec = await waitCondition(DNSR, teamA, 'www', 'Ready', 'True');
    t.is(Number(rec.status?.dnsZoneId), zoneId, 'the record went into the observed zone');
    const writes = writesSince(env.sim, since);
    t.deepEqual(
      writes.filter((w) => !/\/dnszone\/\d+\/records(\/\d+)?$/.test(w)),
      [],
      `only the record's own write reached the zone: ${writes.join(', ')}`,
    );
  },
);

test.serial(
  'a change made on the platform shows in the observe-only object’s status',
  async (t) => {
    const { teamA } = env;
    const liveCount = (): number => env.sim.state.dnsZones.get(zoneId)?.records?.length ?? 0;
    const before = liveCount();
    await env.cdn.addDnsRecord(zoneId, { Type: 3, Name: 'outside', Value: 'made by hand' });
    t.is(liveCount(), before + 1);
    const after = await waitFor(
      async () => {
        const o = await getObject(DNSZ, teamA, 'observed');
        return recordCountOf(o) === before + 1 ? o : undefined;
      },
      30_000,
      'the record made by hand counted in status',
    );
    t.is(recordCountOf(after), liveCount());
  },
);

test.serial(
  'an observer holds nothing against an owner; in another namespace it is refused once the zone is managed',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(objectYaml('DnsZone', teamB, 'peek', OBSERVE, FAST));
    await waitCondition(DNSZ, teamB, 'peek', 'Ready', 'True');

    // team-a takes the zone over: neither observer (older, one in each namespace) refuses it.
    await apply(
      objectYaml('DnsZone', teamA, 'owner', {
        domain: DOMAIN,
        adoption: { policy: 'ById', id: zoneId },
      }),
    );
    const owner = await waitCondition(DNSZ, teamA, 'owner', 'Synced', 'True', 'ReconcileSuccess');
    t.is(Number(owner.status?.dnsZoneId), zoneId);

    // team-b's observer is re-checked at once and refused; its id reaches no record of team-b.
    const refused = await waitCondition(
      DNSZ,
      teamB,
      'peek',
      'Synced',
      'False',
      'ReferenceNotAllowed',
      20_000,
    );
    t.regex(conditionOf(refused, 'Synced')?.message ?? '', new RegExp(teamA));
    const since = callCount(env.sim);
    await apply(
      objectYaml('DnsRecord', teamB, 'sneak', {
        dnsZoneRef: { name: 'peek' },
        type: 'TXT',
        name: 'sneak',
        value: 'team-b was here',
      }),
    );
    await waitCondition(DNSR, teamB, 'sneak', 'Ready', 'False', 'ReferenceNotReady', 30_000);
    await settle(1000);
    t.deepEqual(writesSince(env.sim, since), [], 'nothing written into team-a’s zone for team-b');
    const samePlace = await getObject(DNSZ, teamA, 'observed');
    t.like(conditionOf(samePlace, 'Synced'), { status: 'True', reason: 'ObserveOnly' });
    await deleteObject(DNSR, teamB, 'sneak');
  },
);

test.serial('deleting an observe-only object makes no platform call', async (t) => {
  const { teamA, teamB } = env;
  const since = callCount(env.sim);
  await deleteObject(DNSZ, teamA, 'observed');
  await deleteObject(DNSZ, teamB, 'peek');
  t.true(await waitGone(DNSZ, teamA, 'observed'));
  t.true(await waitGone(DNSZ, teamB, 'peek'));
  await settle(1000);
  t.deepEqual(
    writesSince(env.sim, since).filter((w) => w.startsWith('DELETE')),
    [],
    'no delete sent for an observer',
  );
  t.true(env.sim.state.dnsZones.has(zoneId), 'the zone is still there');
});

test.serial('the CRD refuses Observe without adoption, and a changed policy', async (t) => {
  const { teamA } = env;
  const noAdoption = await kubectlRaw(
    ['apply', '--dry-run=server', '-f', '-'],
    objectYaml('DnsZone', teamA, 'blind', { domain: 'blind.example', managementPolicy: 'Observe' }),
  );
  t.not(noAdoption.code, 0);
  t.regex(noAdoption.stderr, /managementPolicy Observe requires spec\.adoption/);
  const changed = await kubectlRaw(
    ['apply', '-f', '-'],
    objectYaml('DnsZone', teamA, 'owner', {
      domain: DOMAIN,
      adoption: { policy: 'ById', id: zoneId },
      managementPolicy: 'Observe',
    }),
  );
  t.not(changed.code, 0);
  t.regex(changed.stderr, /managementPolicy is immutable/);
});
