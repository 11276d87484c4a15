/**
 * DnsZoneExternal (the zone on the kit's CRUD client, with DNSSEC and the inline records) against an in-process cdn-sim (strict): observe only reads; create checks the
 * domain then adds; the update of the same pass applies settings, DNSSEC and records, and
 * reports the DS record and the created records in status; a taken domain is NameTaken; an
 * adopted id that does not exist is NotFound; `cdnctl diff` (planDnsZone) sees create, update
 * and none. Issue 53: an update reports the nameservers it set; a refused record names its
 * entry of spec.records; an adopted inline record that is gone is NotFound and never created;
 * a listed record another object manages is Synced=False RecordManagedElsewhere before any
 * write; a signed zone adopted without its DS record gets no DNSSEC call.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { DnsZoneExternal } from '../../../../src/controllers/dnszone/external.js';
import { createDnsZoneKind, dnsZoneResource } from '../../../../src/controllers/dnszone/index.js';
import type { ControllerDeps } from '../../../../src/controllers/shared/deps.js';
import { planDnsZone } from '../../../../src/controllers/dnszone/plan.js';
import type {
  DnsZone,
  DnsZoneSpec,
  DnsZoneStatus,
} from '../../../../src/controllers/dnszone/types.js';
import type { PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-dnszone-key';
/** A diff that compares no DnsRecord manifests with the zone. */
const NO_MANIFESTS: PlanContext = { objectsOf: () => [] };
let sim: SimulatorHandle;
let client: CdnClient;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

function zoneOf(spec: DnsZoneSpec, status?: DnsZoneStatus): DnsZone {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name: 'z', namespace: 'ns', uid: 'u', generation: 1 },
    spec: spec as DnsZone['spec'],
    ...(status ? { status } : {}),
  };
}

function ctxOf(externalId?: string): ExternalContext {
  return {
    ...(externalId ? { externalId } : {}),
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** The kind's external client of the test account. */
function external(): DnsZoneExternal {
  const conn = { client, account: 'acct' };
  return new DnsZoneExternal(conn, dnsZoneResource(conn));
}

const routesSince = (n: number): string[] =>
  sim.calls
    .snapshot()
    .log.slice(n)
    .map((c) => c.route);
const count = (): number => sim.calls.snapshot().log.length;

test.serial(
  'create, then the same pass: settings, DNSSEC and records; observe only reads',
  async (t) => {
    const ext = external();
    const spec: DnsZoneSpec = {
      domain: 'unit.example',
      dnssec: { enabled: true },
      certificateKeyType: 'RSA',
      records: [{ type: 'CNAME', name: 'www', value: 'unit.b-cdn.net' }],
    };
    t.is((await planDnsZone(client, zoneOf(spec), NO_MANIFESTS)).action, 'create');
    let n = count();
    const created = await ext.create(zoneOf(spec), ctxOf());
    t.deepEqual(routesSince(n), ['POST /dnszone/checkavailability', 'POST /dnszone']);
    n = count();
    const obs = await ext.observe(zoneOf(spec), ctxOf(created.externalId));
    t.deepEqual(routesSince(n), ['GET /dnszone/{id}'], 'observe only reads');
    t.false(obs.upToDate);
    const res = await ext.update(zoneOf(spec), obs, ctxOf(created.externalId));
    const status = res?.status as DnsZoneStatus;
    t.true(status.dnssec?.enabled);
    t.regex(status.dnssec?.dsRecord ?? '', /^unit\.example\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}$/);
    t.like(status.records?.[0], {
      type: 'CNAME',
      name: 'www',
      value: 'unit.b-cdn.net',
      created: true,
    });
    t.is(status.recordCount, 1);

    const after = zoneOf(spec, { ...status, dnsZoneId: Number(created.externalId) });
    const again = await ext.observe(after, ctxOf(created.externalId));
    t.true(again.upToDate, JSON.stringify(again.diff));
    t.deepEqual(
      (
        await planDnsZone(
          client,
          zoneOf({ ...spec, adoption: { policy: 'ById', id: Number(created.externalId) } }, status),
          NO_MANIFESTS,
        )
      ).action,
      'none',
    );
    const plan = await planDnsZone(
      client,
      zoneOf(
        {
          ...spec,
          adoption: { policy: 'ById', id: Number(created.externalId) },
          certificateKeyType: 'ECDSA',
        },
        status,
      ),
      NO_MANIFESTS,
    );
    t.deepEqual(plan.diffs, [{ field: 'CertificateKeyType', live: '1', desired: '0' }]);
  },
);

test.serial('a domain that has a zone is NameTaken, and nothing is added', async (t) => {
  const ext = external();
  const n = count();
  await t.throwsAsync(() => ext.create(zoneOf({ domain: 'UNIT.example' }), ctxOf()), {
    message: /already has a zone.*adopt it explicitly/,
  });
  t.deepEqual(routesSince(n), ['POST /dnszone/checkavailability']);
});

test.serial(
  'an adopted id that does not exist is NotFound (the runtime never creates it)',
  async (t) => {
    const ext = external();
    const obj = zoneOf({ adoption: { policy: 'ById', id: 999999 } });
    await t.throwsAsync(() => ext.observe(obj, ctxOf('999999')), {
      message: /cannot observe DNS zone 999999 \(spec\.adoption\.id\): it does not exist/,
    });
  },
);

/** The kind's own classification of an error (what the conditions will say). */
const classify = (
  err: unknown,
): ReturnType<ReturnType<typeof createDnsZoneKind>['classifyError']> =>
  createDnsZoneKind({} as ControllerDeps).classifyError(err);

/** Creates zone `domain` through the client, then returns it observed and updated once. */
async function createdZone(
  spec: DnsZoneSpec,
): Promise<{ ext: DnsZoneExternal; id: string; status: DnsZoneStatus }> {
  const ext = external();
  const { externalId: id } = await ext.create(zoneOf(spec), ctxOf());
  const obs = await ext.observe(zoneOf(spec), ctxOf(id));
  const res = obs.upToDate ? undefined : await ext.update(zoneOf(spec), obs, ctxOf(id));
  return { ext, id, status: { ...obs.status, ...res?.status } };
}

test.serial('custom nameservers set by the update show in status.nameservers', async (t) => {
  const ns = { enabled: true, ns1: 'ns1.names.example', ns2: 'ns2.names.example' };
  const { status } = await createdZone({ domain: 'names.example', customNameservers: ns });
  t.deepEqual(status.nameservers, ['ns1.names.example', 'ns2.names.example']);
});

test.serial('a record the platform refuses names its entry of spec.records', async (t) => {
  const spec: DnsZoneSpec = {
    domain: 'refused.example',
    records: [
      { type: 'A', name: 'www', value: '192.0.2.1' },
      { type: 'A', name: 'bad', value: 'not-an-address' },
    ],
  };
  const err = await t.throwsAsync(() => createdZone(spec));
  const c = classify(err);
  t.like(c, { class: 'terminal', reason: 'InvalidSpec' });
  t.regex(c.message, /^spec\.records\[1\] \(A bad "not-an-address"\): addDnsRecord \(HTTP 400\): /);
  t.regex(c.message, /spec\.records\[1\]\.value \(Value\): /);
});

test.serial(
  'an adopted inline record that is gone is NotFound, never created; a created one is',
  async (t) => {
    const zone = await client.addDnsZone({ Domain: 'adopted-records.example' });
    const id = String(zone.Id);
    const ext = external();
    const spec: DnsZoneSpec = {
      adoption: { policy: 'ById', id: Number(zone.Id) },
      records: [
        { type: 'TXT', name: '', value: 'adopted' },
        { type: 'TXT', name: '', value: 'created' },
      ],
    };
    const adopted = await client.addDnsRecord(Number(zone.Id), {
      Type: 3,
      Name: '',
      Value: 'adopted',
    });
    const obs = await ext.observe(zoneOf(spec), ctxOf(id));
    const res = await ext.update(zoneOf(spec), obs, ctxOf(id));
    const status = { ...obs.status, ...res?.status } as DnsZoneStatus;
    t.deepEqual(
      status.records?.map((r) => [r.value, r.created === true]),
      [
        ['adopted', false],
        ['created', true],
      ],
    );
    for (const r of await client.listDnsRecords(Number(zone.Id)))
      await client.deleteDnsRecord(Number(zone.Id), Number(r.Id));
    const n = count();
    const err = await t.throwsAsync(() => ext.observe(zoneOf(spec, status), ctxOf(id)));
    t.like(classify(err), { class: 'terminal', reason: 'NotFound' });
    t.regex(
      classify(err).message,
      new RegExp(
        `spec\\.records\\[0\\] \\(TXT @ "adopted"\\) was adopted .* record ${adopted.Id} is gone.*never created again`,
      ),
    );
    t.deepEqual(routesSince(n), ['GET /dnszone/{id}'], 'nothing written');
    // Without the adopted entry the created one is created again.
    const only = { ...spec, records: [spec.records![1]!] };
    const again = await ext.observe(zoneOf(only, status), ctxOf(id));
    t.deepEqual(
      again.diff.map((d) => d.field),
      ['records[TXT @ "created"]'],
    );
  },
);

test.serial(
  'a listed record another object manages: RecordManagedElsewhere before any write',
  async (t) => {
    const { ext, id } = await createdZone({ domain: 'conflict.example' });
    const spec: DnsZoneSpec = {
      domain: 'conflict.example',
      logging: { enabled: true },
      records: [{ type: 'TXT', name: 'team', value: 'owned' }],
    };
    const ctx: ExternalContext = {
      ...ctxOf(id),
      claimedByOther: (type, key) => type === 'DnsRecordContent' && key.endsWith('/TXT/team/owned'),
      claimantsOf: (type, key) =>
        type === 'DnsRecordContent' && key.endsWith('/TXT/team/owned')
          ? [{ kind: 'DnsRecord', namespace: 'ns', name: 'team-txt', recorded: true }]
          : [],
    };
    const n = count();
    const err = await t.throwsAsync(() => ext.observe(zoneOf(spec), ctx));
    const c = classify(err);
    t.like(c, { class: 'retryable', reason: 'RecordManagedElsewhere' });
    t.regex(
      c.message,
      /spec\.records\[0\] \(TXT team "owned"\) is managed by DnsRecord ns\/team-txt/,
    );
    t.deepEqual(routesSince(n), ['GET /dnszone/{id}'], 'nothing written');
  },
);

test.serial('a signed zone adopted without its DS record gets no DNSSEC call', async (t) => {
  const zone = await client.addDnsZone({ Domain: 'signed.example' });
  await client.enableDnsSec(Number(zone.Id));
  const ext = external();
  const obs = await ext.observe(
    zoneOf({ adoption: { policy: 'ById', id: Number(zone.Id) }, dnssec: { enabled: true } }),
    ctxOf(String(zone.Id)),
  );
  t.true(obs.upToDate, JSON.stringify(obs.diff));
  t.deepEqual(obs.status?.dnssec, { enabled: true });
});

test.serial('nothing sent was rejected by the documents', (t) => {
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});
