/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- answers are read loosely */
/**
 * cdn-sim DNS zone tools: zone file export and import (and the parser), DNSSEC with a DS record
 * computed as RFC 4034/4509 define it (checked against the RFC's own example), statistics,
 * the wildcard certificate and record scans.
 */
import test from 'ava';
import { dnsKeyRdata, dsDigest, keyTagOf } from '../../../src/simulator/routes/dns-dnssec.js';
import { logicalLines, parseZoneFile } from '../../../src/simulator/routes/dns-zonefile.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim } from '../../support/sim-client.js';
import { addZone, dns, rawText, rejected } from './dns-support.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

test('key tag and SHA-256 digest match the example of RFC 4034 section 5.4 / RFC 4509', (t) => {
  const key =
    'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==';
  // DNSKEY 256 3 5 (a zone signing key, RSA/SHA-1) of dskey.example.com.
  const rdata = Buffer.concat([Buffer.from([1, 0, 3, 5]), Buffer.from(key, 'base64')]);
  t.is(keyTagOf(rdata), 60485);
  t.is(
    dsDigest('dskey.example.com', rdata),
    'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
  );
});

test('DNSSEC: enable answers the DS record of the zone key, again the same one; disable drops it', async (t) => {
  const id = await addZone(t, sim, 'signed.example');
  const enabled = await dns(t, sim, 'POST', '/dnszone/{id}/dnssec', { id });
  t.is(enabled.status, 200);
  const ds = enabled.body as any;
  t.like(ds, {
    Enabled: true,
    Algorithm: 13,
    Flags: 257,
    DigestType: 'SHA256 (2)',
    DsConfigured: false,
  });
  t.is(Buffer.from(ds.PublicKey, 'base64').length, 64, 'a P-256 public key');
  const rdata = dnsKeyRdata(ds.PublicKey);
  t.is(ds.KeyTag, keyTagOf(rdata));
  t.is(ds.Digest, dsDigest('signed.example', rdata));
  t.is(ds.DsRecord, `signed.example. 3600 IN DS ${ds.KeyTag} 13 2 ${ds.Digest}`);
  t.like((await dns(t, sim, 'GET', '/dnszone/{id}', { id })).body, { DnsSecEnabled: true });
  t.deepEqual((await dns(t, sim, 'POST', '/dnszone/{id}/dnssec', { id })).body, ds, 'idempotent');
  const disabled = await dns(t, sim, 'DELETE', '/dnszone/{id}/dnssec', { id });
  t.like(disabled.body, { Enabled: false, DsRecord: null, PublicKey: null });
  t.like((await dns(t, sim, 'GET', '/dnszone/{id}', { id })).body, { DnsSecEnabled: false });
  const rotated = (await dns(t, sim, 'POST', '/dnszone/{id}/dnssec', { id })).body as any;
  t.not(rotated.PublicKey, ds.PublicKey, 'enabling again makes a new key');
  t.is((await dns(t, sim, 'POST', '/dnszone/{id}/dnssec', { id: 999999 })).status, 404);
});

test('export: a zone file with SOA, NS and every record; platform-only and disabled records as comments', async (t) => {
  const pz = await dns(
    t,
    sim,
    'POST',
    '/pullzone',
    {},
    { Name: 'export-pz', OriginUrl: 'https://o.example' },
  );
  const id = await addZone(t, sim, 'export.example', [
    { Type: 0, Name: '', Value: '192.0.2.1' },
    { Type: 2, Name: 'www', Value: 'export.example' },
    { Type: 3, Name: 'txt', Value: 'say "hi"' },
    { Type: 4, Name: '', Value: 'mx.example.net', Priority: 10 },
    { Type: 8, Name: '_sip._tcp', Value: 'sip.example.net', Priority: 1, Weight: 2, Port: 5060 },
    { Type: 9, Name: '', Value: 'letsencrypt.org', Flags: 0, Tag: 'issue' },
    { Type: 7, Name: 'cdn', PullZoneId: (pz.body as any).Id },
    { Type: 0, Name: 'off', Value: '192.0.2.2', Disabled: true },
  ]);
  const res = await rawText(sim, 'GET', `/dnszone/${id}/export`);
  t.is(res.status, 200);
  t.is(res.contentType, 'application/octet-stream');
  const lines = res.text.split('\n');
  t.true(lines.includes('$ORIGIN export.example.'));
  t.true(
    lines.some((l) => /^@ 3600 IN SOA kiki\.bunny\.net\. hostmaster\.bunny\.net\. \d+ /.test(l)),
  );
  for (const line of [
    '@ 3600 IN NS kiki.bunny.net.',
    '@ 300 IN A 192.0.2.1',
    'www 300 IN CNAME export.example.',
    'txt 300 IN TXT "say \\"hi\\""',
    '@ 300 IN MX 10 mx.example.net.',
    '_sip._tcp 300 IN SRV 1 2 5060 sip.example.net.',
    '@ 300 IN CAA 0 issue "letsencrypt.org"',
    '; PullZone record (platform only): cdn -> export-pz',
    '; disabled: off 300 IN A 192.0.2.2',
  ])
    t.true(lines.includes(line), `${line}\n---\n${res.text}`);
  t.is((await rawText(sim, 'GET', '/dnszone/999999/export')).status, 404);
});

test('import: an exported zone file brings the records into another zone; known ones are skipped', async (t) => {
  const from = await addZone(t, sim, 'source.example', [
    { Type: 0, Name: 'www', Value: '192.0.2.1', Ttl: 120 },
    { Type: 3, Name: 'txt', Value: 'a;b "c"' },
    { Type: 4, Name: '', Value: 'mx.source.example', Priority: 5 },
    { Type: 9, Name: '', Value: 'letsencrypt.org', Flags: 0, Tag: 'issue' },
  ]);
  const file = (await rawText(sim, 'GET', `/dnszone/${from}/export`)).text;
  const to = await addZone(t, sim, 'source-copy.example');
  const copied = file.replace(/source\.example\./g, 'source-copy.example.');
  const res = await rawText(sim, 'POST', `/dnszone/${to}/import`, copied);
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.text), { RecordsSuccessful: 4, RecordsFailed: 0, RecordsSkipped: 3 });
  const pick = (records: any[]): unknown[] =>
    records.map((r) => [
      r.Type,
      r.Name,
      r.Value.replace('source-copy', 'source'),
      r.Ttl,
      r.Priority,
      r.Tag,
    ]);
  const source = (await dns(t, sim, 'GET', '/dnszone/{id}', { id: from })).body as any;
  const copy = (await dns(t, sim, 'GET', '/dnszone/{id}', { id: to })).body as any;
  t.deepEqual(pick(copy.Records), pick(source.Records));
  const again = await rawText(sim, 'POST', `/dnszone/${to}/import`, copied);
  t.deepEqual(JSON.parse(again.text), {
    RecordsSuccessful: 0,
    RecordsFailed: 0,
    RecordsSkipped: 7,
  });
  t.is(rejected(sim), 0, 'the file body passes strict mode (the document declares no body)');
});

test('import counts unreadable and refused lines as failed and rejects an empty file', async (t) => {
  const id = await addZone(t, sim, 'mixed.example');
  const file = [
    '$ORIGIN mixed.example.',
    'ok 60 IN A 192.0.2.1',
    'bad IN A 300.1.1.1',
    'outside.other.example. IN A 192.0.2.2',
    'mx IN MX ten mail',
    'sig IN RRSIG whatever',
    '$INCLUDE other.zone',
  ].join('\n');
  const res = await rawText(sim, 'POST', `/dnszone/${id}/import`, file);
  t.deepEqual(JSON.parse(res.text), { RecordsSuccessful: 1, RecordsFailed: 4, RecordsSkipped: 1 });
  const empty = await rawText(sim, 'POST', `/dnszone/${id}/import`, '   ');
  t.is(empty.status, 400);
  t.is((await rawText(sim, 'POST', '/dnszone/999999/import', 'x IN A 192.0.2.1')).status, 404);
});

test('the zone file parser: parentheses, $ORIGIN and $TTL, blank owners, relative names, quotes', (t) => {
  const text = [
    '$TTL 900',
    '@ IN SOA ns. host. ( 1 ; serial',
    '   2 3 4 5 )',
    'www IN A 192.0.2.1',
    '    IN AAAA 2001:db8::1 ; same owner',
    '$ORIGIN sub.example.com.',
    'api 30 IN CNAME target',
    'txt IN TXT "a b" "c;d"',
  ].join('\n');
  t.is(logicalLines(text).length, 7, 'the SOA spans two lines');
  const parsed = parseZoneFile(text, 'example.com');
  t.deepEqual(
    parsed.filter((p) => p.kind === 'record').map((p) => (p as any).candidate),
    [
      { Type: 0, Name: 'www', Ttl: 900, Value: '192.0.2.1' },
      { Type: 1, Name: 'www', Ttl: 900, Value: '2001:db8::1' },
      { Type: 2, Name: 'api.sub', Ttl: 30, Value: 'target.sub.example.com' },
      { Type: 3, Name: 'txt.sub', Ttl: 900, Value: 'a bc;d' },
    ],
  );
  t.deepEqual(parsed.filter((p) => p.kind === 'skip').length, 1, 'the SOA');
});

test('statistics: one zero entry per day of the range, the last 30 days by default', async (t) => {
  const id = await addZone(t, sim, 'stats.example');
  const res = await dns(t, sim, 'GET', '/dnszone/{id}/statistics', { id });
  t.is(res.status, 200);
  const body = res.body as any;
  t.is(body.TotalQueriesServed, 0);
  t.is(Object.keys(body.QueriesServedChart).length, 31);
  t.true(Object.values(body.QueriesServedChart).every((v) => v === 0));
  const ranged = (
    await dns(t, sim, 'GET', '/dnszone/{id}/statistics', { id }, undefined, {
      dateFrom: '2024-01-01T00:00:00Z',
      dateTo: '2024-01-03T12:00:00Z',
    })
  ).body as any;
  t.deepEqual(Object.keys(ranged.NormalQueriesServedChart), [
    '2024-01-01T00:00:00.000Z',
    '2024-01-02T00:00:00.000Z',
    '2024-01-03T00:00:00.000Z',
  ]);
  const long = (
    await dns(t, sim, 'GET', '/dnszone/{id}/statistics', { id }, undefined, {
      dateFrom: '1990-01-01T00:00:00Z',
      dateTo: '2024-01-01T00:00:00Z',
    })
  ).body as any;
  t.is(Object.keys(long.SmartQueriesServedChart).length, 366, 'bounded');
  t.is((await dns(t, sim, 'GET', '/dnszone/{id}/statistics', { id: 999999 })).status, 404);
});

test('wildcard certificate: the zone or a name inside it; recorded in the state', async (t) => {
  const id = await addZone(t, sim, 'wild.example');
  t.is(
    (await dns(t, sim, 'POST', '/dnszone/{zoneId}/certificate/issue', { zoneId: id })).status,
    200,
  );
  const inside = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{zoneId}/certificate/issue',
    { zoneId: id },
    { Domain: '*.cdn.wild.example' },
  );
  t.is(inside.status, 200);
  const outside = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{zoneId}/certificate/issue',
    { zoneId: id },
    { Domain: '*.other.example' },
  );
  t.is(outside.status, 400);
  t.like(outside.body, { ErrorKey: 'dnszone.certificate_domain', Field: 'Domain' });
  t.deepEqual(sim.state.dnsZones.get(id)?.hidden.wildcardCertificates, [
    '*.wild.example',
    '*.cdn.wild.example',
  ]);
  t.is(
    (await dns(t, sim, 'POST', '/dnszone/{zoneId}/certificate/issue', { zoneId: 999999 })).status,
    404,
  );
});

test('record scans: exactly one of ZoneId and Domain; a scan of a domain shows once its zone exists', async (t) => {
  const trigger = (body: unknown): ReturnType<typeof dns> =>
    dns(t, sim, 'POST', '/dnszone/records/scan', {}, body);
  t.is((await trigger({})).status, 400);
  t.is((await trigger({ ZoneId: 1, Domain: 'x.example' })).status, 400);
  t.is((await trigger({ ZoneId: 999999 })).status, 404);
  const started = await trigger({ Domain: 'Scanned.example' });
  t.is(started.status, 200);
  t.like(started.body, { Status: 0 });
  const id = await addZone(t, sim, 'scanned.example');
  const job = await dns(t, sim, 'GET', '/dnszone/{zoneId}/records/scan', { zoneId: id });
  t.is(job.status, 200);
  t.like(job.body, {
    JobId: (started.body as any).JobId,
    ZoneId: id,
    Domain: 'scanned.example',
    Status: 2,
    Records: [],
  });
  const other = await addZone(t, sim, 'unscanned.example');
  t.is((await dns(t, sim, 'GET', '/dnszone/{zoneId}/records/scan', { zoneId: other })).status, 404);
  const byZone = await trigger({ ZoneId: other });
  t.is(byZone.status, 200);
  t.like((await dns(t, sim, 'GET', '/dnszone/{zoneId}/records/scan', { zoneId: other })).body, {
    JobId: (byZone.body as any).JobId,
  });
});
