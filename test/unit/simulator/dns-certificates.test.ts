/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-call -- answers are read loosely */
/**
 * Certificates follow DNS in cdn-sim: `loadFreeCertificate` answers the live API's 400 unless
 * the hostname resolves to its pull zone (a simulated record, an admin declaration, or
 * `--external-dns`), and the external-DNS (DNS-01) certificate routes check the TXT record.
 */
import test, { type ExecutionContext } from 'ava';
import { parseCli, UsageError } from '../../../src/simulator/cli-args.js';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { admin, createPullZone, startTestSim, type CallResult } from '../../support/sim-client.js';
import { addRecord, addZone, dns } from './dns-support.js';

interface Setup {
  sim: SimulatorHandle;
  pullZoneId: number;
  /** The pull zone's name: its system hostname is `<name>.b-cdn.net`. */
  name: string;
  zoneId: number;
}

let count = 0;
/** A simulator with a pull zone `shop-N` holding `host`, and a DNS zone `shop.example`. */
async function setup(t: ExecutionContext, host: string, simOptions = {}): Promise<Setup> {
  const sim = await startTestSim(simOptions);
  t.teardown(() => sim.close());
  const name = `shop-${++count}`;
  const pullZoneId = await createPullZone(t, sim, name);
  const added = await dns(
    t,
    sim,
    'POST',
    '/pullzone/{id}/addHostname',
    { id: pullZoneId },
    { Hostname: host },
  );
  t.is(added.status, 204);
  const zoneId = await addZone(t, sim, 'shop.example');
  return { sim, pullZoneId, name, zoneId };
}

function load(
  t: ExecutionContext,
  sim: SimulatorHandle,
  hostname: string,
  http01?: boolean,
): Promise<CallResult> {
  return dns(t, sim, 'GET', '/pullzone/loadFreeCertificate', {}, undefined, {
    hostname,
    ...(http01 === undefined ? {} : { useOnlyHttp01: http01 }),
  });
}

async function hostEntry(t: ExecutionContext, s: Setup, host: string): Promise<any> {
  const zone = (await dns(t, s.sim, 'GET', '/pullzone/{id}', { id: s.pullZoneId })).body as any;
  return zone.Hostnames.find((h: any) => h.Value === host);
}

test('without DNS that points at the pull zone the live 400 comes back, and nothing is issued', async (t) => {
  const s = await setup(t, 'cdn.shop.example');
  const res = await load(t, s.sim, 'cdn.shop.example');
  t.is(res.status, 400);
  t.deepEqual(res.body, {
    ErrorKey: 'pullzone.hostname_not_pointing',
    Field: 'hostname',
    Message: 'The domain cdn.shop.example is not pointing to our servers.',
  });
  t.like(await hostEntry(t, s, 'cdn.shop.example'), {
    HasCertificate: false,
    CertificateProvisionType: 0,
  });
  t.is((await load(t, s.sim, 'unknown.shop.example')).status, 404, 'a hostname on no zone is 404');
});

/** Record that resolves the hostname (`cdn.shop.example`) to the pull zone, or does not. */
const RECORDS: Array<[string, (s: Setup, name: string) => Record<string, unknown>, boolean]> = [
  [
    'a CNAME to the zone hostname',
    (_s, name) => ({ Type: 2, Name: 'cdn', Value: `${name}.b-cdn.net` }),
    true,
  ],
  [
    'a CNAME written in capitals',
    (_s, name) => ({ Type: 2, Name: 'CDN', Value: `${name.toUpperCase()}.B-CDN.NET` }),
    true,
  ],
  [
    'a PullZone record linking the zone',
    (s) => ({ Type: 7, Name: 'cdn', PullZoneId: s.pullZoneId }),
    true,
  ],
  [
    'a wildcard CNAME of the parent',
    (_s, name) => ({ Type: 2, Name: '*', Value: `${name}.b-cdn.net` }),
    true,
  ],
  [
    'a disabled CNAME',
    (_s, name) => ({ Type: 2, Name: 'cdn', Value: `${name}.b-cdn.net`, Disabled: true }),
    false,
  ],
  [
    'a CNAME to another host',
    () => ({ Type: 2, Name: 'cdn', Value: 'elsewhere.example.net' }),
    false,
  ],
  ['an A record', () => ({ Type: 0, Name: 'cdn', Value: '192.0.2.1' }), false],
  [
    'a CNAME on another name',
    (_s, name) => ({ Type: 2, Name: 'www', Value: `${name}.b-cdn.net` }),
    false,
  ],
];

for (const [what, record, issued] of RECORDS) {
  test(`${what} ${issued ? 'gets' : 'does not get'} the certificate`, async (t) => {
    const s = await setup(t, 'cdn.shop.example');
    const added = await addRecord(t, s.sim, s.zoneId, record(s, s.name));
    t.is(added.status, 201, JSON.stringify(added.body));
    const res = await load(t, s.sim, 'cdn.shop.example');
    t.is(res.status, issued ? 200 : 400);
    t.like(await hostEntry(t, s, 'cdn.shop.example'), {
      HasCertificate: issued,
      CertificateProvisionType: issued ? 1 : 0,
    });
  });
}

test('the record can come after the hostname: the next request gets the certificate', async (t) => {
  const s = await setup(t, 'late.shop.example');
  t.is((await load(t, s.sim, 'late.shop.example')).status, 400);
  await addRecord(t, s.sim, s.zoneId, { Type: 2, Name: 'late', Value: `${s.name}.b-cdn.net` });
  t.is((await load(t, s.sim, 'late.shop.example')).status, 200);
});

test('an accelerated record routes its name through its own pull zone', async (t) => {
  const s = await setup(t, 'unused.shop.example');
  const record = (
    await addRecord(t, s.sim, s.zoneId, {
      Type: 0,
      Name: 'fast',
      Value: '192.0.2.5',
      Accelerated: true,
    })
  ).body as any;
  t.is((await load(t, s.sim, 'fast.shop.example')).status, 200);
  const zone = (await dns(t, s.sim, 'GET', '/pullzone/{id}', { id: record.AcceleratedPullZoneId }))
    .body as any;
  t.like(
    zone.Hostnames.find((h: any) => h.Value === 'fast.shop.example'),
    { HasCertificate: true },
  );
});

test('a hostname declared as pointed by DNS elsewhere gets it; withdrawing the declaration stops it', async (t) => {
  const s = await setup(t, 'cdn.elsewhere.example');
  t.is((await load(t, s.sim, 'cdn.elsewhere.example')).status, 400);
  t.is((await admin(s.sim, 'PUT', '/_sim/external-dns/CDN.elsewhere.example')).status, 204);
  t.deepEqual((await admin(s.sim, 'GET', '/_sim/external-dns')).body, {
    hostnames: ['cdn.elsewhere.example'],
  });
  t.is((await load(t, s.sim, 'cdn.elsewhere.example')).status, 200);
  t.is((await admin(s.sim, 'DELETE', '/_sim/external-dns/cdn.elsewhere.example')).status, 204);
  t.is((await admin(s.sim, 'DELETE', '/_sim/external-dns/cdn.elsewhere.example')).status, 404);
  t.is((await admin(s.sim, 'PUT', '/_sim/external-dns/bad host')).status, 400);
  t.is((await load(t, s.sim, 'cdn.elsewhere.example')).status, 400);
});

test('externalDns at start declares hostnames; they are saved with the state and cleared by reset', async (t) => {
  const s = await setup(t, 'cdn.start.example', { externalDns: ['cdn.start.example.'] });
  t.is((await load(t, s.sim, 'cdn.start.example')).status, 200);
  t.deepEqual(s.sim.state.snapshot().externalDns, ['cdn.start.example']);
  await admin(s.sim, 'POST', '/_sim/reset');
  t.deepEqual((await admin(s.sim, 'GET', '/_sim/external-dns')).body, { hostnames: [] });
});

test('the check can be switched off (flag, option, admin); it survives a reset', async (t) => {
  const off = await setup(t, 'cdn.off.example', { dnsCheck: false });
  t.is((await load(t, off.sim, 'cdn.off.example')).status, 200);
  const s = await setup(t, 'cdn.toggle.example');
  t.deepEqual((await admin(s.sim, 'GET', '/_sim/dns-check')).body, { enabled: true });
  t.is((await admin(s.sim, 'PUT', '/_sim/dns-check', { enabled: 'no' })).status, 400);
  t.deepEqual((await admin(s.sim, 'PUT', '/_sim/dns-check', { enabled: false })).body, {
    enabled: false,
  });
  await admin(s.sim, 'POST', '/_sim/reset');
  t.deepEqual((await admin(s.sim, 'GET', '/_sim/dns-check')).body, { enabled: false });
  const again = await createPullZone(t, s.sim, 'after-reset');
  await dns(
    t,
    s.sim,
    'POST',
    '/pullzone/{id}/addHostname',
    { id: again },
    { Hostname: 'x.toggle.example' },
  );
  t.is((await load(t, s.sim, 'x.toggle.example')).status, 200);
});

test('DNS-01 in a simulated zone needs no pointing (useOnlyHttp01=false); without a zone it does', async (t) => {
  const s = await setup(t, 'dns01.shop.example');
  t.is((await load(t, s.sim, 'dns01.shop.example', false)).status, 200);
  t.like(await hostEntry(t, s, 'dns01.shop.example'), {
    HasCertificate: true,
    CertificateProvisionType: 2,
  });
  const other = await createPullZone(t, s.sim, 'no-zone');
  await dns(
    t,
    s.sim,
    'POST',
    '/pullzone/{id}/addHostname',
    { id: other },
    { Hostname: 'cdn.nozone.example' },
  );
  t.is((await load(t, s.sim, 'cdn.nozone.example', false)).status, 400);
});

test('the system hostname always points at its own zone', async (t) => {
  const s = await setup(t, 'unused2.shop.example');
  t.is((await load(t, s.sim, `${s.name}.b-cdn.net`)).status, 200);
});

test('external DNS certificate: request answers the TXT record, complete checks it in a simulated zone', async (t) => {
  const s = await setup(t, 'ext.shop.example');
  const complete = (): Promise<any> =>
    dns(
      t,
      s.sim,
      'POST',
      '/pullzone/completeExternalDnsCertificate',
      {},
      { Hostname: 'ext.shop.example' },
    );
  const early = await complete();
  t.is(early.status, 400, 'nothing requested yet');
  const req = await dns(
    t,
    s.sim,
    'POST',
    '/pullzone/requestExternalDnsCertificate',
    {},
    { Hostname: 'EXT.shop.example' },
  );
  t.is(req.status, 200);
  const challenge = req.body as any;
  t.is(challenge.TxtRecordName, '_acme-challenge.ext.shop.example');
  t.regex(challenge.TxtRecordValue, /^[A-Za-z0-9_-]{43}$/);
  t.true(Date.parse(challenge.ExpiresAt) > Date.now());
  const missing = await complete();
  t.is(missing.status, 400);
  t.like(missing.body, { ErrorKey: 'pullzone.dns_verification_failed' });
  await addRecord(t, s.sim, s.zoneId, {
    Type: 3,
    Name: '_acme-challenge.ext',
    Value: challenge.TxtRecordValue,
  });
  t.is((await complete()).status, 200);
  t.like(await hostEntry(t, s, 'ext.shop.example'), {
    HasCertificate: true,
    CertificateProvisionType: 2,
  });
  t.is((await complete()).status, 400, 'the request was used');
  const unknown = await dns(
    t,
    s.sim,
    'POST',
    '/pullzone/requestExternalDnsCertificate',
    {},
    { Hostname: 'none.example' },
  );
  t.is(unknown.status, 404);
});

test('cdn-sim flags: --external-dns is repeatable and checked, --no-dns-check turns the rule off', (t) => {
  const o = parseCli([
    '--api-key',
    'K',
    '--external-dns',
    'a.example',
    '--external-dns',
    '*.b.example',
  ]);
  t.deepEqual(o.externalDns, ['a.example', '*.b.example']);
  t.true(o.dnsCheck);
  t.false(parseCli(['--api-key', 'K', '--no-dns-check']).dnsCheck);
  t.throws(() => parseCli(['--api-key', 'K', '--external-dns', 'not a host']), {
    instanceOf: UsageError,
    message: /--external-dns not a host: must be a host name/,
  });
});
