/**
 * Which live records of a zone another object manages (record-sweep.ts), as a decision table:
 * an id claim protects when its object recorded it or is of the zone's namespace; a declared
 * record (the spec-only shared claim) protects only from the zone's namespace, and only while
 * its object may be creating it (no id recorded, or its recorded record is not live here); a
 * linked type declares every value of its type and name. The claims are built by the DnsRecord
 * kind's own `dnsRecordClaimsOf`, so a change there that drops the declared claim fails here.
 */
import test from 'ava';
import type { DnsRecord as LiveRecord } from '../../../../src/cdn/dns-types.js';
import { dnsRecordClaimsOf } from '../../../../src/controllers/dnsrecord/claims.js';
import type { DnsRecord } from '../../../../src/controllers/dnsrecord/types.js';
import { managedRecordIds } from '../../../../src/controllers/dnszone/record-sweep.js';
import type { ClaimHolder } from '../../../../src/runtime/types.js';

const ZONE_ID = 9;
const ZONE = { namespace: 'team-a', name: 'shop' };

/** A DnsRecord object; `status` given means a pass has recorded these fields. */
function recordObject(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  status?: Record<string, unknown>,
): DnsRecord {
  return {
    apiVersion: 'dns.cdn.operator.io/v1beta1',
    kind: 'DnsRecord',
    metadata: { namespace, name },
    spec,
    ...(status ? { status } : {}),
  } as unknown as DnsRecord;
}

/** The claim index holding each object's claims, as the runtime builds it from the objects. */
function indexOf(objects: DnsRecord[]): (type: string, id: string) => ClaimHolder[] {
  const held = objects.flatMap((o) =>
    dnsRecordClaimsOf(o).map((c) => ({
      type: c.type,
      id: c.id,
      holder: {
        kind: 'DnsRecord',
        namespace: o.metadata.namespace,
        name: o.metadata.name,
        recorded: c.recorded === true,
      },
    })),
  );
  return (type, id) => held.filter((h) => h.type === type && h.id === id).map((h) => h.holder);
}

const TXT: LiveRecord = { Id: 1, Type: 3, Name: 'team', Value: 'owned' };
const WWW: LiveRecord = { Id: 2, Type: 2, Name: 'www', Value: 'shop.b-cdn.net' };
const LINKED: LiveRecord = { Id: 3, Type: 7, Name: 'cdn', Value: 'shop-pz.b-cdn.net' };

const byRef = { dnsZoneRef: { name: 'shop' } };
const byZone = { dnsZoneId: ZONE_ID };
const teamTxt = { type: 'TXT', name: 'team', value: 'owned' };

const cases: { name: string; objects: DnsRecord[]; live?: LiveRecord[]; managed: number[] }[] = [
  { name: 'no claims: nothing is managed', objects: [], managed: [] },
  {
    name: 'declared by dnsZoneRef, create in flight (no id): kept',
    objects: [recordObject('team-a', 'r', { ...byRef, ...teamTxt })],
    managed: [1],
  },
  {
    name: 'declared by dnsZoneId, create in flight: kept',
    objects: [recordObject('team-a', 'r', { ...byZone, ...teamTxt })],
    managed: [1],
  },
  {
    name: 'declared name matches case-insensitively',
    objects: [recordObject('team-a', 'r', { ...byRef, ...teamTxt, name: 'TEAM' })],
    managed: [1],
  },
  {
    name: 'declared with another value: not this record',
    objects: [recordObject('team-a', 'r', { ...byRef, ...teamTxt, value: 'other' })],
    managed: [],
  },
  {
    name: 'declared on another DnsZone object: not this zone',
    objects: [recordObject('team-a', 'r', { dnsZoneRef: { name: 'other' }, ...teamTxt })],
    managed: [],
  },
  {
    name: 'declared from another namespace (dnsZoneId): protects nothing',
    objects: [recordObject('team-b', 'r', { ...byZone, ...teamTxt })],
    managed: [],
  },
  {
    name: 'a linked type declares every value of its type and name',
    objects: [recordObject('team-a', 'r', { ...byRef, type: 'PullZone', name: 'cdn' })],
    managed: [3],
  },
  {
    name: 'recorded id in the zone namespace: kept by id',
    objects: [
      recordObject('team-a', 'r', { ...byRef, ...teamTxt }, { recordId: 1, dnsZoneId: ZONE_ID }),
    ],
    managed: [1],
  },
  {
    name: 'recorded id from another namespace: kept (its owner made or adopted it)',
    objects: [
      recordObject('team-b', 'r', { ...byZone, ...teamTxt }, { recordId: 1, dnsZoneId: ZONE_ID }),
    ],
    managed: [1],
  },
  {
    name: 'adoption by id asked in the zone namespace: kept',
    objects: [
      recordObject('team-a', 'r', { ...byRef, ...teamTxt, adoption: { policy: 'ById', id: 2 } }),
    ],
    managed: [2],
  },
  {
    name: 'adoption by id asked from another namespace, not recorded: protects nothing',
    objects: [
      recordObject('team-b', 'r', { ...byZone, ...teamTxt, adoption: { policy: 'ById', id: 2 } }),
    ],
    managed: [],
  },
  {
    name: 'recorded record live here: a twin with the declared content is not kept by it',
    objects: [
      recordObject('team-a', 'r', { ...byRef, ...teamTxt }, { recordId: 1, dnsZoneId: ZONE_ID }),
    ],
    live: [TXT, { ...TXT, Id: 4 }, WWW, LINKED],
    managed: [1],
  },
  {
    name: 'recorded record gone (being created again): the declared content keeps the new one',
    objects: [
      recordObject('team-a', 'r', { ...byRef, ...teamTxt }, { recordId: 77, dnsZoneId: ZONE_ID }),
    ],
    managed: [1],
  },
  {
    name: 'an object being deleted declares nothing',
    objects: [
      {
        ...recordObject('team-a', 'r', { ...byRef, ...teamTxt }),
        metadata: { namespace: 'team-a', name: 'r', deletionTimestamp: '2026-11-28T00:00:00Z' },
      },
    ],
    managed: [],
  },
];

for (const c of cases) {
  test(`sweep: ${c.name}`, (t) => {
    const claimantsOf = indexOf(c.objects);
    const live = c.live ?? [TXT, WWW, LINKED];
    const managed = managedRecordIds({ zoneId: ZONE_ID, zone: ZONE, claimantsOf }, live);
    t.deepEqual(
      [...managed].sort((a, b) => a - b),
      c.managed,
    );
  });
}

test('claims: the declared record is in the index from the spec alone, shared, never exclusive', (t) => {
  const claims = dnsRecordClaimsOf(recordObject('team-a', 'r', { ...byRef, ...teamTxt }));
  t.deepEqual(claims, [
    {
      type: 'DnsRecordDeclared',
      id: 'ref/team-a/shop/TXT/team/owned',
      recorded: false,
      shared: true,
    },
  ]);
  const adopting = dnsRecordClaimsOf(
    recordObject('team-a', 'r', { ...byRef, ...teamTxt, adoption: { policy: 'ById', id: 5 } }),
  );
  t.deepEqual(
    adopting.map((c) => c.type),
    ['DnsRecord'],
    'an adoption by id never creates, so it declares nothing',
  );
  const noValue = dnsRecordClaimsOf(
    recordObject('team-a', 'r', { ...byRef, type: 'A', name: 'x' }),
  );
  t.deepEqual(noValue, [], 'a value type without a value declares no record');
});
