/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- answers are read loosely */
/**
 * cdn-sim DNS records: every documented type round-trips (add, read in the zone, update, list
 * by type), the record rules refuse what DNS or the live API refuses, weights, routing and
 * monitors are kept, PullZone records link a pull zone and accelerated records make one.
 */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { createPullZone, startTestSim, TEST_KEY } from '../../support/sim-client.js';
import { addRecord, addZone, dns } from './dns-support.js';

let sim: SimulatorHandle;
let pullZoneId: number;
test.before(async () => {
  sim = await startTestSim();
  const res = await fetch(`${sim.url}/pullzone`, {
    method: 'POST',
    headers: { AccessKey: TEST_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ Name: 'linked-pz', OriginUrl: 'https://o.example' }),
  });
  pullZoneId = ((await res.json()) as { Id: number }).Id;
});
test.after.always(async () => {
  await sim.close();
});

let zoneCount = 0;
/** A new zone of its own for one test (tests of a file run at once). */
async function freshZone(t: Parameters<typeof addZone>[0]): Promise<number> {
  return (await freshNamedZone(t)).zoneId;
}

async function freshNamedZone(
  t: Parameters<typeof addZone>[0],
): Promise<{ zoneId: number; domain: string }> {
  const domain = `records-${++zoneCount}.example`;
  return { zoneId: await addZone(t, sim, domain), domain };
}

async function recordsOf(t: Parameters<typeof dns>[0], zoneId: number): Promise<any[]> {
  return ((await dns(t, sim, 'GET', '/dnszone/{id}', { id: zoneId })).body as any).Records;
}

/** Body sent, and what the record shows besides the body's own members. */
const ROUND_TRIPS: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['A', { Type: 0, Name: 'www', Value: '192.0.2.1', Weight: 40, Ttl: 60 }, {}],
  ['AAAA', { Type: 1, Name: 'v6', Value: '2001:db8::1', Weight: 100 }, {}],
  ['CNAME', { Type: 2, Name: 'alias', Value: 'target.example.net' }, {}],
  ['TXT', { Type: 3, Name: '_acme-challenge', Value: 'token with "quotes"' }, {}],
  ['MX', { Type: 4, Name: '', Value: 'mx.example.net', Priority: 10 }, {}],
  ['MX (null MX)', { Type: 4, Name: 'nomail', Value: '.', Priority: 0 }, {}],
  ['Redirect', { Type: 5, Name: 'old', Value: 'https://new.example/path' }, {}],
  ['Flatten', { Type: 6, Name: '', Value: 'target.example.net' }, {}],
  ['PullZone', { Type: 7, Name: 'cdn' }, {}],
  [
    'SRV',
    { Type: 8, Name: '_sip._tcp', Value: 'sip.example.net', Priority: 10, Weight: 60, Port: 5060 },
    {},
  ],
  ['CAA', { Type: 9, Name: '', Value: 'letsencrypt.org', Flags: 128, Tag: 'issue' }, {}],
  ['PTR', { Type: 10, Name: '1.2', Value: 'host.example.net' }, {}],
  ['Script', { Type: 11, Name: 'edge', ScriptId: 42 }, { Value: '42', LinkName: '42' }],
  ['NS', { Type: 12, Name: 'sub', Value: 'ns1.other.example' }, {}],
  ['SVCB', { Type: 13, Name: '_dns', Value: '1 dns.example.net alpn=dot' }, {}],
  ['HTTPS', { Type: 14, Name: 'h', Value: '1 . alpn=h2,h3' }, {}],
  ['TLSA', { Type: 15, Name: '_443._tcp.www', Value: '3 1 1 ABCDEF0123' }, {}],
];

for (const [name, sent, shown] of ROUND_TRIPS) {
  test(`a ${name} record round-trips: add, read, update, list by type`, async (t) => {
    const zoneId = await freshZone(t);
    const body = name === 'PullZone' ? { ...sent, PullZoneId: pullZoneId } : sent;
    const expected =
      name === 'PullZone' ? { ...shown, LinkName: String(pullZoneId), Value: 'linked-pz' } : shown;
    const { PullZoneId: _p, ScriptId: _s, ...visible } = body;
    const added = await addRecord(t, sim, zoneId, body);
    t.is(added.status, 201, JSON.stringify(added.body));
    t.like(added.body, { ...visible, ...expected });
    const id = (added.body as any).Id as number;
    t.deepEqual(
      (await recordsOf(t, zoneId)).find((r) => r.Id === id),
      added.body,
    );
    const updated = await dns(
      t,
      sim,
      'POST',
      '/dnszone/{zoneId}/records/{id}',
      { zoneId, id },
      { Id: id, Ttl: 1234, Comment: 'changed' },
    );
    t.is(updated.status, 204);
    const after = (await recordsOf(t, zoneId)).find((r) => r.Id === id);
    t.deepEqual(after, { ...(added.body as any), Ttl: 1234, Comment: 'changed' });
    const listed = await dns(t, sim, 'GET', '/dnszone/{zoneId}/records', { zoneId }, undefined, {
      type: sent.Type as number,
    });
    t.deepEqual((listed.body as any).Items, [after]);
  });
}

/** Body, field named in the 400, and why. */
const REFUSED: Array<[Record<string, unknown>, string, string]> = [
  [{ Name: 'x', Value: '192.0.2.1' }, 'Type', 'a record needs a type'],
  [{ Type: 0, Value: '192.0.2.1' }, 'Name', 'a record needs a name ("" is the apex)'],
  [{ Type: 0, Name: 'x' }, 'Value', 'an A record needs a value'],
  [{ Type: 0, Name: 'x', Value: '999.1.1.1' }, 'Value', 'not an IPv4 address'],
  [{ Type: 1, Name: 'x', Value: '192.0.2.1' }, 'Value', 'not an IPv6 address'],
  [{ Type: 2, Name: 'x', Value: 'target.example.' }, 'Value', 'host names take no trailing dot'],
  [{ Type: 5, Name: 'x', Value: 'ftp://files.example' }, 'Value', 'a redirect goes to http(s)'],
  [{ Type: 15, Name: 'x', Value: 'abc' }, 'Value', 'TLSA data is usage selector type hex'],
  [{ Type: 0, Name: 'bad name', Value: '192.0.2.1' }, 'Name', 'a space in a name'],
  [{ Type: 0, Name: 'www.', Value: '192.0.2.1' }, 'Name', 'names are relative'],
  [{ Type: 0, Name: 'x', Value: '192.0.2.1', Ttl: -1 }, 'Ttl', 'a negative TTL'],
  [{ Type: 0, Name: 'x', Value: '192.0.2.1', Weight: 101 }, 'Weight', 'A weights are 0..100'],
  [
    { Type: 8, Name: '_s._tcp', Value: 'h.example', Weight: 65536 },
    'Weight',
    'SRV weights are 0..65535',
  ],
  [{ Type: 8, Name: '_s._tcp', Value: 'h.example', Port: 70000 }, 'Port', 'ports are 0..65535'],
  [
    { Type: 9, Name: 'x', Value: 'ca.example', Tag: 'issue', Flags: 256 },
    'Flags',
    'flags are a byte',
  ],
  [{ Type: 9, Name: 'x', Value: 'ca.example' }, 'Tag', 'a CAA record needs a tag'],
  [{ Type: 7, Name: 'x', PullZoneId: 999999 }, 'PullZoneId', 'no such pull zone'],
  [{ Type: 11, Name: 'x' }, 'ScriptId', 'a Script record needs the script'],
  [
    { Type: 0, Name: 'x', Value: '192.0.2.1', SmartRoutingType: 2, GeolocationLongitude: 10 },
    'GeolocationLatitude',
    'geolocation routing needs both coordinates',
  ],
  [
    { Type: 0, Name: 'x', Value: '192.0.2.1', GeolocationLatitude: 91 },
    'GeolocationLatitude',
    'latitudes are -90..90',
  ],
  [
    { Type: 0, Name: 'x', Value: '192.0.2.1', SmartRoutingType: 1 },
    'LatencyZone',
    'latency routing needs a zone',
  ],
  [
    { Type: 3, Name: 'x', Value: 't', Accelerated: true },
    'Accelerated',
    'only A, AAAA and CNAME are accelerated',
  ],
  [
    { Type: 0, Name: 'x', Value: '192.0.2.1', EnviromentalVariables: [{ Name: 'A', Value: 'b' }] },
    'EnviromentalVariables',
    'variables belong to Script records',
  ],
];

for (const [body, field, why] of REFUSED) {
  test(`refused with Field ${field}: ${why}`, async (t) => {
    const zoneId = await freshZone(t);
    const res = await addRecord(t, sim, zoneId, body);
    t.is(res.status, 400, JSON.stringify(res.body));
    t.is((res.body as any).Field, field, JSON.stringify(res.body));
    t.notRegex((res.body as any).Message, /official document/, "the handler's rule, not the gate");
    t.deepEqual(await recordsOf(t, zoneId), [], 'nothing was added');
  });
}

test('the live wording for an unknown pull zone or script', async (t) => {
  const zoneId = await freshZone(t);
  const pz = await addRecord(t, sim, zoneId, { Type: 7, Name: 'x', PullZoneId: 999999 });
  t.is((pz.body as any).Message, 'The pull zone ID is not valid.');
  const script = await addRecord(t, sim, zoneId, { Type: 11, Name: 'y', ScriptId: 0 });
  t.is((script.body as any).Message, 'The script ID is not valid.');
});

test('weights are kept for A, AAAA and SRV and discarded elsewhere; "@" is the apex', async (t) => {
  const zoneId = await freshZone(t);
  const cname = await addRecord(t, sim, zoneId, {
    Type: 2,
    Name: 'w',
    Value: 'a.example',
    Weight: 29,
  });
  t.like(cname.body, { Weight: 0 });
  const apex = await addRecord(t, sim, zoneId, {
    Type: 0,
    Name: '@',
    Value: '192.0.2.3',
    Weight: 29,
  });
  t.like(apex.body, { Name: '', Weight: 29 });
});

test('a CNAME or PullZone record stands alone at its name below the apex', async (t) => {
  const zoneId = await freshZone(t);
  t.is(
    (await addRecord(t, sim, zoneId, { Type: 0, Name: 'busy', Value: '192.0.2.1' })).status,
    201,
  );
  const cname = await addRecord(t, sim, zoneId, { Type: 2, Name: 'BUSY', Value: 'a.example' });
  t.is(cname.status, 400);
  t.like(cname.body, { ErrorKey: 'dnsrecord.name_conflict', Field: 'Name' });
  t.is(
    (await addRecord(t, sim, zoneId, { Type: 2, Name: 'alone', Value: 'a.example' })).status,
    201,
  );
  const txt = await addRecord(t, sim, zoneId, { Type: 3, Name: 'alone', Value: 'x' });
  t.like(txt.body, { ErrorKey: 'dnsrecord.name_conflict' });
  t.is((await addRecord(t, sim, zoneId, { Type: 2, Name: '', Value: 'a.example' })).status, 201);
  t.is(
    (await addRecord(t, sim, zoneId, { Type: 4, Name: '', Value: 'mx.example', Priority: 5 }))
      .status,
    201,
    'the apex is flattened',
  );
});

test('routing, monitors and comments are stored and returned', async (t) => {
  const zoneId = await freshZone(t);
  const geo = await addRecord(t, sim, zoneId, {
    Type: 0,
    Name: 'geo',
    Value: '192.0.2.20',
    SmartRoutingType: 2,
    GeolocationLatitude: 46.05,
    GeolocationLongitude: 14.5,
    MonitorType: 2,
    Comment: 'Ljubljana',
    Disabled: true,
    AutoSslIssuance: true,
  });
  t.like(geo.body, {
    SmartRoutingType: 2,
    GeolocationLatitude: 46.05,
    GeolocationLongitude: 14.5,
    GeolocationInfo: { Latitude: 46.05, Longitude: 14.5 },
    MonitorType: 2,
    MonitorStatus: 1,
    Comment: 'Ljubljana',
    Disabled: true,
    AutoSslIssuance: true,
  });
  const latency = await addRecord(t, sim, zoneId, {
    Type: 1,
    Name: 'lat',
    Value: '2001:db8::2',
    SmartRoutingType: 1,
    LatencyZone: 'DE',
  });
  t.like(latency.body, {
    SmartRoutingType: 1,
    LatencyZone: 'DE',
    MonitorType: 0,
    MonitorStatus: 0,
  });
  const script = await addRecord(t, sim, zoneId, {
    Type: 11,
    Name: 'run',
    ScriptId: 7,
    EnviromentalVariables: [{ Name: 'MODE', Value: 'prod' }],
  });
  t.like(script.body, { EnviromentalVariables: [{ Name: 'MODE', Value: 'prod' }] });
});

test('update: absent or null members stay, the path names the record, a missing one is 404', async (t) => {
  const zoneId = await freshZone(t);
  const added = (
    await addRecord(t, sim, zoneId, {
      Type: 0,
      Name: 'u',
      Value: '192.0.2.1',
      Ttl: 90,
      Comment: 'keep',
    })
  ).body as any;
  const id = added.Id as number;
  const path = { zoneId, id };
  t.is(
    (
      await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, {
        Value: '192.0.2.2',
        Comment: null,
      })
    ).status,
    204,
  );
  t.like((await recordsOf(t, zoneId))[0], {
    Value: '192.0.2.2',
    Ttl: 90,
    Comment: 'keep',
    Name: 'u',
  });
  const mismatch = await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, {
    Id: id + 1,
  });
  t.is(mismatch.status, 400);
  t.like(mismatch.body, { ErrorKey: 'dnsrecord.id_mismatch', Field: 'Id' });
  const invalid = await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, { Value: 'x' });
  t.is(invalid.status, 400);
  t.like(
    (await recordsOf(t, zoneId))[0],
    { Value: '192.0.2.2' },
    'a refused update changes nothing',
  );
  for (const params of [
    { zoneId, id: 999999 },
    { zoneId: 999999, id },
  ]) {
    t.is((await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', params, {})).status, 404);
    t.is((await dns(t, sim, 'DELETE', '/dnszone/{zoneId}/records/{id}', params)).status, 404);
  }
  t.is((await addRecord(t, sim, 999999, { Type: 0, Name: 'x', Value: '192.0.2.1' })).status, 404);
  t.is((await dns(t, sim, 'DELETE', '/dnszone/{zoneId}/records/{id}', path)).status, 204);
  t.deepEqual(await recordsOf(t, zoneId), []);
});

test('the record list is paged, filtered by type and searched in names and values', async (t) => {
  const zoneId = await freshZone(t);
  for (let i = 0; i < 6; i++)
    await addRecord(t, sim, zoneId, { Type: 0, Name: `h${i}`, Value: `192.0.2.${i + 1}` });
  await addRecord(t, sim, zoneId, { Type: 3, Name: 'note', Value: 'hello' });
  const page = (
    await dns(t, sim, 'GET', '/dnszone/{zoneId}/records', { zoneId }, undefined, {
      page: 2,
      perPage: 5,
    })
  ).body as any;
  t.like(page, { CurrentPage: 2, TotalItems: 7, HasMoreItems: false });
  t.is(page.Items.length, 2);
  const a = (
    await dns(t, sim, 'GET', '/dnszone/{zoneId}/records', { zoneId }, undefined, { type: 0 })
  ).body as any;
  t.is(a.TotalItems, 6);
  const searched = (
    await dns(t, sim, 'GET', '/dnszone/{zoneId}/records', { zoneId }, undefined, { search: 'HELL' })
  ).body as any;
  t.deepEqual(
    searched.Items.map((r: any) => r.Name),
    ['note'],
  );
  t.is((await dns(t, sim, 'GET', '/dnszone/{zoneId}/records', { zoneId: 999999 })).status, 404);
});

test('an accelerated record gets a pull zone in front of it, which follows the record', async (t) => {
  const { zoneId, domain } = await freshNamedZone(t);
  const added = (
    await addRecord(t, sim, zoneId, {
      Type: 0,
      Name: 'fast',
      Value: '192.0.2.50',
      Accelerated: true,
    })
  ).body as any;
  t.like(added, { Accelerated: true, AccelerationStatus: 3 });
  const pzId = added.AcceleratedPullZoneId as number;
  const pz = (await dns(t, sim, 'GET', '/pullzone/{id}', { id: pzId })).body as any;
  t.like(pz, {
    OriginType: 1,
    DnsRecordId: added.Id,
    DnsZoneId: zoneId,
    DnsRecordValue: '192.0.2.50',
  });
  const hosts = (): Promise<string[]> =>
    dns(t, sim, 'GET', '/pullzone/{id}', { id: pzId }).then((r) =>
      (r.body as any).Hostnames.map((h: any) => h.Value),
    );
  t.true((await hosts()).includes(`fast.${domain}`));
  const path = { zoneId, id: added.Id as number };
  await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, {
    Name: 'faster',
    Value: '192.0.2.51',
  });
  t.false((await hosts()).includes(`fast.${domain}`), 'the old name left the pull zone');
  t.true((await hosts()).includes(`faster.${domain}`));
  t.like((await dns(t, sim, 'GET', '/pullzone/{id}', { id: pzId })).body, {
    DnsRecordValue: '192.0.2.51',
  });
  await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, { Accelerated: false });
  t.like((await recordsOf(t, zoneId))[0], {
    Accelerated: false,
    AcceleratedPullZoneId: 0,
    AccelerationStatus: 0,
  });
  t.is(
    (await dns(t, sim, 'GET', '/pullzone/{id}', { id: pzId })).status,
    404,
    'turning it off removes the zone',
  );
  await dns(t, sim, 'POST', '/dnszone/{zoneId}/records/{id}', path, { Accelerated: true });
  const again = (await recordsOf(t, zoneId))[0];
  t.not(again.AcceleratedPullZoneId, pzId, 'a new zone');
  await dns(t, sim, 'DELETE', '/pullzone/{id}', { id: again.AcceleratedPullZoneId });
  t.like(
    (await recordsOf(t, zoneId))[0],
    { Accelerated: false, AcceleratedPullZoneId: 0 },
    'its pull zone was deleted',
  );
});

test('an accelerated record whose name is another pull zone hostname is refused', async (t) => {
  const { zoneId, domain } = await freshNamedZone(t);
  const other = await createPullZone(t, sim, `holder-${zoneId}`);
  await dns(
    t,
    sim,
    'POST',
    '/pullzone/{id}/addHostname',
    { id: other },
    { Hostname: `taken.${domain}` },
  );
  const res = await addRecord(t, sim, zoneId, {
    Type: 0,
    Name: 'taken',
    Value: '192.0.2.9',
    Accelerated: true,
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'dnsrecord.hostname_taken', Field: 'Accelerated' });
});
