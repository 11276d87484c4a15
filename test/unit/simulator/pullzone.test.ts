import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Zone = Record<string, unknown> & {
  Id: number;
  Name: string;
  Hostnames: Array<Record<string, unknown>>;
};

const update = (id: number, body: unknown) =>
  ({ area: 'core', method: 'POST', template: '/pullzone/{id}', params: { id }, body }) as const;

test('add returns the full record with the CDN system hostname <name>.b-cdn.net', async (t) => {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone',
    body: { Name: 'pz-add', OriginUrl: 'https://o.example' },
  });
  t.is(res.status, 201);
  const zone = res.body as Zone;
  t.is(zone.Name, 'pz-add');
  t.is(zone.OriginUrl, 'https://o.example');
  t.like(zone.Hostnames[0], {
    Value: 'pz-add.b-cdn.net',
    IsSystemHostname: true,
    ForceSSL: false,
    HasCertificate: true,
  });
  t.is(zone.IpFamilyPolicy, 1, 'the contract states DualStack as the default');
});

test('add with a name already taken (any case) is 400 ApiErrorData naming Name', async (t) => {
  await createPullZone(t, sim, 'pz-dup');
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone',
    body: { Name: 'PZ-DUP' },
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'pullzone.name_taken', Field: 'Name' });
});

test('add without Name is 400 naming Name', async (t) => {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone',
    body: { OriginUrl: 'https://x' },
  });
  t.is(res.status, 400);
  t.like(res.body, { Field: 'Name' });
});

test('update returns the full pull zone record with the change applied', async (t) => {
  const id = await createPullZone(t, sim, 'pz-update');
  const res = await call(
    t,
    sim,
    update(id, {
      OriginUrl: 'https://new.example',
      EnableWebpVary: true,
      OptimizerImageQuality: 90,
    }),
  );
  t.is(res.status, 200);
  const zone = res.body as Zone;
  t.is(zone.Id, id);
  t.is(zone.OriginUrl, 'https://new.example');
  t.is(
    zone.EnableWebPVary,
    true,
    'EnableWebpVary of the update model is EnableWebPVary in the record',
  );
  t.is(zone.OptimizerImageQuality, 90);
  t.true(Array.isArray(zone.Hostnames));
});

test('update with an unknown property: ignored like the live API does, and recorded as inexact', async (t) => {
  const id = await createPullZone(t, sim, 'pz-unknown');
  const before = sim.calls.snapshot().rejectedByDocument.accepted;
  const res = await call(t, sim, update(id, { OriginUrl: 'https://x', NotAField: 1 }));
  t.is(res.status, 200);
  t.like(res.body, { OriginUrl: 'https://x' });
  t.false('NotAField' in (res.body as Zone));
  t.is(sim.calls.snapshot().rejectedByDocument.accepted, before + 1);
});

test('update of an unknown id is 404', async (t) => {
  const res = await call(t, sim, update(987654, { OriginUrl: 'https://x' }));
  t.is(res.status, 404);
});

test('null means leave unchanged', async (t) => {
  const id = await createPullZone(t, sim, 'pz-null', {
    OptimizerImageQuality: 42,
    BlockedIps: ['1.2.3.4'],
  });
  const res = await call(
    t,
    sim,
    update(id, { OptimizerImageQuality: null, BlockedIps: null, OriginUrl: null }),
  );
  t.is(res.status, 200);
  t.like(res.body, {
    OptimizerImageQuality: 42,
    BlockedIps: ['1.2.3.4'],
    OriginUrl: 'https://origin.example',
  });
});

const RANGES: Array<[string, number, number]> = [
  ['OptimizerDesktopMaxWidth', 0, 5000],
  ['OptimizerMobileMaxWidth', 0, 5000],
  ['OptimizerImageQuality', 1, 100],
  ['OptimizerMobileImageQuality', 1, 100],
  ['OriginShieldMaxConcurrentRequests', 1, 10000],
  ['PermaCacheType', 0, 1],
];

for (const [field, min, max] of RANGES) {
  test(`Limits table: ${field} accepts ${min} and ${max}, rejects ${min - 1} and ${max + 1}`, async (t) => {
    const id = await createPullZone(t, sim, `pz-range-${field.toLowerCase()}`);
    for (const ok of [min, max]) {
      const res = await call(t, sim, update(id, { [field]: ok }));
      t.is(res.status, 200, `${field}=${ok} is inside the range`);
      t.is((res.body as Zone)[field], ok);
    }
    for (const bad of [min - 1, max + 1]) {
      const res = await call(t, sim, update(id, { [field]: bad }));
      t.is(res.status, 400, `${field}=${bad} is outside the range`);
      t.like(res.body, { ErrorKey: 'validation.out_of_range', Field: field });
    }
  });
}

const ENUMS: Array<[string, number, number]> = [
  ['IpFamilyPolicy', 3, 4],
  ['Type', 1, 2],
  ['LogForwardingProtocol', 3, 4],
  ['OptimizerWatermarkPosition', 5, 6],
  ['TlsSecurityLevel', 2, 3],
];

for (const [field, last, outside] of ENUMS) {
  test(`enum ${field}: ${last} accepted, ${outside} rejected (values from the official document)`, async (t) => {
    const id = await createPullZone(t, sim, `pz-enum-${field.toLowerCase()}`);
    t.is((await call(t, sim, update(id, { [field]: last }))).status, 200);
    const res = await call(t, sim, update(id, { [field]: outside }));
    t.is(res.status, 400);
    t.like(res.body, { Field: field });
  });
}

const TYPE_CASES: Array<[string, unknown, string]> = [
  ['EnableLogging', 'yes', 'boolean given a string'],
  ['OriginRetries', 1.5, 'integer given a fraction'],
  ['BlockedIps', 'not-a-list', 'string[] given a string'],
  ['OriginConnectTimeout', 2 ** 31, 'int32 overflow'],
];

for (const [field, value, reason] of TYPE_CASES) {
  test(`wrong type is 400 naming the field: ${reason}`, async (t) => {
    const id = await createPullZone(t, sim, `pz-type-${field.toLowerCase()}`);
    const res = await call(t, sim, update(id, { [field]: value }));
    t.is(res.status, 400);
    t.like(res.body, { Field: field });
  });
}

test('get, list (plain and paged), search and delete', async (t) => {
  const id = await createPullZone(t, sim, 'pz-lifecycle');
  const got = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(got.status, 200);
  t.is((got.body as Zone).Name, 'pz-lifecycle');
  const searched = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { search: 'pz-lifecycle' },
  });
  t.deepEqual(
    (searched.body as { Items: Zone[] }).Items.map((z) => z.Id),
    [id],
  );
  const paged = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { page: 1, perPage: 5 },
  });
  t.like(paged.body, { CurrentPage: 1 });
  t.true((paged.body as { Items: unknown[] }).Items.length <= 5);
  const badPage = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone',
    query: { page: 1, perPage: 4 },
  });
  t.is(badPage.status, 400);
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'DELETE',
        template: '/pullzone/{id}',
        params: { id },
      })
    ).status,
    204,
  );
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'GET',
        template: '/pullzone/{id}',
        params: { id },
      })
    ).status,
    404,
  );
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'DELETE',
        template: '/pullzone/{id}',
        params: { id },
      })
    ).status,
    404,
  );
});

async function getZone(t: ExecutionContext, id: number): Promise<Zone> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(res.status, 200);
  return res.body as Zone;
}

const DNS_ACCELERATE: Array<[string, Record<string, unknown>, string, string]> = [
  ['https on 8443', { DnsOriginScheme: 'https', DnsOriginPort: 8443 }, 'https:', '8443'],
  ['http on 8080', { DnsOriginScheme: 'http', DnsOriginPort: 8080 }, 'http:', '8080'],
  ['http without a port: 80', { DnsOriginScheme: 'http' }, 'http:', '80'],
  ['https without a port: 443', { DnsOriginScheme: 'https' }, 'https:', '443'],
];

for (const [what, settings, scheme, port] of DNS_ACCELERATE) {
  test(`a DnsAccelerate zone (OriginType 1, ${what}) reads back OriginUrl scheme://host:port`, async (t) => {
    const name = `pz-dns-${scheme.slice(0, -1)}-${port}`;
    const id = await createPullZone(t, sim, name, { OriginType: 1, ...settings });
    const zone = await getZone(t, id);
    t.is(typeof zone.OriginUrl, 'string', 'live clients derive scheme and port from OriginUrl');
    // A client splits it like a URL parser does; the port is always spelled out.
    const url = new URL(String(zone.OriginUrl));
    t.is(url.protocol, scheme);
    t.regex(String(zone.OriginUrl), new RegExp(`:${port}$`));
    t.not(url.hostname, '');
    // The vendor's client reads the two members too (issue 49).
    t.like(zone, { DnsOriginPort: Number(port), DnsOriginScheme: scheme.slice(0, -1) });
  });
}

const DNS_ORIGIN_READS: Array<[string, Record<string, unknown>, unknown, unknown]> = [
  ['an origin URL zone given none reads null', {}, null, null],
  [
    'an origin URL zone reads back what it was given',
    { DnsOriginPort: 8080, DnsOriginScheme: 'http' },
    8080,
    'http',
  ],
];

for (const [why, settings, port, scheme] of DNS_ORIGIN_READS) {
  test(`DnsOriginPort and DnsOriginScheme on a read: ${why}`, async (t) => {
    const id = await createPullZone(t, sim, `pz-dns-read-${String(port)}`, settings);
    const zone = await getZone(t, id);
    t.true('DnsOriginPort' in zone && 'DnsOriginScheme' in zone, 'both members are answered');
    t.like(zone, { DnsOriginPort: port, DnsOriginScheme: scheme });
  });
}

test('switching a DnsAccelerate zone to another scheme and port changes OriginUrl with it', async (t) => {
  const id = await createPullZone(t, sim, 'pz-dns-switch', {
    OriginType: 1,
    DnsOriginScheme: 'https',
    DnsOriginPort: 443,
  });
  const res = await call(t, sim, update(id, { DnsOriginScheme: 'http', DnsOriginPort: 8081 }));
  t.regex(String((res.body as Zone).OriginUrl), /^http:\/\/[^/]+:8081$/);
  const back = await call(
    t,
    sim,
    update(id, { OriginType: 0, OriginUrl: 'https://plain.example' }),
  );
  t.is((back.body as Zone).OriginUrl, 'https://plain.example', 'other origin types keep OriginUrl');
});

const LIST_FORMS: Array<[string, Record<string, string | number>, 'array' | 'paged']> = [
  ['no query: the whole list as a plain array (the document)', {}, 'array'],
  ['page 1: the paged form (the document)', { page: 1 }, 'paged'],
  [
    "search without page: the paged form (the vendor's provider and other live clients)",
    { search: 'NAME' },
    'paged',
  ],
  ['search with page 1: the paged form', { search: 'NAME', page: 1 }, 'paged'],
];

LIST_FORMS.forEach(([why, query, form], i) => {
  test(`GET /pullzone answer form: ${why}`, async (t) => {
    const name = `pz-form-${i}`;
    await createPullZone(t, sim, name);
    const filled = Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, v === 'NAME' ? name : v]),
    );
    const res = await call(t, sim, {
      area: 'core',
      method: 'GET',
      template: '/pullzone',
      query: filled,
    });
    t.is(res.status, 200);
    t.is(Array.isArray(res.body) ? 'array' : 'paged', form);
    const items = Array.isArray(res.body) ? res.body : (res.body as { Items: Zone[] }).Items;
    t.true((items as Zone[]).some((z) => z.Name === name));
  });
});
