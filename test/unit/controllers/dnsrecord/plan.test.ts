/**
 * `cdnctl diff` of DnsRecord manifests (planDnsRecord) against an in-process cdn-sim (strict):
 * an exported record compares unchanged, a changed member is an update naming that field, a
 * record without id is a create, `dnsZoneRef` / `pullZoneRef` resolve through the DnsZone and
 * PullZoneConfig manifests compared with it (skipped when they have no id), ByName adoption
 * finds the record, an unknown adopted id is an error; every comparison only reads, and the
 * kind is registered for `cdnctl diff`.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { DnsRecordAddRequest } from '../../../../src/cdn/dns-types.js';
import { diffManifests } from '../../../../src/cli/diff/diff-manifests.js';
import type { Manifest } from '../../../../src/cli/diff/manifests.js';
import { exportDnsRecord } from '../../../../src/controllers/dnsrecord/export.js';
import { planDnsRecord } from '../../../../src/controllers/dnsrecord/plan.js';
import type { DnsRecord } from '../../../../src/controllers/dnsrecord/types.js';
import type { ObjectPlan, PlanContext } from '../../../../src/controllers/shared/manifest-plan.js';
import type { ExportOptions } from '../../../../src/controllers/shared/manifest-export.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const API_KEY = 'dnsrecord-plan-key';
const NS = 'team-a';
const OPTS: ExportOptions = {
  namespace: NS,
  kinds: new Set(['DnsRecord']),
  deletionPolicy: 'Orphan',
  account: {},
  secretEnvPattern: /SECRET/,
  customCertificates: 'omit',
};

let sim: SimulatorHandle;
let client: CdnClient;
let zoneId: number;
let pullZoneId: number;
/** Exported manifests of the live records, by label. */
const exported = new Map<string, DnsRecord>();

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, retry: { maxAttempts: 1 } });
  zoneId = Number((await client.addDnsZone({ Domain: 'plan.example' })).Id);
  pullZoneId = Number(
    (await client.addPullZone({ Name: 'dnsrecord-plan-pz', OriginUrl: 'https://o.example' })).Id,
  );
  const live: Record<string, DnsRecordAddRequest> = {
    www: { Type: 2, Name: 'www', Value: 'plan.b-cdn.net', Ttl: 300 },
    mx: { Type: 4, Name: '', Value: 'mx.plan.example', Ttl: 3600, Priority: 10 },
    cdn: { Type: 7, Name: 'cdn', PullZoneId: pullZoneId },
  };
  for (const [label, body] of Object.entries(live)) {
    const record = await client.addDnsRecord(zoneId, body);
    const zoneName = label === 'mx' ? {} : { zoneName: 'plan-zone' };
    const pullZoneNames = new Map([[String(pullZoneId), 'plan-cdn']]);
    const links = { zoneId, ...zoneName, pullZoneNames };
    exported.set(
      label,
      exportDnsRecord(record, label, links, OPTS).manifest as unknown as DnsRecord,
    );
  }
});

test.after.always(async () => {
  client?.close();
  await sim?.close();
});

function manifest(kind: string, name: string, spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: { name, namespace: NS },
    spec,
  };
}

/** The DnsZone and PullZoneConfig manifests of an export of the same account. */
const ZONE = manifest('DnsZone', 'plan-zone', { domain: 'plan.example' });
const PULL_ZONE = manifest('PullZoneConfig', 'plan-cdn', {});
const withIds = (): ManagedObject[] => [
  { ...ZONE, spec: { ...ZONE.spec, adoption: { policy: 'ById', id: zoneId } } },
  { ...PULL_ZONE, spec: { adoption: { policy: 'ById', id: pullZoneId } } },
];

function contextOf(objects: ManagedObject[]): PlanContext {
  return { objectsOf: (kind) => objects.filter((o) => o.kind === kind) };
}

function edited(label: string, change: Record<string, unknown>): DnsRecord {
  const base = exported.get(label)!;
  return { ...base, spec: { ...base.spec!, ...change } };
}

function recordId(label: string): string {
  return String(exported.get(label)!.spec!.adoption?.id);
}

function writes(): string[] {
  return sim.calls
    .snapshot()
    .log.filter((c) => c.method !== 'GET')
    .map((c) => `${c.method} ${c.route}`);
}

const cases: {
  title: string;
  obj: () => DnsRecord;
  objects?: () => ManagedObject[];
  want: (plan: ObjectPlan) => Partial<ObjectPlan>;
}[] = [
  {
    title: 'an exported record (zone by id) compares unchanged',
    obj: () => exported.get('mx')!,
    want: () => ({ action: 'none', diffs: [], id: recordId('mx') }),
  },
  {
    title: 'an exported record whose dnsZoneRef resolves through the DnsZone manifest: unchanged',
    obj: () => exported.get('www')!,
    objects: withIds,
    want: () => ({ action: 'none', diffs: [], id: recordId('www') }),
  },
  {
    title: 'an exported PullZone record whose pullZoneRef resolves through the PullZoneConfig',
    obj: () => exported.get('cdn')!,
    objects: withIds,
    want: () => ({ action: 'none', diffs: [], id: recordId('cdn') }),
  },
  {
    title: 'a changed TTL is an update naming that field only',
    obj: () => edited('www', { ttl: 3600 }),
    objects: withIds,
    want: () => ({
      action: 'update',
      id: recordId('www'),
      diffs: [{ field: 'Ttl', live: '300', desired: '3600' }],
    }),
  },
  {
    title: 'a changed value and priority are an update with both fields',
    obj: () => edited('mx', { value: 'mx2.plan.example', priority: 20 }),
    want: () => ({
      action: 'update',
      diffs: [
        { field: 'Value', live: 'mx.plan.example', desired: 'mx2.plan.example' },
        { field: 'Priority', live: '10', desired: '20' },
      ],
    }),
  },
  {
    title: 'another pull zone linked by id is an update of the link',
    obj: () => {
      const { pullZoneRef: _ref, ...spec } = edited('cdn', {}).spec!;
      return { ...exported.get('cdn')!, spec: { ...spec, pullZoneId: pullZoneId + 1 } };
    },
    objects: withIds,
    want: () => ({
      action: 'update',
      diffs: [{ field: 'PullZoneId', live: String(pullZoneId), desired: String(pullZoneId + 1) }],
    }),
  },
  {
    title: 'a record without adoption is a create (the operator never adopts unasked)',
    obj: () => {
      const { adoption: _adoption, ...spec } = edited('www', { name: 'shop' }).spec!;
      return { ...exported.get('www')!, spec };
    },
    objects: withIds,
    want: () => ({ action: 'create', diffs: [] }),
  },
  {
    title: 'ByName adoption finds the record by type, name and value',
    obj: () => {
      const { adoption: _adoption, ...spec } = edited('www', { ttl: 60 }).spec!;
      return { ...exported.get('www')!, spec: { ...spec, adoption: { policy: 'ByName' } } };
    },
    objects: withIds,
    want: () => ({
      action: 'update',
      id: recordId('www'),
      diffs: [{ field: 'Ttl', live: '300', desired: '60' }],
    }),
  },
  {
    title:
      'a dnsZoneRef to a DnsZone manifest without an adopted id (a zone to create) is not compared',
    obj: () => exported.get('www')!,
    objects: () => [ZONE],
    want: (plan) => ({ action: 'skipped', diffs: [], note: plan.note }),
  },
  {
    title: 'a dnsZoneRef naming no compared DnsZone is not compared',
    obj: () => exported.get('www')!,
    want: (plan) => ({ action: 'skipped', diffs: [], note: plan.note }),
  },
];

for (const c of cases) {
  test.serial(`plan: ${c.title}`, async (t) => {
    const before = writes().length;
    const plan = await planDnsRecord(client, c.obj(), contextOf(c.objects?.() ?? []));
    t.deepEqual(plan, { ...plan, ...c.want(plan) });
    t.is(writes().length, before, 'a comparison never writes');
    if (plan.action === 'skipped') t.regex(plan.note ?? '', /spec\.dnsZoneRef: DnsZone team-a\//);
  });
}

test.serial('plan: an adopted record id the zone lacks is an error, not a create', async (t) => {
  const obj = edited('mx', { adoption: { policy: 'ById', id: 999_999 } });
  await t.throwsAsync(planDnsRecord(client, obj, contextOf([])), {
    message: /DNS record 999999 \(spec\.adoption\.id\): it does not exist/,
  });
});

test.serial('plan: a changed type is an error naming spec.type', async (t) => {
  const obj = edited('www', { type: 'TXT' });
  await t.throwsAsync(planDnsRecord(client, obj, contextOf(withIds())), {
    message: /spec\.type is TXT/,
  });
});

test.serial(
  'cdnctl diff compares DnsRecord manifests with the zones given with them',
  async (t) => {
    const asManifest = (o: ManagedObject): Manifest => ({ ...o, source: 'test.yaml' });
    const manifests = [
      ...withIds(),
      exported.get('www')!,
      edited('mx', { ttl: 7200 }),
      exported.get('cdn')!,
    ].map(asManifest);
    const before = writes().length;
    const report = await diffManifests(client, manifests);
    const records = report.entries.filter((e) => e.kind === 'DnsRecord');
    t.deepEqual(
      records.map((e) => [e.name, e.plan?.action, e.error]),
      [
        ['www', 'none', undefined],
        ['mx', 'update', undefined],
        ['cdn', 'none', undefined],
      ],
    );
    t.deepEqual(records[1]?.plan?.diffs, [{ field: 'Ttl', live: '3600', desired: '7200' }]);
    t.is(writes().length, before, 'diff never writes');
  },
);

test.serial('nothing was rejected by the documents', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
