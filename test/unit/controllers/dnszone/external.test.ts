/**
 * DnsZoneExternal against an in-process cdn-sim (strict): observe only reads; create checks the
 * domain then adds; the update of the same pass applies settings, DNSSEC and records, and
 * reports the DS record and the created records in status; a taken domain is NameTaken; an
 * adopted id that does not exist is NotFound; `cdnctl diff` (planDnsZone) sees create, update
 * and none.
 */
import test from 'ava';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { DnsZoneExternal } from '../../../../src/controllers/dnszone/external.js';
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
    apiVersion: 'cdn.operator.io/v1alpha1',
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

const routesSince = (n: number): string[] =>
  sim.calls
    .snapshot()
    .log.slice(n)
    .map((c) => c.route);
const count = (): number => sim.calls.snapshot().log.length;

test.serial(
  'create, then the same pass: settings, DNSSEC and records; observe only reads',
  async (t) => {
    const ext = new DnsZoneExternal({ client, accountId: 'acct' });
    const spec: DnsZoneSpec = {
      domain: 'unit.example',
      dnssec: true,
      certificateKeyType: 'Rsa',
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
          zoneOf({ ...spec, dnsZoneId: Number(created.externalId) }, status),
          NO_MANIFESTS,
        )
      ).action,
      'none',
    );
    const plan = await planDnsZone(
      client,
      zoneOf(
        { ...spec, dnsZoneId: Number(created.externalId), certificateKeyType: 'Ecdsa' },
        status,
      ),
      NO_MANIFESTS,
    );
    t.deepEqual(plan.diffs, [{ field: 'CertificateKeyType', live: '1', desired: '0' }]);
  },
);

test.serial('a domain that has a zone is NameTaken, and nothing is added', async (t) => {
  const ext = new DnsZoneExternal({ client, accountId: 'acct' });
  const n = count();
  await t.throwsAsync(() => ext.create(zoneOf({ domain: 'UNIT.example' }), ctxOf()), {
    message: /already has a zone.*adopt it explicitly/,
  });
  t.deepEqual(routesSince(n), ['POST /dnszone/checkavailability']);
});

test.serial(
  'an adopted id that does not exist is NotFound (the runtime never creates it)',
  async (t) => {
    const ext = new DnsZoneExternal({ client, accountId: 'acct' });
    const obj = zoneOf({ dnsZoneId: 999999 });
    await t.throwsAsync(() => ext.observe(obj, ctxOf('999999')), {
      message: /cannot observe DNS zone 999999 \(spec\.dnsZoneId\): it does not exist/,
    });
  },
);

test.serial('nothing sent was rejected by the documents', (t) => {
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0);
});
