/**
 * `cdnctl diff` of a DnsZone under `recordPolicy: Exact` (planDnsZone + plan-claims.ts): the
 * operator never deletes a record a DnsRecord object manages, so the plan must not list as
 * deleted a record that a DnsRecord manifest of the same run names by `recordId` or declares
 * by content in this zone (dnsZoneRef or dnsZoneId). Before, every such record was planned as
 * deleted. Against an in-process cdn-sim (strict); the comparison only reads.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { DnsRecordAddRequest } from '../../../../src/cdn/dns-types.js';
import { planDnsZone } from '../../../../src/controllers/dnszone/plan.js';
import type { DnsZone } from '../../../../src/controllers/dnszone/types.js';
import type { PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'unit-dnszone-plan-claims';
let sim: SimulatorHandle;
let client: CdnClient;
let zoneId: number;
const ids: Record<string, number> = {};

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  zoneId = Number((await client.addDnsZone({ Domain: 'claims.example' })).Id);
  const live: Record<string, DnsRecordAddRequest> = {
    byId: { Type: 2, Name: 'www', Value: 'a.b-cdn.net', Ttl: 300 },
    byContent: { Type: 0, Name: 'api', Value: '192.0.2.10', Ttl: 300 },
    byZoneId: { Type: 3, Name: '', Value: 'v=spf1 -all', Ttl: 300 },
    unmanaged: { Type: 0, Name: 'old', Value: '192.0.2.99', Ttl: 300 },
  };
  for (const [label, body] of Object.entries(live))
    ids[label] = Number((await client.addDnsRecord(zoneId, body)).Id);
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

const zone: DnsZone = {
  apiVersion: 'dns.cdn.operator.io/v1beta1',
  kind: 'DnsZone',
  metadata: { name: 'claims-zone', namespace: 'ns' },
  spec: { domain: 'claims.example', recordPolicy: 'Exact', records: [] },
};

function record(name: string, spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsRecord',
    metadata: { name, namespace: 'ns' },
    spec,
  };
}

const contextOf = (records: ManagedObject[]): PlanContext => ({
  objectsOf: (kind) => (kind === 'DnsRecord' ? records : []),
});

/** The records an Exact plan of the zone deletes (their diff lines' fields). */
async function deleted(ctx: PlanContext): Promise<string[]> {
  const plan = await planDnsZone(
    client,
    { ...zone, spec: { ...zone.spec!, adoption: { policy: 'ById', id: zoneId } } },
    ctx,
  );
  return plan.diffs
    .filter((d) => d.desired === '<absent>')
    .map((d) => d.field)
    .sort();
}

test('records of DnsRecord manifests of the same run are not planned as deleted', async (t) => {
  const manifests = [
    record('www', {
      dnsZoneRef: { name: 'claims-zone' },
      adoption: { policy: 'ById', id: ids.byId },
      type: 'CNAME',
      name: 'www',
      value: 'a.b-cdn.net',
    }),
    record('api', {
      dnsZoneRef: { name: 'claims-zone' },
      type: 'A',
      name: 'api',
      value: '192.0.2.10',
    }),
    record('spf', { dnsZoneId: zoneId, type: 'TXT', name: '@', value: 'v=spf1 -all' }),
    // Same content in another zone: claims nothing here.
    record('other', {
      dnsZoneRef: { name: 'another-zone' },
      type: 'A',
      name: 'old',
      value: '192.0.2.99',
    }),
  ];
  t.deepEqual(await deleted(contextOf(manifests)), ['records[A old "192.0.2.99"]']);
});

test('without DnsRecord manifests every unlisted record is planned as deleted', async (t) => {
  t.deepEqual(await deleted(contextOf([])), [
    'records[A api "192.0.2.10"]',
    'records[A old "192.0.2.99"]',
    'records[CNAME www "a.b-cdn.net"]',
    'records[TXT @ "v=spf1 -all"]',
  ]);
});
