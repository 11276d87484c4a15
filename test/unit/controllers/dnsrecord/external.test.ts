/**
 * The DnsRecord resource on the kit's CRUD client (index.ts, kit/crud-external.ts) against an in-process cdn-sim (strict): every record type is created by
 * content and then observed in sync with no further write; drift is restored with one update
 * carrying only the drifted member; a deleted record is created again; adoption only by id or
 * ByName (ambiguity refused); the content claim is known before anything is sent; deletion
 * policies; nothing the documents reject.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { DnsRecord as DnsRecordModel } from '../../../../src/cdn/dns-types.js';
import { dnsRecordResource } from '../../../../src/controllers/dnsrecord/index.js';
import type { ResolvedRefs } from '../../../../src/controllers/dnsrecord/references.js';
import type { DnsRecord, DnsRecordSpec } from '../../../../src/controllers/dnsrecord/types.js';
import { CrudExternal } from '../../../../src/controllers/kit/crud-external.js';
import type { ExternalContext, Observation } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { recordSamples } from '../../../support/dns-record-samples.js';

const API_KEY = 'dnsrecord-unit-key';
let sim: SimulatorHandle;
let client: CdnClient;
let zoneId: number;
let pullZoneId: number;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  zoneId = Number((await client.addDnsZone({ Domain: 'records.example' })).Id);
  pullZoneId = Number(
    (await client.addPullZone({ Name: 'dnsrecord-unit-pz', OriginUrl: 'https://o.example' })).Id,
  );
});

test.after.always(async () => {
  await sim?.close();
});

function ctxOf(externalId?: string, extra: Partial<ExternalContext> = {}): ExternalContext {
  return {
    ...(externalId !== undefined ? { externalId } : {}),
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    ...extra,
  };
}

function objectOf(name: string, spec: Omit<DnsRecordSpec, 'dnsZoneId'>): DnsRecord {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsRecord',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { ...spec, dnsZoneId: zoneId },
  };
}

function external(
  obj: DnsRecord,
  refs: ResolvedRefs = { zoneId },
): CrudExternal<DnsRecord, DnsRecordModel> {
  const linked = obj.spec?.type === 'PullZone' ? { pullZoneId } : {};
  const resource = dnsRecordResource({ client, account: 'acct' }, obj, { ...refs, ...linked });
  return new CrudExternal(resource);
}

async function writes(): Promise<string[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const body = (await res.json()) as { log: { method: string; route: string }[] };
  return body.log.filter((c) => c.method !== 'GET').map((c) => c.route);
}

/** One pass like the runtime's: observe, then create or update; status merged. */
async function pass(obj: DnsRecord): Promise<{ obj: DnsRecord; obs: Observation }> {
  const ext = external(obj);
  const id = obj.spec?.adoption?.id ?? obj.status?.recordId;
  const ctx = ctxOf(id !== undefined ? String(id) : undefined);
  const obs = await ext.observe(obj, ctx);
  let status = { ...obj.status, ...obs.status };
  if (!obs.exists) {
    const created = await ext.create(obj, ctx);
    status = { ...status, ...created.status, recordId: Number(created.externalId) };
  } else if (!obs.upToDate) {
    await ext.update(obj, obs, ctx);
  }
  return { obj: { ...obj, status }, obs };
}

for (const sample of recordSamples(0)) {
  test.serial(`${sample.type}: one create, then in sync with no write`, async (t) => {
    const spec = sample.type === 'PullZone' ? { ...sample, pullZoneId } : sample;
    const before = (await writes()).length;
    const { obj } = await pass(objectOf(`rec-${sample.type.toLowerCase()}`, spec));
    t.deepEqual((await writes()).slice(before), ['PUT /dnszone/{zoneId}/records']);
    const again = await pass(obj);
    t.true(again.obs.upToDate, JSON.stringify(again.obs.diff));
    t.is((await writes()).length, before + 1, 'no write once in sync');
    t.like(again.obj.status, { dnsZoneId: zoneId, type: sample.type });
    if (sample.type === 'PullZone') t.is(again.obj.status?.linkedPullZoneId, pullZoneId);
  });
}

test.serial(
  'drift: one update with only the drifted member; a deleted record is recreated',
  async (t) => {
    let { obj } = await pass(
      objectOf('drift', { type: 'CNAME', name: 'drift', value: 'a.example.net', ttl: 60 }),
    );
    const id = Number(obj.status?.recordId);
    await client.updateDnsRecord(zoneId, id, { Ttl: 999, Comment: 'theirs' });
    const before = (await writes()).length;
    ({ obj } = await pass(obj));
    t.deepEqual((await writes()).slice(before), ['POST /dnszone/{zoneId}/records/{id}']);
    const live = (await client.getDnsZone(zoneId)).Records?.find((r) => r.Id === id);
    t.like(live, { Ttl: 60, Comment: 'theirs' }, 'the unmanaged comment is left alone');
    await client.deleteDnsRecord(zoneId, id);
    const recreated = await pass(obj);
    t.false(recreated.obs.exists);
    t.not(recreated.obj.status?.recordId, id);
  },
);

test.serial('adoption: by id, ByName (type + name + value), ambiguity refused', async (t) => {
  const made = await client.addDnsRecord(zoneId, { Type: 3, Name: 'adopt', Value: 'one' });
  await client.addDnsRecord(zoneId, { Type: 3, Name: 'adopt', Value: 'two' });
  const before = (await writes()).length;
  const byId = await pass(
    objectOf('by-id', {
      type: 'TXT',
      name: 'adopt',
      value: 'one',
      adoption: { policy: 'ById', id: Number(made.Id) },
    }),
  );
  t.true(byId.obs.exists);
  t.true(byId.obs.upToDate);
  const byName = await pass(
    objectOf('by-name', {
      type: 'TXT',
      name: 'adopt',
      value: 'two',
      adoption: { policy: 'ByName' },
    }),
  );
  t.true(byName.obs.exists);
  t.is(byName.obs.status?.value, 'two');
  t.is((await writes()).length, before, 'adoption writes nothing');
  const ambiguous = objectOf('ambiguous', {
    type: 'TXT',
    name: 'adopt',
    adoption: { policy: 'ByName' },
  });
  const err = await t.throwsAsync(external(ambiguous).observe(ambiguous, ctxOf()));
  t.regex(
    err?.message ?? '',
    /2 DNS record resources match TXT record "adopt" \(ids \d+, \d+\).*adopt one by id \(spec\.adoption\.policy ById\)/,
  );
  const missing = objectOf('missing', {
    type: 'TXT',
    name: 'nothing',
    value: 'x',
    adoption: { policy: 'ById', id: 999999 },
  });
  await t.throwsAsync(external(missing).observe(missing, ctxOf('999999')), {
    message: /DNS record 999999 \(spec\.adoption\.id\): it does not exist/,
  });
});

test.serial(
  'without an id or adoption nothing is looked up; a lost create is found by its provisional comment only',
  async (t) => {
    const obj = objectOf('lost', { type: 'A', name: 'lost', value: '192.0.2.55' });
    const calls = async (): Promise<number> => {
      const res = await fetch(`${sim.url}/_sim/calls`, {
        headers: { 'X-Sim-Admin-Token': sim.adminToken },
      });
      return ((await res.json()) as { log: unknown[] }).log.length;
    };
    const before = await calls();
    t.false((await external(obj).observe(obj, ctxOf())).exists);
    t.is(await calls(), before, 'observe of a new record reads nothing');
    const token = { createPending: true, createToken: '99887766554433aa' };
    // Someone else's record with exactly this content is no proof that our create happened.
    await client.addDnsRecord(zoneId, { Type: 0, Name: 'lost', Value: '192.0.2.55' });
    t.false((await external(obj).observe(obj, ctxOf(undefined, token))).exists);
    const made = await external(obj).create(obj, ctxOf(undefined, token));
    const found = await external(obj).observe(obj, ctxOf(undefined, token));
    t.is(found.externalId, made.externalId);
    t.deepEqual(
      found.diff.map((d) => [d.field, d.desired]),
      [['Comment', '']],
      'the provisional comment is cleared by the update',
    );
    const claimed = await external(obj).observe(
      obj,
      ctxOf(undefined, { ...token, claimedByOther: () => true }),
    );
    t.false(claimed.exists, 'a record another object manages is never taken');
  },
);

test.serial('the content claim is known once connected', (t) => {
  const obj = objectOf('claim', { type: 'CNAME', name: 'WWW', value: 'cdn.example.net' });
  t.deepEqual(external(obj).claims, [
    { type: 'DnsRecordContent', id: `${zoneId}/CNAME/www/cdn.example.net`, recorded: false },
  ]);
  const pz = objectOf('claim-pz', { type: 'PullZone', name: 'x', pullZoneId: 1 });
  t.deepEqual(external(pz).claims, [], 'a linked record’s value is the platform’s: id claim only');
});

test.serial('delete: Delete removes, Orphan keeps, gone is success', async (t) => {
  const { obj } = await pass(objectOf('del', { type: 'TXT', name: 'del', value: 'bye' }));
  const id = String(obj.status?.recordId);
  const deleting = { ...obj, metadata: { ...obj.metadata, deletionTimestamp: 'now' } };
  const orphan = { ...deleting, spec: { ...deleting.spec, deletionPolicy: 'Orphan' } } as DnsRecord;
  await external(orphan).delete(orphan, ctxOf(id));
  t.truthy((await client.getDnsZone(zoneId)).Records?.find((r) => String(r.Id) === id));
  await external(deleting).delete(deleting, ctxOf(id));
  t.falsy((await client.getDnsZone(zoneId)).Records?.find((r) => String(r.Id) === id));
  await t.notThrowsAsync(external(deleting).delete(deleting, ctxOf(id)));
});

test.serial('an accelerated record shows the pull zone the platform created for it', async (t) => {
  const { obj } = await pass(
    objectOf('accel', {
      type: 'CNAME',
      name: 'accel',
      value: 'origin.example.net',
      accelerated: true,
    }),
  );
  const again = await pass(obj);
  t.true(again.obs.upToDate, JSON.stringify(again.obs.diff));
  const zone = Number(again.obj.status?.acceleratedPullZoneId);
  t.true(zone > 0);
  t.truthy(sim.state.pullZones.get(zone), 'an ordinary pull zone a PullZoneConfig can adopt by id');
  t.is(again.obj.status?.accelerationStatus, 'Completed');
  t.is(again.obs.notReady, undefined);
});

test.serial('nothing was rejected by the documents', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
