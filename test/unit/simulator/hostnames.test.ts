import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { admin, call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Host = {
  Value: string;
  ForceSSL: boolean;
  HasCertificate: boolean;
  CertificateKeyType: number;
  Certificate: string | null;
};
type Zone = {
  Hostnames: Host[];
  AllowedReferrers: string[];
  BlockedReferrers: string[];
  BlockedIps: string[];
};

async function getZone(
  t: Parameters<typeof call>[0],
  id: number,
  includeCertificate = false,
): Promise<Zone> {
  const res = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
    query: { includeCertificate },
  });
  return res.body as Zone;
}

const HOSTNAME_ROUTES: Array<[string, string]> = [
  ['POST', '/pullzone/{id}/addHostname'],
  ['DELETE', '/pullzone/{id}/removeHostname'],
  ['DELETE', '/pullzone/{id}/removeCertificate'],
  ['POST', '/pullzone/{id}/removeAllowedReferrer'],
  ['POST', '/pullzone/{id}/addAllowedReferrer'],
  ['POST', '/pullzone/{id}/addBlockedReferrer'],
  ['POST', '/pullzone/{id}/removeBlockedReferrer'],
];

for (const [method, template] of HOSTNAME_ROUTES) {
  test(`${method} ${template}: Hostname is required and has minimum length 1`, async (t) => {
    const id = await createPullZone(t, sim, `pz-hn-${template.split('/').pop()!.toLowerCase()}`);
    for (const body of [{}, { Hostname: '' }, { Hostname: 5 }]) {
      const res = await call(t, sim, { area: 'core', method, template, params: { id }, body });
      t.is(res.status, 400, JSON.stringify(body));
      t.like(res.body, { Field: 'Hostname' });
    }
  });
}

test('add and remove a custom hostname (DELETE with a JSON body)', async (t) => {
  const id = await createPullZone(t, sim, 'pz-hosts');
  const add = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addHostname',
    params: { id },
    body: { Hostname: 'cdn.example.com' },
  });
  t.is(add.status, 204);
  t.true((await getZone(t, id)).Hostnames.some((h) => h.Value === 'cdn.example.com'));
  const remove = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}/removeHostname',
    params: { id },
    body: { Hostname: 'cdn.example.com' },
  });
  t.is(remove.status, 204);
  t.false((await getZone(t, id)).Hostnames.some((h) => h.Value === 'cdn.example.com'));
});

test('removing a hostname that is not there is 400 pullzone.hostname_not_found (decision, see docs/simulator.md)', async (t) => {
  const id = await createPullZone(t, sim, 'pz-host-absent');
  const res = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}/removeHostname',
    params: { id },
    body: { Hostname: 'nope.example.com' },
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'pullzone.hostname_not_found', Field: 'Hostname' });
});

test('the system hostname cannot be removed', async (t) => {
  const id = await createPullZone(t, sim, 'pz-sys');
  const res = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}/removeHostname',
    params: { id },
    body: { Hostname: 'pz-sys.b-cdn.net' },
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'pullzone.system_hostname' });
});

test('a hostname registered on another pull zone is rejected', async (t) => {
  const a = await createPullZone(t, sim, 'pz-owner-a');
  const b = await createPullZone(t, sim, 'pz-owner-b');
  const body = { Hostname: 'shared.example.com' };
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'POST',
        template: '/pullzone/{id}/addHostname',
        params: { id: a },
        body,
      })
    ).status,
    204,
  );
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addHostname',
    params: { id: b },
    body,
  });
  t.is(res.status, 400);
  t.like(res.body, { ErrorKey: 'pullzone.hostname_already_registered' });
});

test('removing an allowed referrer that is not there succeeds and changes nothing (decision)', async (t) => {
  const id = await createPullZone(t, sim, 'pz-ref-absent', { AllowedReferrers: ['keep.example'] });
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/removeAllowedReferrer',
    params: { id },
    body: { Hostname: 'absent.example' },
  });
  t.is(res.status, 204);
  t.deepEqual((await getZone(t, id)).AllowedReferrers, ['keep.example']);
});

test('allowed and blocked referrers and blocked IPs are added once and removed', async (t) => {
  const id = await createPullZone(t, sim, 'pz-lists');
  const op = (path: string, body: unknown): ReturnType<typeof call> =>
    call(t, sim, {
      area: 'core',
      method: 'POST',
      template: `/pullzone/{id}/${path}`,
      params: { id },
      body,
    });
  for (let i = 0; i < 2; i++) {
    t.is((await op('addAllowedReferrer', { Hostname: 'a.example' })).status, 204);
    t.is((await op('addBlockedReferrer', { Hostname: 'b.example' })).status, 204);
    t.is((await op('addBlockedIp', { BlockedIp: '10.0.0.1' })).status, 204);
  }
  let zone = await getZone(t, id);
  t.deepEqual(
    [zone.AllowedReferrers, zone.BlockedReferrers, zone.BlockedIps],
    [['a.example'], ['b.example'], ['10.0.0.1']],
  );
  t.is((await op('removeAllowedReferrer', { Hostname: 'a.example' })).status, 204);
  t.is((await op('removeBlockedReferrer', { Hostname: 'b.example' })).status, 204);
  t.is((await op('removeBlockedIp', { BlockedIp: '10.0.0.1' })).status, 204);
  zone = await getZone(t, id);
  t.deepEqual([zone.AllowedReferrers, zone.BlockedReferrers, zone.BlockedIps], [[], [], []]);
  const badIp = await op('addBlockedIp', { BlockedIp: '' });
  t.is(badIp.status, 400);
  t.like(badIp.body, { Field: 'BlockedIp' });
});

test('custom certificate: add, shown only with includeCertificate, remove; removing again is 400', async (t) => {
  const id = await createPullZone(t, sim, 'pz-cert');
  await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addHostname',
    params: { id },
    body: { Hostname: 'cert.example.com' },
  });
  const add = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addCertificate',
    params: { id },
    body: { Hostname: 'cert.example.com', Certificate: 'Q0VSVA==', CertificateKey: 'S0VZ' },
  });
  t.is(add.status, 204);
  const hidden = (await getZone(t, id)).Hostnames.find((h) => h.Value === 'cert.example.com')!;
  t.like(hidden, { HasCertificate: true, Certificate: null });
  const shown = (await getZone(t, id, true)).Hostnames.find((h) => h.Value === 'cert.example.com')!;
  t.is(shown.Certificate, 'Q0VSVA==');
  const body = { Hostname: 'cert.example.com' };
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'DELETE',
        template: '/pullzone/{id}/removeCertificate',
        params: { id },
        body,
      })
    ).status,
    204,
  );
  const again = await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}/removeCertificate',
    params: { id },
    body,
  });
  t.is(again.status, 400);
  t.like(again.body, { ErrorKey: 'pullzone.certificate_not_found' });
});

test('free certificate, force SSL and private key type on a hostname', async (t) => {
  const id = await createPullZone(t, sim, 'pz-ssl');
  await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addHostname',
    params: { id },
    body: { Hostname: 'ssl.example.com' },
  });
  // Its DNS is elsewhere and points at the CDN (dns.test.ts covers the rule itself).
  t.is((await admin(sim, 'PUT', '/_sim/external-dns/ssl.example.com')).status, 204);
  const load = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/loadFreeCertificate',
    query: { hostname: 'ssl.example.com' },
  });
  t.is(load.status, 200);
  const unknown = await call(t, sim, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/loadFreeCertificate',
    query: { hostname: 'unknown.example.com' },
  });
  t.is(unknown.status, 404);
  const force = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/setForceSSL',
    params: { id },
    body: { Hostname: 'ssl.example.com', ForceSSL: true },
  });
  t.is(force.status, 204);
  const key = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/updatePrivateKeyType',
    params: { id },
    body: { Hostname: 'ssl.example.com', KeyType: 1 },
  });
  t.is(key.status, 200);
  const badKey = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/updatePrivateKeyType',
    params: { id },
    body: { Hostname: 'ssl.example.com', KeyType: 7 },
  });
  t.is(badKey.status, 400);
  const missing = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/updatePrivateKeyType',
    params: { id },
    body: { Hostname: 'other.example.com', KeyType: 0 },
  });
  t.is(missing.status, 404);
  const host = (await getZone(t, id)).Hostnames.find((h) => h.Value === 'ssl.example.com')!;
  t.like(host, { HasCertificate: true, ForceSSL: true, CertificateKeyType: 1 });
});

test('hostname operations on an unknown pull zone are 404', async (t) => {
  const res = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}/addHostname',
    params: { id: 99999 },
    body: { Hostname: 'x.example.com' },
  });
  t.is(res.status, 404);
});
