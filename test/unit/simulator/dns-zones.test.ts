/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- answers are read loosely */
/**
 * cdn-sim DNS zones: add, list (paging, search, Lite view), get, update (nameservers, logging),
 * delete, the availability check and persistence. Every answer is checked against the official
 * document by `call()`.
 */
import test from 'ava';
import { createState } from '../../../src/simulator/state.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { startTestSim } from '../../support/sim-client.js';
import { addRecord, addZone, dns } from './dns-support.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

test('a new zone has the platform nameservers and SOA contact, and is read back as created', async (t) => {
  const id = await addZone(t, sim, 'New-Zone.example');
  const res = await dns(t, sim, 'GET', '/dnszone/{id}', { id });
  t.is(res.status, 200);
  t.like(res.body, {
    Id: id,
    Domain: 'new-zone.example',
    Nameserver1: 'kiki.bunny.net',
    Nameserver2: 'coco.bunny.net',
    SoaEmail: 'hostmaster@bunny.net',
    CustomNameserversEnabled: false,
    DnsSecEnabled: false,
    LogAnonymizationType: 0,
    CertificateKeyType: 0,
    Records: [],
  });
  t.is((await dns(t, sim, 'GET', '/dnszone/{id}', { id: 999999 })).status, 404);
});

for (const [domain, reason] of [
  ['localhost', 'one label only'],
  ['bad_domain.example', 'underscore in a zone name'],
  ['trailing.example.', 'trailing dot'],
  ['-dash.example', 'label starting with a dash'],
] as const) {
  test(`a zone named ${JSON.stringify(domain)} is refused (${reason})`, async (t) => {
    const res = await dns(t, sim, 'POST', '/dnszone', {}, { Domain: domain });
    t.is(res.status, 400);
    t.like(res.body, { ErrorKey: 'dnszone.invalid_domain', Field: 'Domain' });
  });
}

test('a domain is a zone once per account, whatever its case', async (t) => {
  await addZone(t, sim, 'twice.example');
  const res = await dns(t, sim, 'POST', '/dnszone', {}, { Domain: 'TWICE.example' });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'dnszone.domain_taken', Field: 'Domain' });
});

test('initial records are added with the zone, all or none', async (t) => {
  const bad = await dns(
    t,
    sim,
    'POST',
    '/dnszone',
    {},
    {
      Domain: 'initial.example',
      Records: [
        { Type: 0, Name: 'www', Value: '192.0.2.1' },
        { Type: 0, Name: 'api', Value: 'not-an-ip' },
      ],
    },
  );
  t.is(bad.status, 400);
  t.like(bad.body, { Field: 'Records[1].Value' });
  const list = await dns(t, sim, 'GET', '/dnszone', {}, undefined, { search: 'initial' });
  t.is((list.body as any).TotalItems, 0, 'nothing was created');
  const id = await addZone(t, sim, 'initial.example', [
    { Type: 0, Name: 'www', Value: '192.0.2.1' },
    { Type: 3, Name: '', Value: 'v=spf1 -all' },
  ]);
  const zone = (await dns(t, sim, 'GET', '/dnszone/{id}', { id })).body as any;
  t.deepEqual(
    zone.Records.map((r: any) => [r.Type, r.Name, r.Value]),
    [
      [0, 'www', '192.0.2.1'],
      [3, '', 'v=spf1 -all'],
    ],
  );
  t.true(zone.Records.every((r: any) => typeof r.Id === 'number' && r.Id > 0));
});

test('the list is paged like the other core lists and filtered by search', async (t) => {
  const own = await startTestSim();
  t.teardown(() => own.close());
  for (let i = 0; i < 7; i++) await addZone(t, own, `paged-${i}.example`);
  await addZone(t, own, 'other.test');
  const page1 = (await dns(t, own, 'GET', '/dnszone', {}, undefined, { page: 1, perPage: 5 }))
    .body as any;
  t.like(page1, { CurrentPage: 1, TotalItems: 8, HasMoreItems: true });
  t.is(page1.Items.length, 5);
  const page2 = (await dns(t, own, 'GET', '/dnszone', {}, undefined, { page: 2, perPage: 5 }))
    .body as any;
  t.like(page2, { CurrentPage: 2, TotalItems: 8, HasMoreItems: false });
  t.is(page2.Items.length, 3);
  const searched = (await dns(t, own, 'GET', '/dnszone', {}, undefined, { search: 'PAGED' }))
    .body as any;
  t.is(searched.TotalItems, 7);
  for (const [query, field] of [
    [{ perPage: 4 }, 'perPage'],
    [{ page: 0 }, 'page'],
  ] as const) {
    const res = await dns(t, own, 'GET', '/dnszone', {}, undefined, query);
    t.is(res.status, 400);
    t.like(res.body, { Field: field, ErrorKey: 'validation.out_of_range' });
  }
});

test('the handlers check paging too when strict mode is off', async (t) => {
  const lax = await startTestSim({ strict: false });
  t.teardown(() => lax.close());
  const res = await dns(t, lax, 'GET', '/dnszone', {}, undefined, { perPage: 1001 });
  t.is(res.status, 400);
  t.like(res.body, { Field: 'perPage', ErrorKey: 'validation.out_of_range' });
});

test('the Lite view leaves the records out', async (t) => {
  const id = await addZone(t, sim, 'lite.example', [{ Type: 0, Name: 'a', Value: '192.0.2.7' }]);
  const full = (await dns(t, sim, 'GET', '/dnszone/{id}', { id })).body as any;
  t.is(full.Records.length, 1);
  const lite = (await dns(t, sim, 'GET', '/dnszone/{id}', { id }, undefined, { view: 1 }))
    .body as any;
  t.is(lite.Records, null);
});

test('update: logging and key type change; custom nameservers are checked and kept, the defaults come back without them', async (t) => {
  const id = await addZone(t, sim, 'settings.example');
  const logging = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{id}',
    { id },
    { LoggingEnabled: true, LogAnonymizationType: 1, CertificateKeyType: 1 },
  );
  t.is(logging.status, 200);
  t.like(logging.body, { LoggingEnabled: true, LogAnonymizationType: 1, CertificateKeyType: 1 });
  const ignored = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{id}',
    { id },
    { Nameserver1: 'ns1.mine.example' },
  );
  t.like(ignored.body, { Nameserver1: 'kiki.bunny.net' }, 'ignored without custom nameservers');
  const invalid = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{id}',
    { id },
    { CustomNameserversEnabled: true, Nameserver1: 'ns1.mine.example.', SoaEmail: 'x' },
  );
  t.is(invalid.status, 400);
  t.like(invalid.body, { Field: 'Nameserver1' });
  const custom = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{id}',
    { id },
    {
      CustomNameserversEnabled: true,
      Nameserver1: 'ns1.mine.example',
      Nameserver2: 'ns2.mine.example',
      SoaEmail: 'dns@mine.example',
    },
  );
  t.like(custom.body, {
    CustomNameserversEnabled: true,
    Nameserver1: 'ns1.mine.example',
    Nameserver2: 'ns2.mine.example',
    SoaEmail: 'dns@mine.example',
    LoggingEnabled: true,
  });
  const back = await dns(
    t,
    sim,
    'POST',
    '/dnszone/{id}',
    { id },
    { CustomNameserversEnabled: false },
  );
  t.like(back.body, { Nameserver1: 'kiki.bunny.net', SoaEmail: 'hostmaster@bunny.net' });
  t.is((await dns(t, sim, 'POST', '/dnszone/{id}', { id: 999999 }, {})).status, 404);
});

test('delete removes the zone and the pull zones its accelerated records made', async (t) => {
  const id = await addZone(t, sim, 'gone.example');
  const record = (
    await addRecord(t, sim, id, { Type: 0, Name: 'fast', Value: '192.0.2.10', Accelerated: true })
  ).body as any;
  const pullZoneId = record.AcceleratedPullZoneId as number;
  t.is((await dns(t, sim, 'GET', '/pullzone/{id}', { id: pullZoneId })).status, 200);
  t.is((await dns(t, sim, 'DELETE', '/dnszone/{id}', { id })).status, 204);
  t.is((await dns(t, sim, 'GET', '/dnszone/{id}', { id })).status, 404);
  t.is((await dns(t, sim, 'GET', '/pullzone/{id}', { id: pullZoneId })).status, 404);
  t.is((await dns(t, sim, 'DELETE', '/dnszone/{id}', { id })).status, 404);
});

test('checkavailability answers whether the account can add the domain', async (t) => {
  const check = async (Name: string): Promise<unknown> =>
    (await dns(t, sim, 'POST', '/dnszone/checkavailability', {}, { Name })).body;
  t.deepEqual(await check('free-domain.example'), { Available: true });
  await addZone(t, sim, 'taken-domain.example');
  t.deepEqual(await check('Taken-Domain.example'), { Available: false });
  const bad = await dns(t, sim, 'POST', '/dnszone/checkavailability', {}, { Name: 'nodot' });
  t.is(bad.status, 400);
});

test('zones, records and scans survive a snapshot; a state written before DNS existed loads', (t) => {
  const state = createState();
  state.dnsZones.set(201, {
    zone: { Id: 201, Domain: 'saved.example' },
    records: [{ Id: 7001, Type: 0, Name: 'www', Value: '192.0.2.1' }],
    hidden: { dnsSec: { publicKey: 'AAAA' } },
  });
  state.dnsScans.set('saved.example', { JobId: 'j' });
  state.externalDns.add('cdn.saved.example');
  const restored = createState();
  restored.restore(state.snapshot());
  t.deepEqual(restored.snapshot(), state.snapshot());
  const old = state.snapshot() as unknown as Record<string, unknown>;
  delete old.dnsZones;
  delete old.dnsScans;
  delete old.externalDns;
  const fromOld = createState();
  fromOld.restore(old as any);
  t.is(fromOld.dnsZones.size, 0);
  t.is(fromOld.externalDns.size, 0);
});
