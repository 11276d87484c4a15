/**
 * `cdnctl export` of a DNS zone (pure): adopts by id, carries only the settings that differ
 * from a new zone's (custom nameservers and SOA contact when on, logging when on), DNSSEC, and
 * `recordPolicy: Additive` without inline records, whatever records the zone has (records are
 * exported by the DnsRecord kind).
 */
import test from 'ava';
import type { DnsZone as DnsZoneRecord } from '../../../../src/cdn/dns-types.js';
import { exportDnsZone } from '../../../../src/controllers/dnszone/export.js';
import type { ExportOptions } from '../../../../src/controllers/shared/manifest-export.js';

const OPTS = {
  namespace: 'dns',
  deletionPolicy: 'Orphan',
  account: { accountRef: { name: 'prod' } },
} as unknown as ExportOptions;

const NEW_ZONE: DnsZoneRecord = {
  Id: 5,
  Domain: 'shop.example',
  Records: [{ Id: 1, Type: 0, Name: '', Value: '192.0.2.1' }],
  CustomNameserversEnabled: false,
  Nameserver1: 'kiki.bunny.net',
  Nameserver2: 'coco.bunny.net',
  SoaEmail: 'hostmaster@bunny.net',
  LoggingEnabled: false,
  LoggingIPAnonymizationEnabled: true,
  LogAnonymizationType: 0,
  DnsSecEnabled: false,
  CertificateKeyType: 0,
};

const cases: {
  name: string;
  zone: Partial<DnsZoneRecord>;
  spec: Record<string, unknown>;
}[] = [
  {
    name: 'a new zone: id, domain, key type, DNSSEC off, Additive, no records',
    zone: {},
    spec: {
      adoption: { policy: 'ById', id: 5 },
      domain: 'shop.example',
      certificateKeyType: 'ECDSA',
      dnssec: { enabled: false },
      recordPolicy: 'Additive',
      accountRef: { name: 'prod' },
      deletionPolicy: 'Orphan',
    },
  },
  {
    name: 'custom nameservers, SOA contact, logging and DNSSEC on',
    zone: {
      CustomNameserversEnabled: true,
      Nameserver1: 'ns1.shop.example',
      Nameserver2: 'ns2.shop.example',
      SoaEmail: 'dns@shop.example',
      LoggingEnabled: true,
      LoggingIPAnonymizationEnabled: false,
      LogAnonymizationType: 1,
      DnsSecEnabled: true,
      CertificateKeyType: 1,
    },
    spec: {
      adoption: { policy: 'ById', id: 5 },
      domain: 'shop.example',
      customNameservers: { enabled: true, ns1: 'ns1.shop.example', ns2: 'ns2.shop.example' },
      soaEmail: 'dns@shop.example',
      logging: { enabled: true, ipAnonymization: false, anonymizationType: 'Drop' },
      certificateKeyType: 'RSA',
      dnssec: { enabled: true },
      recordPolicy: 'Additive',
      accountRef: { name: 'prod' },
      deletionPolicy: 'Orphan',
    },
  },
];

for (const c of cases) {
  test(`export: ${c.name}`, (t) => {
    const out = exportDnsZone({ ...NEW_ZONE, ...c.zone }, 'shop-example', OPTS);
    t.is(out.kind, 'DnsZone');
    t.like(out.manifest, { kind: 'DnsZone', metadata: { name: 'shop-example', namespace: 'dns' } });
    t.deepEqual(out.manifest.spec, c.spec);
  });
}
