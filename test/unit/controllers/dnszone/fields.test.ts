/**
 * The DnsZone field table and hooks (fields.ts, status.ts, index.ts): the settings update carries only the members that differ
 * (and none the spec leaves unset), the SOA contact and nameservers only while custom
 * nameservers are on, DNSSEC on/off, the DS record asked for once when status has none, a
 * changed domain reported as immutable, and the DS record of a DNSSEC answer in status.
 */
import test from 'ava';
import type { DnsSecDsRecord, DnsZone as DnsZoneRecord } from '../../../../src/cdn/dns-types.js';
import type { CdnClient } from '../../../../src/cdn/client.js';
import { DNS_ZONE_FIELDS } from '../../../../src/controllers/dnszone/fields.js';
import { dnsZoneResource } from '../../../../src/controllers/dnszone/index.js';
import {
  dnssecChange,
  dnssecStatusOf,
  observedDnsSec,
  zoneStatus,
} from '../../../../src/controllers/dnszone/status.js';
import type {
  DnsZone,
  DnsZoneSpec,
  DnsZoneStatus,
} from '../../../../src/controllers/dnszone/types.js';
import type { CrudDiff } from '../../../../src/controllers/kit/crud-external.js';
import { compareFields, statusOf } from '../../../../src/controllers/kit/fields.js';

const LIVE: DnsZoneRecord = {
  Id: 7,
  Domain: 'shop.example',
  Records: [],
  CustomNameserversEnabled: false,
  Nameserver1: 'kiki.bunny.net',
  Nameserver2: 'coco.bunny.net',
  SoaEmail: 'hostmaster@bunny.net',
  LoggingEnabled: false,
  LoggingIPAnonymizationEnabled: true,
  LogAnonymizationType: 0,
  DnsSecEnabled: false,
  CertificateKeyType: 0,
  NameserversDetected: false,
};

function zoneOf(spec: DnsZoneSpec, status?: DnsZoneStatus): DnsZone {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsZone',
    metadata: { name: 'z', namespace: 'ns' },
    spec: spec as DnsZone['spec'],
    ...(status ? { status } : {}),
  };
}

const RESOURCE = dnsZoneResource({ client: {} as CdnClient, account: 'acct' });

/** The comparison as the kit makes it: the table, then the kind's hook (DNSSEC). */
async function compareZone(obj: DnsZone, live: DnsZoneRecord): Promise<CrudDiff> {
  const base = compareFields(DNS_ZONE_FIELDS, obj, live, 'DNS zone');
  return RESOURCE.hooks?.compare ? RESOURCE.hooks.compare(obj, live, base) : base;
}

const DS: DnsSecDsRecord = {
  Enabled: true,
  DsRecord: 'shop.example. 3600 IN DS 12345 13 2 ABCDEF',
  Digest: 'ABCDEF',
  DigestType: 'SHA256 (2)',
  Algorithm: 13,
  PublicKey: 'cHVibGlj',
  KeyTag: 12345,
  Flags: 257,
  DsConfigured: false,
};
const DS_STATUS = dnssecStatusOf(DS);

const cases: {
  name: string;
  spec: DnsZoneSpec;
  live?: Partial<DnsZoneRecord>;
  status?: DnsZoneStatus;
  update: Record<string, unknown>;
  dnssec?: boolean;
  immutable?: RegExp;
}[] = [
  {
    name: 'a spec that sets nothing changes nothing',
    spec: { domain: 'shop.example' },
    update: {},
  },
  {
    name: 'the domain compares case-insensitively',
    spec: { domain: 'Shop.Example' },
    update: {},
  },
  {
    name: 'another domain is immutable, not updated',
    spec: { domain: 'other.example' },
    update: {},
    immutable: /spec\.domain is other\.example but the DNS zone has shop\.example/,
  },
  {
    name: 'custom nameservers on: the flag, both names and the SOA contact',
    spec: {
      domain: 'shop.example',
      soaEmail: 'dns@shop.example',
      customNameservers: { enabled: true, ns1: 'ns1.shop.example', ns2: 'ns2.shop.example' },
    },
    update: {
      CustomNameserversEnabled: true,
      Nameserver1: 'ns1.shop.example',
      Nameserver2: 'ns2.shop.example',
      SoaEmail: 'dns@shop.example',
    },
  },
  {
    name: 'custom nameservers on and already live: only the differing member',
    spec: {
      domain: 'shop.example',
      customNameservers: { enabled: true, ns1: 'ns1.shop.example', ns2: 'ns3.shop.example' },
    },
    live: {
      CustomNameserversEnabled: true,
      Nameserver1: 'ns1.shop.example',
      Nameserver2: 'ns2.shop.example',
    },
    update: { Nameserver2: 'ns3.shop.example' },
  },
  {
    name: 'custom nameservers off: names are the platform’s, not compared',
    spec: { domain: 'shop.example', customNameservers: { enabled: false, ns1: 'x.example' } },
    update: {},
  },
  {
    name: 'logging on with anonymization type Drop',
    spec: {
      domain: 'shop.example',
      logging: { enabled: true, ipAnonymization: false, anonymizationType: 'Drop' },
    },
    update: { LoggingEnabled: true, LoggingIPAnonymizationEnabled: false, LogAnonymizationType: 1 },
  },
  {
    name: 'logging off: anonymization not compared',
    spec: { domain: 'shop.example', logging: { enabled: false, anonymizationType: 'Drop' } },
    update: {},
  },
  {
    name: 'certificate key type RSA',
    spec: { domain: 'shop.example', certificateKeyType: 'RSA' },
    update: { CertificateKeyType: 1 },
  },
  {
    name: 'DNSSEC asked for: turned on',
    spec: { domain: 'shop.example', dnssec: { enabled: true } },
    update: {},
    dnssec: true,
  },
  {
    name: 'DNSSEC on, DS record known: nothing',
    spec: { domain: 'shop.example', dnssec: { enabled: true } },
    live: { DnsSecEnabled: true },
    status: { dnssec: DS_STATUS },
    update: {},
  },
  {
    // The DS record is answered only by the call that turns DNSSEC on: sending it to a signed
    // zone is a write (issue 53: applying an export wrote it, and cdnctl diff listed it).
    name: 'DNSSEC on but no DS record in status (adopted): no call, nothing planned',
    spec: { domain: 'shop.example', dnssec: { enabled: true } },
    live: { DnsSecEnabled: true },
    update: {},
  },
  {
    name: 'DNSSEC off asked for while on: turned off',
    spec: { domain: 'shop.example', dnssec: { enabled: false } },
    live: { DnsSecEnabled: true },
    status: { dnssec: DS_STATUS },
    update: {},
    dnssec: false,
  },
  {
    name: 'DNSSEC unset: left as it is',
    spec: { domain: 'shop.example' },
    live: { DnsSecEnabled: true },
    update: {},
  },
];

for (const c of cases) {
  test(`diff: ${c.name}`, async (t) => {
    const obj = zoneOf(c.spec, c.status);
    const live = { ...LIVE, ...c.live };
    const out = await compareZone(obj, live);
    t.deepEqual(out.update, c.update);
    t.is(dnssecChange(obj, live), c.dnssec);
    if (c.immutable) t.regex(out.problems.join('; '), c.immutable);
    else t.deepEqual(out.problems, []);
    const expectedDiffs = Object.keys(c.update).length + (c.dnssec === undefined ? 0 : 1);
    t.is(out.diffs.length, expectedDiffs, 'one plan entry per change');
  });
}

test('the DS record of a DNSSEC answer goes to status, every field for the registrar', (t) => {
  t.deepEqual(DS_STATUS, {
    enabled: true,
    dsRecord: 'shop.example. 3600 IN DS 12345 13 2 ABCDEF',
    algorithm: 13,
    digest: 'ABCDEF',
    digestType: 'SHA256 (2)',
    keyTag: 12345,
    flags: 257,
    publicKey: 'cHVibGlj',
  });
  t.deepEqual(dnssecStatusOf({ Enabled: false, DsRecord: null, Algorithm: 0 }), {
    enabled: false,
  });
});

test('a read keeps the recorded DS record while DNSSEC is on, drops it when off', (t) => {
  t.deepEqual(observedDnsSec({ ...LIVE, DnsSecEnabled: true }, DS_STATUS), DS_STATUS);
  t.deepEqual(observedDnsSec({ ...LIVE, DnsSecEnabled: false }, DS_STATUS), { enabled: false });
  t.deepEqual(observedDnsSec({ ...LIVE, DnsSecEnabled: true }, undefined), { enabled: true });
  const live = { ...LIVE, DnsSecEnabled: true };
  const status = {
    ...statusOf(DNS_ZONE_FIELDS, live),
    ...zoneStatus(live, zoneOf({ domain: 'shop.example' }, { dnssec: DS_STATUS })),
  };
  t.like(status, {
    domain: 'shop.example',
    nameservers: ['kiki.bunny.net', 'coco.bunny.net'],
    dnssec: DS_STATUS,
    recordCount: 0,
  });
});
