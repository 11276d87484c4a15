/**
 * The storage endpoint's listener (issue 49): the host name zone records show, HTTPS with the
 * caller's certificate (the vendor's provider builds `https://<StorageHostname>/...` URLs),
 * files kept in the state file across a restart and emptied by a reset, and the switch to turn
 * the endpoint off.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { admin, call, startTestSim } from '../../support/sim-client.js';
import { createStorageZone, storageCall } from './storage-client.js';

const run = promisify(execFile);

function tempDir(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-sim-storage-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const HOSTNAMES: Array<[string, string | undefined, string, (port: string) => string]> = [
  ["the platform's names by default", undefined, 'NY', () => 'ny.storage.bunnycdn.com'],
  [
    'an address with the port: every region on it',
    '127.0.0.1:{port}',
    'NY',
    (p) => `127.0.0.1:${p}`,
  ],
  [
    'a DNS name: region labels in front',
    'files.sim.test:{port}',
    'NY',
    (p) => `ny.files.sim.test:${p}`,
  ],
  ['a DNS name, DE: the name itself', 'files.sim.test:{port}', 'DE', (p) => `files.sim.test:${p}`],
];

for (const [why, hostname, region, expected] of HOSTNAMES) {
  test(`StorageHostname of a ${region} zone: ${why}`, async (t) => {
    const sim = await startTestSim(hostname ? { storage: { hostname } } : {});
    t.teardown(() => sim.close());
    const zone = await createStorageZone(t, sim, `host-${region.toLowerCase()}`, region);
    const read = await call(t, sim, {
      area: 'core',
      method: 'GET',
      template: '/storagezone/{id}',
      params: { id: zone.id },
    });
    t.is(
      (read.body as { StorageHostname: string }).StorageHostname,
      expected(new URL(sim.storageUrl!).port),
    );
  });
}

test('files are kept in the state file across a restart, and a reset empties them', async (t) => {
  const stateFile = join(tempDir(t), 'state.json');
  const first = await startTestSim({ stateFile });
  const zone = await createStorageZone(t, first, 'kept-files');
  const put = await storageCall(first, {
    method: 'PUT',
    path: `/${zone.name}/docs/readme.txt`,
    key: zone.password,
    body: 'kept',
  });
  t.is(put.status, 201);
  await first.close();
  const second = await startTestSim({ stateFile });
  t.teardown(() => second.close());
  const got = await storageCall(second, {
    method: 'GET',
    path: `/${zone.name}/docs/readme.txt`,
    key: zone.password,
  });
  t.is(got.text, 'kept', 'the file came back with the state');
  await admin(second, 'POST', '/_sim/reset');
  t.is(second.state.collections.of('storageFiles').size, 0);
});

test('HTTPS with the caller certificate: the vendor client flow over TLS', async (t) => {
  const dir = tempDir(t);
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  const sim = await startTestSim({
    storage: { hostname: '127.0.0.1:{port}', tlsCertFile: cert, tlsKeyFile: key },
  });
  t.teardown(() => sim.close());
  t.regex(sim.storageUrl!, /^https:\/\/127\.0\.0\.1:\d+$/);
  const zone = await createStorageZone(t, sim, 'tls-files');
  const ca = readFileSync(cert, 'utf8');
  const put = await storageCall(sim, {
    method: 'PUT',
    path: `/${zone.name}//index.html`,
    key: zone.password,
    body: '<p>tls</p>',
    ca,
  });
  t.is(put.status, 201, put.text);
  const described = await storageCall(sim, {
    method: 'DESCRIBE',
    path: `/${zone.name}//index.html`,
    key: zone.password,
    ca,
  });
  t.like(described.json(), { ObjectName: 'index.html', Length: 10 });
});

test('storage: false starts no storage listener', async (t) => {
  const sim = await startTestSim({ storage: false });
  t.teardown(() => sim.close());
  t.is(sim.storageUrl, undefined);
});
