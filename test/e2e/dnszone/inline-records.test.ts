/**
 * A DnsZone's inline records as a user drives them with kubectl (issue 53, item 8), on the real
 * kube-apiserver, a real operator process and cdn-sim (strict):
 *
 * - records the zone only adopted (they were on the platform before it listed them), deleted
 *   on the platform behind the operator's back, are reported `NotFound` (Synced=False and
 *   Ready=False, naming each entry) and never created again; once the user drops them from
 *   the spec, the record the zone created itself is created again;
 * - a listed record a DnsRecord object manages is `Synced=False RecordManagedElsewhere`
 *   naming the entry and the object, with no write to the zone; once that object is deleted
 *   the zone applies its spec on its own;
 * - a record value the platform refuses is reported with its entry (`spec.records[1]`);
 * - custom nameservers set in the spec show in `status.nameservers` as soon as they are set.
 */
import test from 'ava';
import type { StoredDnsZone } from '../../../src/simulator/dns-state.js';
import {
  apply,
  conditionOf,
  deleteObject,
  kubectlRaw,
  waitForCondition,
  type KubeJson,
} from '../support/kube.js';
import {
  objectYaml,
  settle,
  startTenancyEnv,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';

const ZONES = 'dnszones.dns.cdn.operator.io';
const RECORDS = 'dnsrecords.dns.cdn.operator.io';
let env: TenancyEnv;
let ns: string;

test.before(async () => {
  env = await startTenancyEnv();
  ns = env.teamA;
});

test.after.always(async () => {
  if (!env) return;
  for (const resource of [RECORDS, ZONES])
    await kubectlRaw(['delete', resource, '--all', '-n', ns, '--wait=true', '--timeout=60s']);
  await env.stop();
});

/** A DnsZone or DnsRecord of the test namespace, polled every `pollSeconds` when given. */
function objectJson(
  kind: 'DnsZone' | 'DnsRecord',
  name: string,
  spec: Record<string, unknown>,
  pollSeconds?: number,
): string {
  const annotations: Record<string, string> = pollSeconds
    ? { 'cdn.operator.io/poll-interval': `${pollSeconds}s` }
    : {};
  return objectYaml(kind, ns, name, spec, annotations);
}

const callCount = (): number => env.sim.calls.snapshot().log.length;

/** Writes to DNS zone `id` (its records included) since `since` calls. */
function zoneWrites(since: number, id: number): string[] {
  return env.sim.calls
    .snapshot()
    .log.slice(since)
    .filter((c) => c.method !== 'GET' && c.path.startsWith(`/dnszone/${id}`))
    .map((c) => c.route);
}

const stored = (id: number): StoredDnsZone | undefined => env.sim.state.dnsZones.get(id);
const messageOf = (obj: KubeJson, type: string): string => conditionOf(obj, type)?.message ?? '';

async function ready(kind: string, name: string): Promise<KubeJson> {
  await waitForCondition(kind, ns, name, 'Synced', 'True');
  return waitForCondition(kind, ns, name, 'Ready', 'True');
}

test.serial(
  'adopted records deleted on the platform are NotFound and never created again',
  async (t) => {
    const zone = await env.cdn.addDnsZone({ Domain: 'adopted.example' });
    const id = Number(zone.Id);
    const adopted = [
      { type: 'A', name: 'www', value: '192.0.2.1' },
      { type: 'TXT', name: '', value: 'v=spf1 -all' },
      { type: 'MX', name: '', value: 'mail.adopted.example', priority: 10 },
    ];
    await env.cdn.addDnsRecord(id, { Type: 0, Name: 'www', Value: '192.0.2.1' });
    await env.cdn.addDnsRecord(id, { Type: 3, Name: '', Value: 'v=spf1 -all' });
    await env.cdn.addDnsRecord(id, {
      Type: 4,
      Name: '',
      Value: 'mail.adopted.example',
      Priority: 10,
    });
    const own = { type: 'CNAME', name: 'shop', value: 'shop.b-cdn.net' };
    await apply(
      objectJson(
        'DnsZone',
        'adopted',
        { adoption: { policy: 'ById', id }, records: [...adopted, own] },
        3,
      ),
    );
    const obj = await ready(ZONES, 'adopted');
    t.deepEqual(
      (obj.status?.records as { value: string; created?: boolean }[]).map((r) => [
        r.value,
        r.created === true,
      ]),
      [
        ['192.0.2.1', false],
        ['v=spf1 -all', false],
        ['mail.adopted.example', false],
        ['shop.b-cdn.net', true],
      ],
    );

    // Every record deleted behind the operator's back (the test's DELETEs are not counted).
    const before = callCount();
    const operatorWrites = (): string[] =>
      zoneWrites(before, id).filter((r) => !r.startsWith('DELETE '));
    for (const r of [...stored(id)!.records]) await env.cdn.deleteDnsRecord(id, Number(r.Id));
    const gone = await waitForCondition(ZONES, ns, 'adopted', 'Synced', 'False', 'NotFound');
    t.like(conditionOf(gone, 'Ready'), { status: 'False', reason: 'NotFound' });
    const message = messageOf(gone, 'Synced');
    for (const entry of [
      'spec.records[0] (A www',
      'spec.records[1] (TXT @',
      'spec.records[2] (MX @',
    ])
      t.true(message.includes(entry), message);
    t.regex(message, /never created again/);
    t.false(message.includes('spec.records[3]'), 'the created record is not reported');
    await settle(7000); // two polls
    t.deepEqual(operatorWrites(), [], 'an adopted record never leads to a create');
    t.is(stored(id)?.records.length, 0);

    // Without the adopted entries, the record the zone created is created again.
    await apply(
      objectJson('DnsZone', 'adopted', { adoption: { policy: 'ById', id }, records: [own] }, 3),
    );
    const back = await ready(ZONES, 'adopted');
    t.deepEqual(operatorWrites(), ['PUT /dnszone/{zoneId}/records']);
    t.like((back.status?.records as unknown[])[0], { value: 'shop.b-cdn.net', created: true });
  },
);

test.serial(
  'a listed record a DnsRecord manages: Synced=False RecordManagedElsewhere, nothing written',
  async (t) => {
    const apex = { type: 'A', name: '', value: '192.0.2.5' };
    await apply(objectJson('DnsZone', 'shared', { domain: 'shared.example', records: [apex] }, 3));
    const id = Number((await ready(ZONES, 'shared')).status?.dnsZoneId);
    const txt = { type: 'TXT', name: 'team', value: 'owned' };
    await apply(objectJson('DnsRecord', 'team-txt', { dnsZoneRef: { name: 'shared' }, ...txt }));
    await ready(RECORDS, 'team-txt');

    const before = callCount();
    await apply(
      objectJson('DnsZone', 'shared', { domain: 'shared.example', records: [apex, txt] }, 3),
    );
    const refused = await waitForCondition(
      ZONES,
      ns,
      'shared',
      'Synced',
      'False',
      'RecordManagedElsewhere',
    );
    t.regex(
      messageOf(refused, 'Synced'),
      new RegExp(
        `spec\\.records\\[1\\] \\(TXT team "owned"\\) is managed by DnsRecord ${ns}/team-txt`,
      ),
    );
    await settle(4000);
    t.deepEqual(zoneWrites(before, id), [], 'nothing written while the conflict stands');

    // The DnsRecord deletes its record; the zone then applies its spec on its own.
    await deleteObject(RECORDS, ns, 'team-txt');
    await waitGone(RECORDS, ns, 'team-txt');
    const applied = await waitForCondition(
      ZONES,
      ns,
      'shared',
      'Synced',
      'True',
      'ReconcileSuccess',
      90_000,
    );
    t.true(
      stored(id)?.records.some((r) => r.Type === 3 && r.Name === 'team' && r.Value === 'owned'),
    );
    t.like(
      (applied.status?.records as { value: string; created?: boolean }[]).find(
        (r) => r.value === 'owned',
      ),
      { created: true },
    );
  },
);

test.serial('a record value the platform refuses is reported with its entry', async (t) => {
  await apply(
    objectJson('DnsZone', 'refused', {
      domain: 'refused.example',
      records: [
        { type: 'A', name: 'www', value: '192.0.2.1' },
        { type: 'A', name: 'bad', value: 'not-an-address' },
      ],
    }),
  );
  const refused = await waitForCondition(ZONES, ns, 'refused', 'Synced', 'False', 'InvalidSpec');
  const message = messageOf(refused, 'Synced');
  t.regex(message, /spec\.records\[1\] \(A bad "not-an-address"\)/);
  t.regex(message, /spec\.records\[1\]\.value \(Value\): /);
});

test.serial('custom nameservers set in the spec show in status.nameservers', async (t) => {
  const ns = (n: string): Record<string, unknown> => ({
    domain: 'names.example',
    customNameservers: { enabled: true, ns1: 'ns1.names.example', ns2: `${n}.names.example` },
    soaEmail: 'dns@names.example',
  });
  // The default poll interval: what status shows comes from the pass that set them.
  await apply(objectJson('DnsZone', 'names', ns('ns2')));
  const created = await ready(ZONES, 'names');
  t.deepEqual(created.status?.nameservers, ['ns1.names.example', 'ns2.names.example']);
  await apply(objectJson('DnsZone', 'names', ns('ns3')));
  const changed = await ready(ZONES, 'names');
  t.deepEqual(changed.status?.nameservers, ['ns1.names.example', 'ns3.names.example']);
});

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
