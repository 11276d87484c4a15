import test from 'ava';
import type { DnsRecord as DnsRecordModel } from '../../../../src/cdn/dns-types.js';
import { exportDnsRecord } from '../../../../src/controllers/dnsrecord/export.js';
import type { DnsRecordSpec } from '../../../../src/controllers/dnsrecord/types.js';
import type { ExportOptions } from '../../../../src/controllers/shared/manifest-export.js';
import { compareRecord } from '../../../support/dns-record-kit.js';

const OPTS: ExportOptions = {
  namespace: 'team-a',
  kinds: new Set(['DnsRecord']),
  deletionPolicy: 'Orphan',
  account: {},
  secretEnvPattern: /SECRET/,
  customCertificates: 'omit',
};

const cases: Array<{
  title: string;
  record: DnsRecordModel;
  links?: { zoneName?: string; pullZoneNames?: Map<string, string> };
  want: Partial<DnsRecordSpec> & Record<string, unknown>;
}> = [
  {
    title: 'a CNAME at the default TTL writes its value only, and names the exported zone',
    record: { Id: 11, Type: 2, Name: 'www', Value: 'shop.b-cdn.net', Ttl: 300 },
    links: { zoneName: 'shop-example' },
    want: {
      adoption: { policy: 'ById', id: 11 },
      dnsZoneRef: { name: 'shop-example' },
      type: 'CNAME',
      name: 'www',
      value: 'shop.b-cdn.net',
    },
  },
  {
    title: 'an MX keeps its priority and TTL; the zone by id when zones are not exported',
    record: { Id: 12, Type: 4, Name: '', Value: 'mx.example.net', Ttl: 3600, Priority: 10 },
    want: {
      adoption: { policy: 'ById', id: 12 },
      dnsZoneId: 5,
      type: 'MX',
      name: '',
      value: 'mx.example.net',
      ttl: 3600,
      priority: 10,
    },
  },
  {
    title: 'an A record with latency routing writes the routing by name',
    record: {
      Id: 13,
      Type: 0,
      Name: 'api',
      Value: '192.0.2.1',
      Ttl: 300,
      SmartRoutingType: 1,
      LatencyZone: 'DE',
    },
    want: {
      adoption: { policy: 'ById', id: 13 },
      dnsZoneId: 5,
      type: 'A',
      name: 'api',
      value: '192.0.2.1',
      smartRoutingType: 'Latency',
      latencyZone: 'DE',
    },
  },
  {
    title: 'a PullZone record names the exported PullZoneConfig, else the pull zone id',
    record: { Id: 14, Type: 7, Name: 'cdn', Value: '', LinkName: '77', Ttl: 300 },
    links: { pullZoneNames: new Map([['77', 'shop-cdn']]) },
    want: {
      adoption: { policy: 'ById', id: 14 },
      dnsZoneId: 5,
      type: 'PullZone',
      name: 'cdn',
      pullZoneRef: { name: 'shop-cdn' },
    },
  },
  {
    title: 'a PullZone record of a pull zone not exported names it by id',
    record: { Id: 15, Type: 7, Name: 'cdn2', Value: '', LinkName: '78', Ttl: 300 },
    want: {
      adoption: { policy: 'ById', id: 15 },
      dnsZoneId: 5,
      type: 'PullZone',
      name: 'cdn2',
      pullZoneId: 78,
    },
  },
];

for (const c of cases) {
  test(`export: ${c.title}`, async (t) => {
    const out = exportDnsRecord(c.record, 'obj', { zoneId: 5, ...c.links }, OPTS);
    const spec = (out.manifest as { spec: Record<string, unknown> }).spec;
    t.deepEqual(spec, { ...c.want, deletionPolicy: 'Orphan' });
    // Applying the export changes nothing: the diff against the same record is empty.
    const pullZoneId = c.record.Type === 7 ? Number(c.record.LinkName) : undefined;
    const diff = await compareRecord(spec as unknown as DnsRecordSpec, c.record, pullZoneId);
    t.deepEqual(diff.diffs, []);
    t.deepEqual(diff.problems, []);
  });
}
