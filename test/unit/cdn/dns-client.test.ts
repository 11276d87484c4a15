/**
 * The typed DNS client against an in-process cdn-sim: every method, what it sends (each JSON
 * body checked against the official request schema, the import as a text file, nothing the
 * strict simulator rejects), paging, argument checks before any request, and the retry rule
 * (a create is not resent after a 5xx, an update is).
 */
import test, { type ExecutionContext } from 'ava';
import nodeFetch from 'node-fetch';
import { isCdnApiError } from '../../../src/cdn/errors.js';
import type { FetchLike } from '../../../src/cdn/options.js';
import { validateRequest } from '../../support/openapi.js';
import { callsOf, startSimClient, type SimClient } from './sim-harness.js';

interface Sent {
  method: string;
  path: string;
  contentType: string | undefined;
  accept: string | undefined;
  body: string | undefined;
}

/** Every request the client sent, with its raw body; `strip` empties chosen answers. */
function recordingFetch(
  sent: Sent[],
  strip?: (method: string, path: string) => boolean,
): FetchLike {
  const real = nodeFetch as unknown as FetchLike;
  return async (url, init) => {
    const path = new URL(url).pathname;
    sent.push({
      method: init.method,
      path,
      contentType: init.headers['Content-Type'],
      accept: init.headers.Accept,
      // The DNS calls send text only (JSON, a zone file).
      body: init.body as string | undefined,
    });
    const res = await real(url, init);
    if (!strip?.(init.method, path)) return res;
    return {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
      text: () => Promise.resolve(''),
    };
  };
}

/** Document templates of the DNS routes that take a JSON body. */
const BODY_ROUTES = [
  '/dnszone/checkavailability',
  '/dnszone/records/scan',
  '/dnszone',
  '/dnszone/{zoneId}/records',
  '/dnszone/{zoneId}/records/{id}',
  '/dnszone/{id}',
  '/dnszone/{zoneId}/certificate/issue',
  '/pullzone/requestExternalDnsCertificate',
  '/pullzone/completeExternalDnsCertificate',
  // Pull zone calls the tests make on the way.
  '/pullzone',
  '/pullzone/{id}/addHostname',
];

function templateOf(path: string): string | undefined {
  return BODY_ROUTES.find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '\\d+')}$`).test(path));
}

/** Every JSON body matches its documented schema, and the simulator rejected nothing. */
function assertSentAsDocumented(t: ExecutionContext, h: SimClient, sent: Sent[]): void {
  for (const s of sent.filter((x) => x.body !== undefined && !x.path.endsWith('/import'))) {
    const template = templateOf(s.path);
    t.truthy(template, `no documented body route for ${s.method} ${s.path}`);
    t.is(s.contentType, 'application/json');
    const problems = validateRequest('core', s.method, template!, JSON.parse(s.body!) as unknown);
    t.deepEqual(problems, [], `${s.method} ${s.path}: ${s.body!}`);
  }
  t.is(h.sim.calls.snapshot().rejectedByDocument.count, 0, 'strict cdn-sim rejected nothing');
}

async function start(
  t: ExecutionContext,
  strip?: (method: string, path: string) => boolean,
): Promise<{ h: SimClient; sent: Sent[] }> {
  const sent: Sent[] = [];
  const h = await startSimClient(t, { fetch: recordingFetch(sent, strip) });
  return { h, sent };
}

test('zones: add with records, read, list every page or one, update, check, delete', async (t) => {
  const { h, sent } = await start(t);
  const c = h.client;
  const zone = await c.addDnsZone({
    Domain: 'client.example',
    Records: [{ Type: 0, Name: 'www', Value: '192.0.2.1' }],
  });
  t.true(typeof zone.Id === 'number');
  t.deepEqual(
    zone.Records?.map((r) => r.Value),
    ['192.0.2.1'],
  );
  t.like(await c.getDnsZone(zone.Id!), { Domain: 'client.example' });
  for (let i = 0; i < 6; i++) await c.addDnsZone({ Domain: `page-${i}.example` });
  t.is((await c.listDnsZones({ perPage: 5 })).length, 7, 'two pages followed');
  t.is((await c.listDnsZones({ page: 2, perPage: 5 })).length, 2, 'one page');
  t.deepEqual(
    (await c.listDnsZones({ search: 'client' })).map((z) => z.Domain),
    ['client.example'],
  );
  const updated = await c.updateDnsZone(zone.Id!, {
    LoggingEnabled: true,
    LogAnonymizationType: 1,
  });
  t.like(updated, { LoggingEnabled: true, LogAnonymizationType: 1 });
  t.deepEqual(await c.checkDnsZoneAvailability('client.example'), { available: false });
  t.deepEqual(await c.checkDnsZoneAvailability('free.example'), { available: true });
  await c.deleteDnsZone(zone.Id!);
  const gone = await c.getDnsZone(zone.Id!).catch((e: unknown) => e);
  t.true(isCdnApiError(gone) && gone.kind === 'notFound');
  assertSentAsDocumented(t, h, sent);
});

test('a created zone without an answer body is found by its domain', async (t) => {
  const { h, sent } = await start(t, (method, path) => method === 'POST' && path === '/dnszone');
  const zone = await h.client.addDnsZone({ Domain: 'Silent.example' });
  t.like(zone, { Domain: 'silent.example' });
  t.true(typeof zone.Id === 'number');
  t.true(
    sent.some((s) => s.method === 'GET' && s.path === '/dnszone'),
    'looked up',
  );
});

test('records: add, update (Id from the path), list by type and page, delete', async (t) => {
  const { h, sent } = await start(t);
  const c = h.client;
  const { Id: zoneId } = await c.addDnsZone({ Domain: 'rec.example' });
  const pz = await c.addPullZone({ Name: 'rec-pz', OriginUrl: 'https://o.example' });
  const a = await c.addDnsRecord(zoneId!, { Type: 0, Name: 'www', Value: '192.0.2.1', Weight: 10 });
  const link = await c.addDnsRecord(zoneId!, { Type: 7, Name: 'cdn', PullZoneId: pz.Id });
  t.like(link, { LinkName: String(pz.Id), Value: 'rec-pz' });
  for (let i = 0; i < 5; i++)
    await c.addDnsRecord(zoneId!, { Type: 3, Name: `t${i}`, Value: `v${i}`, Ttl: 60 });
  await c.updateDnsRecord(zoneId!, a.Id!, { Value: '192.0.2.2', Weight: null });
  const update = sent.find((s) => s.method === 'POST' && s.path.endsWith(`/records/${a.Id!}`));
  t.deepEqual(JSON.parse(update!.body!), { Value: '192.0.2.2', Weight: null, Id: a.Id });
  t.like((await c.listDnsRecords(zoneId!, { type: 0 }))[0], { Value: '192.0.2.2', Weight: 10 });
  t.is((await c.listDnsRecords(zoneId!, { perPage: 5 })).length, 7);
  t.is((await c.listDnsRecords(zoneId!, { page: 2, perPage: 5 })).length, 2);
  t.deepEqual(
    (await c.listDnsRecords(zoneId!, { search: 't3' })).map((r) => r.Name),
    ['t3'],
  );
  await c.deleteDnsRecord(zoneId!, a.Id!);
  t.is((await c.listDnsRecords(zoneId!, { type: 0 })).length, 0);
  assertSentAsDocumented(t, h, sent);
});

test('DNSSEC, export, import, statistics, wildcard certificate and scans', async (t) => {
  const { h, sent } = await start(t);
  const c = h.client;
  const { Id: zoneId } = await c.addDnsZone({
    Domain: 'tools.example',
    Records: [{ Type: 4, Name: '', Value: 'mx.tools.example', Priority: 10 }],
  });
  const ds = await c.enableDnsSec(zoneId!);
  t.like(ds, { Enabled: true, Algorithm: 13, DigestType: 'SHA256 (2)' });
  t.like(await c.disableDnsSec(zoneId!), { Enabled: false });
  const file = await c.exportDnsZone(zoneId!);
  t.regex(file, /^@ 300 IN MX 10 mx\.tools\.example\.$/m);
  t.is(sent.find((s) => s.path.endsWith('/export'))?.accept, 'application/octet-stream');
  const { Id: copyId } = await c.addDnsZone({ Domain: 'tools-copy.example' });
  const result = await c.importDnsRecords(copyId!, 'www 60 IN A 192.0.2.9\nbad IN A x\n');
  t.deepEqual(result, { RecordsSuccessful: 1, RecordsFailed: 1, RecordsSkipped: 0 });
  const upload = sent.find((s) => s.path.endsWith('/import'));
  t.is(upload?.contentType, 'text/plain; charset=utf-8');
  t.is(upload?.body, 'www 60 IN A 192.0.2.9\nbad IN A x\n', 'the file, not JSON');
  const stats = await c.getDnsZoneStatistics(zoneId!, {
    dateFrom: new Date('2024-01-01T00:00:00Z'),
    dateTo: '2024-01-02T00:00:00Z',
  });
  t.is(Object.keys(stats.QueriesServedChart ?? {}).length, 2);
  await c.issueWildcardCertificate(zoneId!);
  await c.issueWildcardCertificate(zoneId!, '*.tools.example');
  const job = await c.triggerDnsRecordScan({ zoneId: zoneId! });
  t.like(await c.getDnsRecordScan(zoneId!), { JobId: job.JobId, Status: 2 });
  t.true(typeof (await c.triggerDnsRecordScan({ domain: 'later.example' })).JobId === 'string');
  assertSentAsDocumented(t, h, sent);
});

test('external DNS certificate: the TXT record to publish, then completion once it is there', async (t) => {
  const { h, sent } = await start(t);
  const c = h.client;
  const pz = await c.addPullZone({ Name: 'ext-pz', OriginUrl: 'https://o.example' });
  await c.addHostname(pz.Id!, 'cdn.ext.example');
  const { Id: zoneId } = await c.addDnsZone({ Domain: 'ext.example' });
  const challenge = await c.requestExternalDnsCertificate('cdn.ext.example');
  t.is(challenge.TxtRecordName, '_acme-challenge.cdn.ext.example');
  const early = await c.completeExternalDnsCertificate('cdn.ext.example').catch((e: unknown) => e);
  t.true(isCdnApiError(early) && early.kind === 'invalid' && early.status === 400);
  await c.addDnsRecord(zoneId!, {
    Type: 3,
    Name: '_acme-challenge.cdn',
    Value: challenge.TxtRecordValue,
  });
  await c.completeExternalDnsCertificate('cdn.ext.example');
  const host = (await c.getPullZone(pz.Id!)).Hostnames?.find((x) => x.Value === 'cdn.ext.example');
  t.like(host, { HasCertificate: true, CertificateProvisionType: 2 });
  assertSentAsDocumented(t, h, sent);
});

test('the free certificate follows DNS: the live 400 until a record points the hostname here', async (t) => {
  const { h } = await start(t);
  const c = h.client;
  const pz = await c.addPullZone({ Name: 'follow-pz', OriginUrl: 'https://o.example' });
  await c.addHostname(pz.Id!, 'www.follow.example');
  const refused = await c.loadFreeCertificate('www.follow.example').catch((e: unknown) => e);
  t.true(isCdnApiError(refused));
  t.like(refused, {
    kind: 'invalid',
    status: 400,
    detail: 'The domain www.follow.example is not pointing to our servers.',
  });
  const { Id: zoneId } = await c.addDnsZone({ Domain: 'follow.example' });
  await c.addDnsRecord(zoneId!, { Type: 2, Name: 'www', Value: 'follow-pz.b-cdn.net' });
  await c.loadFreeCertificate('www.follow.example');
});

/** Client method, arguments, and the field the `invalid` error names. */
const ARGUMENT_CHECKS: Array<[string, (h: SimClient) => Promise<unknown>, string]> = [
  ['listDnsZones', (h) => h.client.listDnsZones({ perPage: 4 }), 'perPage'],
  ['listDnsZones', (h) => h.client.listDnsZones({ page: 0 }), 'page'],
  ['getDnsZone', (h) => h.client.getDnsZone(0), 'id'],
  ['addDnsZone', (h) => h.client.addDnsZone({ Domain: ' ' }), 'Domain'],
  ['listDnsRecords', (h) => h.client.listDnsRecords(1, { type: 16 as never }), 'type'],
  ['updateDnsRecord', (h) => h.client.updateDnsRecord(1, -1, {}), 'recordId'],
  ['importDnsRecords', (h) => h.client.importDnsRecords(1, ''), 'zoneFile'],
  [
    'getDnsZoneStatistics',
    (h) => h.client.getDnsZoneStatistics(1, { dateFrom: 'soon' }),
    'dateFrom',
  ],
  ['triggerDnsRecordScan', (h) => h.client.triggerDnsRecordScan({ domain: '' }), 'Domain'],
];

for (const [method, run, field] of ARGUMENT_CHECKS) {
  test(`${method} refuses a bad ${field} before sending anything`, async (t) => {
    const { h, sent } = await start(t);
    const error = await run(h).catch((e: unknown) => e);
    t.true(isCdnApiError(error));
    t.like(error, { kind: 'invalid', field, status: undefined });
    t.deepEqual(sent, []);
  });
}

test('after a 5xx a create is not resent, an update is (within the attempts)', async (t) => {
  const { h } = await start(t);
  const c = h.client;
  const { Id: zoneId } = await c.addDnsZone({ Domain: 'retry.example' });
  const record = await c.addDnsRecord(zoneId!, { Type: 0, Name: 'x', Value: '192.0.2.1' });
  await h.admin('PUT', '/_sim/faults', {
    errorRate: 1,
    errorRoutes: ['PUT /dnszone/{zoneId}/records', 'POST /dnszone/{zoneId}/records/{id}'],
  });
  await h.admin('DELETE', '/_sim/calls');
  const add = await c
    .addDnsRecord(zoneId!, { Type: 0, Name: 'y', Value: '192.0.2.2' })
    .catch((e: unknown) => e);
  t.true(isCdnApiError(add) && add.kind === 'server');
  t.is((await callsOf(h, 'PUT /dnszone/{zoneId}/records')).count, 1, 'sent once');
  const update = await c.updateDnsRecord(zoneId!, record.Id!, { Ttl: 60 }).catch((e: unknown) => e);
  t.true(isCdnApiError(update) && update.kind === 'server');
  t.true((await callsOf(h, 'POST /dnszone/{zoneId}/records/{id}')).count > 1, 'resent');
});
