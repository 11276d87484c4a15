/**
 * The DnsRecord field table and hooks (fields.ts, index.ts, checks.ts), table-driven over every documented record type: the add
 * body carries exactly the spec's members on the wire, the record read back compares equal,
 * every member drifts into one update member, and per-type rules refuse with a clear message.
 */
import test from 'ava';
import { DNS_RECORD_TYPE_NAMES } from '../../../../src/cdn/dns-record-types.js';
import type { DnsRecord as DnsRecordModel } from '../../../../src/cdn/dns-types.js';
import { checkSpec } from '../../../../src/controllers/dnsrecord/checks.js';
import { RECORD_FIELDS } from '../../../../src/controllers/dnsrecord/fields.js';
import { spelledOurWay } from '../../../../src/controllers/kit/enum-spelling.js';
import type { DnsRecordSpec } from '../../../../src/controllers/dnsrecord/types.js';
import { dnsRecordContentKey } from '../../../../src/controllers/shared/dns-record-claims.js';
import {
  addBodyOf,
  compareRecord,
  recordObject,
  recordStatusOf,
} from '../../../support/dns-record-kit.js';
import { recordSamples } from '../../../support/dns-record-samples.js';

const PULL_ZONE = 77;
const samples = recordSamples(PULL_ZONE);

/** What the platform reads back for an add body (links as LinkName, value filled in). */
function readBack(body: Record<string, unknown>, id: number): DnsRecordModel {
  const { PullZoneId, ScriptId, ...rest } = body;
  const link = (PullZoneId ?? ScriptId) as number | undefined;
  return {
    Id: id,
    Ttl: 300,
    ...rest,
    ...(link !== undefined ? { LinkName: String(link), Value: `linked-${String(link)}` } : {}),
  };
}

test('the samples cover every documented record type, once each', (t) => {
  t.deepEqual(
    samples.map((s) => s.type),
    [...DNS_RECORD_TYPE_NAMES],
  );
});

for (const [i, sample] of samples.entries()) {
  test(`${sample.type}: add body on the wire, read back in sync`, async (t) => {
    const linked = sample.type === 'PullZone' ? PULL_ZONE : undefined;
    const body = await addBodyOf(sample, linked);
    t.is(body.Type as number, i, 'the document’s integer of the type');
    t.is(body.Name, sample.name === '@' ? '' : sample.name, '@ is the apex ""');
    if (sample.smartRoutingType) t.is(typeof body.SmartRoutingType, 'number');
    if (sample.monitorType) t.is(typeof body.MonitorType, 'number');
    const live = readBack(body, 1000 + i);
    const diff = await compareRecord(sample, live, linked);
    t.deepEqual(diff.diffs, []);
    t.deepEqual(diff.update, {});
    t.deepEqual(diff.problems, []);
    t.like(recordStatusOf(live), { dnsZoneId: 5, type: sample.type });
  });
}

const drifts: [string, Partial<DnsRecordModel>, string, unknown][] = [
  ['value changed outside', { Value: '192.0.2.99' }, 'Value', '192.0.2.10'],
  ['ttl changed outside', { Ttl: 3600 }, 'Ttl', 120],
  ['weight changed outside', { Weight: 1 }, 'Weight', 50],
  ['routing turned off', { SmartRoutingType: 0 }, 'SmartRoutingType', 1],
  ['latency zone changed', { LatencyZone: 'NY' }, 'LatencyZone', 'DE'],
  ['renamed (case differences are not drift)', { Name: 'other' }, 'Name', 'a'],
];
for (const [why, change, field, wire] of drifts) {
  test(`drift: ${why} -> one update member ${field}`, async (t) => {
    const spec = samples[0] as DnsRecordSpec;
    const live = { ...readBack(await addBodyOf(spec), 1), ...change };
    const diff = await compareRecord(spec, live);
    t.deepEqual(Object.keys(diff.update), [field]);
    t.deepEqual(diff.update[field], wire);
    t.is(diff.diffs.length, 1);
  });
}

test('a name differing only in case is not drift; an unset member is the platform’s', async (t) => {
  const spec: DnsRecordSpec = { type: 'CNAME', name: 'WWW', value: 'x.example.net' };
  const live = { Id: 1, Type: 2, Name: 'www', Value: 'x.example.net', Ttl: 60, Comment: 'theirs' };
  t.deepEqual((await compareRecord(spec, live as DnsRecordModel)).diffs, []);
});

test('the linked pull zone of a PullZone record is compared with the resolved id', async (t) => {
  const spec = samples[7] as DnsRecordSpec;
  const live = { Id: 1, Type: 7, Name: 'cdn', Value: 'zone', LinkName: '12' } as DnsRecordModel;
  t.deepEqual((await compareRecord(spec, live, 13)).update, { PullZoneId: 13 });
});

test('an adopted record of another type is reported, never changed', async (t) => {
  const spec: DnsRecordSpec = { type: 'A', name: 'x', value: '192.0.2.1' };
  const live = { Id: 9, Type: 3, Name: 'x', Value: 'text' } as DnsRecordModel;
  const diff = await compareRecord(spec, live);
  t.deepEqual(diff.problems, ['spec.type is A but the DNS record has TXT']);
  t.false('Type' in diff.update, 'the type is never sent in an update');
});

const refusals: [string, DnsRecordSpec, RegExp][] = [
  [
    'value missing',
    { type: 'A', name: 'x' },
    /spec\.value is required for a A record \(unless it is adopted\)/,
  ],
  [
    'weight on a TXT',
    { type: 'TXT', name: 'x', value: 't', weight: 1 },
    /spec\.weight does not apply to a TXT record/,
  ],
  [
    'port on an MX',
    { type: 'MX', name: '', value: 'm.example', port: 25 },
    /spec\.port does not apply/,
  ],
  [
    'accelerated TXT',
    { type: 'TXT', name: 'x', value: 't', accelerated: true },
    /spec\.accelerated does not apply/,
  ],
  [
    'PullZone without link',
    { type: 'PullZone', name: 'x' },
    /needs spec\.pullZoneRef or spec\.pullZoneId/,
  ],
  [
    'pullZoneId on a CNAME',
    { type: 'CNAME', name: 'x', value: 'a.b', pullZoneId: 1 },
    /apply to PullZone records only/,
  ],
  ['Script without id', { type: 'Script', name: 'x' }, /spec\.scriptId is required/],
  [
    'latency without zone',
    { type: 'A', name: 'x', value: '192.0.2.1', smartRoutingType: 'Latency' },
    /needs spec\.latencyZone/,
  ],
  [
    'geolocation without coordinates',
    {
      type: 'A',
      name: 'x',
      value: '192.0.2.1',
      smartRoutingType: 'Geolocation',
      geolocationLatitude: 1,
    },
    /needs spec\.geolocationLatitude and spec\.geolocationLongitude/,
  ],
  [
    'coordinates without geolocation',
    { type: 'A', name: 'x', value: '192.0.2.1', geolocationLatitude: 1 },
    /apply only with spec\.smartRoutingType Geolocation/,
  ],
  ['unknown type', { type: 'B' as 'A', name: 'x', value: 'v' }, /"B" is not one of A, AAAA/],
];
for (const [why, spec, message] of refusals) {
  test(`refused: ${why}`, (t) => {
    const err = t.throws(() => checkSpec(recordObject(spec)));
    t.regex(err?.message ?? '', message);
  });
}

test('content claim key: zone/TYPE/lowercased name/value', (t) => {
  t.is(dnsRecordContentKey(5, 'CNAME', 'WWW', 'Target.example'), '5/CNAME/www/Target.example');
});

test('monitorType HTTP is the platform’s DnsMonitoringType 2 (its document spells it Http), both ways', (t) => {
  const codec = RECORD_FIELDS.find((f) => f.spec === 'monitorType')!.codec;
  t.is(codec.toWire('HTTP'), 2);
  t.is(codec.fromWire(2), 'HTTP');
  t.deepEqual(spelledOurWay(['None', 'Ping', 'Http', 'Monitor'], { Http: 'HTTP' }), [
    'None',
    'Ping',
    'HTTP',
    'Monitor',
  ]);
});

test('CRD: environmentVariables is a map list keyed by the required name (a name appears once)', (t) => {
  const schema = RECORD_FIELDS.find((f) => f.spec === 'environmentVariables')!.codec.schema;
  t.like(schema, {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    items: { required: ['name', 'value'] },
  });
});
