/**
 * DnsRecord end to end on the real apiserver, a real operator process and cdn-sim (strict),
 * with two tenant namespaces: every documented record type round-trips (one create each, then
 * no write), an update and drift are restored with one write, adoption by id and ByName write
 * nothing, a second namespace asking for the same record id or naming another namespace's pull
 * zone by id is refused with 0 platform writes, a PullZone record follows its pullZoneRef, and
 * certificates follow DNS: a PullZoneConfig's free certificate stays CertificatePending (in
 * CertificatesReady, the zone Ready meanwhile) until a DnsRecord CNAME points its hostname at
 * the zone, then is issued on the next retry. The DNS
 * zone is made in cdn-sim directly (the DnsZone kind is another folder) and named by
 * spec.dnsZoneId, which no object claims.
 */
import test from 'ava';
import type { DnsRecordSpec } from '../../../src/controllers/dnsrecord/types.js';
import { recordSamples } from '../../support/dns-record-samples.js';
import { apply, conditionOf, deleteObject, kubectl, patchObject } from '../support/kube.js';
import {
  objectYaml,
  PZC,
  resetCalls,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';

const DNSR = 'dnsrecords.dns.cdn.operator.io';
const DOMAIN = 'e2e-records.example';
let env: TenancyEnv;
let zoneId: number;

test.before(async () => {
  env = await startTenancyEnv();
  zoneId = Number((await env.cdn.addDnsZone({ Domain: DOMAIN })).Id);
});

test.after.always(async () => {
  await env?.stop();
});

const record = (ns: string, name: string, spec: Partial<DnsRecordSpec>, poll?: string): string =>
  objectYaml(
    'DnsRecord',
    ns,
    name,
    { dnsZoneId: zoneId, ...spec },
    poll ? { 'cdn.operator.io/poll-interval': poll } : {},
  );

async function dnsWrites(): Promise<string[]> {
  return (await simWrites(env.sim))
    .filter((c) => c.path.startsWith('/dnszone'))
    .map((c) => `${c.method} ${c.path}`);
}

function liveRecord(id: number): Record<string, unknown> | undefined {
  const zone = env.sim.state.dnsZones.get(zoneId);
  return zone?.records.find((r) => Number(r.Id) === id);
}

test.serial(
  'every record type round-trips: one create each (under the provisional comment) and its rename, then no write',
  async (t) => {
    const { teamA } = env;
    await apply(
      objectYaml('PullZoneConfig', teamA, 'site', { settings: { originUrl: 'https://o.example' } }),
    );
    const site = await waitCondition(PZC, teamA, 'site', 'Ready', 'True');
    await resetCalls(env.sim);
    const samples = recordSamples(0);
    for (const s of samples) {
      const spec =
        s.type === 'PullZone' ? { ...s, pullZoneId: undefined, pullZoneRef: { name: 'site' } } : s;
      await apply(
        record(
          teamA,
          `type-${s.type.toLowerCase()}`,
          JSON.parse(JSON.stringify(spec)) as Partial<DnsRecordSpec>,
        ),
      );
    }
    for (const s of samples) {
      const obj = await waitCondition(DNSR, teamA, `type-${s.type.toLowerCase()}`, 'Ready', 'True');
      t.like(obj.status, { dnsZoneId: zoneId, type: s.type }, s.type);
      if (s.type === 'PullZone') t.is(obj.status?.linkedPullZoneId, site.status?.pullZoneId);
    }
    await settle(3000);
    const writes = await dnsWrites();
    // The create carries the provisional name in the comment (kit/identity.ts, the proof a lost
    // create is ours); the update of the same pass clears it.
    t.is(writes.length, 2 * samples.length, writes.join('\n'));
    const creates = writes.filter((w) => w === `PUT /dnszone/${zoneId}/records`);
    t.is(creates.length, samples.length, writes.join('\n'));
    t.true(
      writes.every(
        (w) =>
          w === `PUT /dnszone/${zoneId}/records` ||
          w.startsWith(`POST /dnszone/${zoneId}/records/`),
      ),
    );
  },
);

test.serial('update and drift: one write each, only the changed member', async (t) => {
  const { teamA } = env;
  await apply(
    record(teamA, 'drift', { type: 'A', name: 'drift', value: '192.0.2.1', ttl: 60 }, '5s'),
  );
  const obj = await waitCondition(DNSR, teamA, 'drift', 'Ready', 'True');
  const id = Number(obj.status?.recordId);
  await resetCalls(env.sim);
  await patchObject(DNSR, teamA, 'drift', { spec: { ttl: 120 } });
  await waitCondition(DNSR, teamA, 'drift', 'Ready', 'True');
  await settle(2000);
  t.deepEqual(await dnsWrites(), [`POST /dnszone/${zoneId}/records/${id}`]);
  t.is(liveRecord(id)?.Ttl, 120);
  await env.cdn.updateDnsRecord(zoneId, id, { Value: '192.0.2.99' });
  await resetCalls(env.sim);
  const deadline = Date.now() + 30_000;
  while (liveRecord(id)?.Value !== '192.0.2.1' && Date.now() < deadline) await settle(500);
  t.is(liveRecord(id)?.Value, '192.0.2.1', 'drift restored');
  t.deepEqual(await dnsWrites(), [`POST /dnszone/${zoneId}/records/${id}`]);
});

test.serial(
  'adoption by id and ByName writes nothing; a second namespace is refused',
  async (t) => {
    const { teamA, teamB } = env;
    const byId = await env.cdn.addDnsRecord(zoneId, { Type: 3, Name: 'adopt-id', Value: 'x' });
    await env.cdn.addDnsRecord(zoneId, { Type: 3, Name: 'adopt-name', Value: 'y' });
    await resetCalls(env.sim);
    await apply(
      record(teamA, 'adopt-id', {
        type: 'TXT',
        name: 'adopt-id',
        adoption: { policy: 'ById', id: Number(byId.Id) },
      }),
    );
    await apply(
      record(teamA, 'adopt-name', {
        type: 'TXT',
        name: 'adopt-name',
        value: 'y',
        adoption: { policy: 'ByName' },
      }),
    );
    await waitCondition(DNSR, teamA, 'adopt-id', 'Ready', 'True');
    const byName = await waitCondition(DNSR, teamA, 'adopt-name', 'Ready', 'True');
    t.like(byName.status, { value: 'y', ownership: { adopted: true, deletionPolicy: 'Orphan' } });

    await apply(
      record(teamB, 'steal', {
        type: 'TXT',
        name: 'adopt-id',
        adoption: { policy: 'ById', id: Number(byId.Id) },
        deletionPolicy: 'Delete',
      }),
    );
    const refused = await waitCondition(DNSR, teamB, 'steal', 'Synced', 'False', 'AlreadyManaged');
    t.regex(conditionOf(refused, 'Synced')?.message ?? '', new RegExp(teamA));
    const site = await waitCondition(PZC, teamA, 'site', 'Ready', 'True');
    await apply(
      record(teamB, 'foreign-pz', {
        type: 'PullZone',
        name: 'foreign',
        pullZoneId: Number(site.status?.pullZoneId),
      }),
    );
    await waitCondition(DNSR, teamB, 'foreign-pz', 'Synced', 'False', 'ReferenceNotAllowed');
    await settle(2000);
    t.deepEqual(await dnsWrites(), [], 'adoption and refusals wrote nothing');
    await deleteObject(DNSR, teamB, 'steal');
    await waitGone(DNSR, teamB, 'steal');
    t.truthy(liveRecord(Number(byId.Id)), 'deleting the refused object deleted nothing');
  },
);

test.serial('the apiserver refuses a spec that breaks a per-type rule', async (t) => {
  const err = await t.throwsAsync(
    apply(record(env.teamA, 'bad', { type: 'TXT', name: 'bad', value: 'v', weight: 3 })),
  );
  t.regex(err?.message ?? '', /weight applies only to A, AAAA, SRV records/);
  // The example is valid as written (server-side dry run: schema and CEL rules).
  await kubectl([
    'apply',
    '--dry-run=server',
    '-n',
    env.teamA,
    '-f',
    'examples/dns/dnsrecord.yaml',
  ]);
  t.pass();
});

test.serial(
  'certificates follow DNS: pending while the hostname points elsewhere, issued on the retry after the CNAME',
  async (t) => {
    const { teamA } = env;
    const host = `www.${DOMAIN}`;
    await apply(
      objectYaml('PullZoneConfig', teamA, 'cert', {
        settings: { originUrl: 'https://o.example' },
        hostnames: [{ hostname: host, certificate: { type: 'Free' } }],
      }),
    );
    const pending = await waitCondition(
      PZC,
      teamA,
      'cert',
      'CertificatesReady',
      'False',
      'CertificatePending',
    );
    t.regex(
      conditionOf(pending, 'CertificatesReady')?.message ?? '',
      /does not point to the pull zone yet/,
    );
    t.is(conditionOf(pending, 'Synced')?.status, 'True', 'not a spec error');
    t.is(conditionOf(pending, 'Ready')?.status, 'True', 'the zone serves meanwhile');
    const cdnHostname = String(pending.status?.cdnHostname);
    await apply(record(teamA, 'www', { type: 'CNAME', name: 'www', value: cdnHostname }));
    await waitCondition(DNSR, teamA, 'www', 'Ready', 'True');
    const issued = await waitCondition(
      PZC,
      teamA,
      'cert',
      'CertificatesReady',
      'True',
      undefined,
      120_000,
    );
    const hostStatus = (issued.status?.hostnames as { certificate: unknown }[] | undefined)?.[0];
    t.deepEqual(hostStatus?.certificate, { type: 'Free', state: 'Issued' });
  },
);

test.serial('deletion: Delete removes the record, an adopted one is orphaned', async (t) => {
  const { teamA } = env;
  const created = await waitCondition(DNSR, teamA, 'type-txt', 'Ready', 'True');
  const adopted = await waitCondition(DNSR, teamA, 'adopt-name', 'Ready', 'True');
  await deleteObject(DNSR, teamA, 'type-txt');
  await deleteObject(DNSR, teamA, 'adopt-name');
  await waitGone(DNSR, teamA, 'type-txt');
  await waitGone(DNSR, teamA, 'adopt-name');
  t.falsy(liveRecord(Number(created.status?.recordId)));
  t.truthy(liveRecord(Number(adopted.status?.recordId)));
});

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
