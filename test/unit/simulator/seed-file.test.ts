/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- API answers are read loosely here */
/**
 * `--seed FILE` (issue 49): the account a user's CI starts from, without API calls. Items are
 * the documented create bodies, applied through cdn-sim's own pipeline, tied together by name;
 * a refused item stops the start with the item named; a reset brings the seed back.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseCli, UsageError } from '../../../src/simulator/cli-args.js';
import {
  checkSeed,
  readSeedFile,
  SeedFileError,
  type SeedFile,
} from '../../../src/simulator/seed-file.js';
import { admin, call, startTestSim } from '../../support/sim-client.js';
import { storageCall } from './storage-client.js';
import { appRequest } from '../cdn/fixtures.js';

function tempDir(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-sim-seed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The account the vendor's acceptance tests expect, and a bit of everything else. */
const ACCOUNT = {
  storageZones: [
    { Name: 'seed-files', Region: 'DE', ZoneTier: 0, files: { '/index.html': '<p>seeded</p>' } },
  ],
  pullZones: [{ Name: 'seed-site', OriginUrl: 'https://origin.example' }],
  dnsZones: [
    {
      Domain: 'terraform.internal',
      records: [
        { Type: 0, Name: 'www', Value: '192.0.2.10', Ttl: 300 },
        { Type: 7, Name: 'cdn', pullZone: 'seed-site' },
      ],
    },
  ],
  shieldZones: [{ pullZone: 'seed-site', shieldZone: { planType: 1 } }],
  apps: [appRequest('seed-app')],
};

function seedOf(data: unknown): SeedFile {
  return checkSeed(data, 'seed.yaml');
}

test('a seeded account holds every kind, tied by name, and no call is logged', async (t) => {
  const sim = await startTestSim({ seed: seedOf(ACCOUNT) });
  t.teardown(() => sim.close());
  const calls = sim.calls.snapshot();
  t.deepEqual(calls.log, [], 'seeding is not a client call');
  t.is(calls.rejectedByDocument.count, 0);
  const zones = await call(t, sim, { area: 'core', method: 'GET', template: '/dnszone' });
  const zone = (zones.body as any).Items.find((z: any) => z.Domain === 'terraform.internal');
  t.truthy(zone, 'the DNS zone the vendor tests look up');
  const pullZone = sim.state.findPullZoneByName('seed-site')!;
  const records = zone.Records as any[];
  t.like(
    records.find((r) => r.Name === 'cdn'),
    { Type: 7, LinkName: String(pullZone.record.Id) },
  );
  t.true(records.some((r) => r.Name === 'www' && r.Value === '192.0.2.10'));
  const shield = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    params: { pullZoneId: Number(pullZone.record.Id) },
  });
  t.like((shield.body as any).data, { planType: 1 });
  const apps = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps' });
  t.deepEqual(
    ((apps.body as any).items as any[]).map((a) => a.name),
    ['seed-app'],
  );
  const storage = [...sim.state.storageZones.values()].find((z) => z.Name === 'seed-files')!;
  const file = await storageCall(sim, {
    method: 'GET',
    path: '/seed-files/index.html',
    key: String(storage.Password),
  });
  t.is(file.text, '<p>seeded</p>');
});

test('a reset brings the seed back', async (t) => {
  const sim = await startTestSim({ seed: seedOf({ pullZones: ACCOUNT.pullZones }) });
  t.teardown(() => sim.close());
  const extra = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone',
    body: { Name: 'made-by-a-test', OriginUrl: 'https://o.example' },
  });
  t.is(extra.status, 201);
  t.is((await admin(sim, 'POST', '/_sim/reset')).status, 204);
  t.deepEqual(
    [...sim.state.pullZones.values()].map((z) => z.record.Name),
    ['seed-site'],
  );
});

test('with a state file, the seed applies to the fresh account only, not again on a restart', async (t) => {
  const stateFile = join(tempDir(t), 'state.json');
  const seed = seedOf({ pullZones: ACCOUNT.pullZones });
  const first = await startTestSim({ stateFile, seed });
  await first.close();
  const second = await startTestSim({ stateFile, seed });
  t.teardown(() => second.close());
  t.is(second.state.pullZones.size, 1, 'restored, not seeded twice (the name would be taken)');
});

const REFUSED: Array<[string, unknown, RegExp]> = [
  [
    'a pull zone name given twice',
    { pullZones: [ACCOUNT.pullZones[0], ACCOUNT.pullZones[0]] },
    /^cannot apply the seed: pullZones\[1\]: POST \/pullzone answered 400 .*name_taken/,
  ],
  [
    'a record on a pull zone the seed does not hold',
    { dnsZones: [{ Domain: 'a.test', records: [{ Type: 7, Name: 'x', pullZone: 'nope' }] }] },
    /dnsZones\[0\]\.records\[0\]: no pull zone nope in the seed/,
  ],
  [
    'an app the document rejects',
    { apps: [{ name: 'no-runtime' }] },
    /^cannot apply the seed: apps\[0\]: POST \/mc\/apps answered 400/,
  ],
];

for (const [why, data, message] of REFUSED) {
  test(`a seed is refused, naming the item: ${why}`, async (t) => {
    await t.throwsAsync(startTestSim({ seed: seedOf(data) }), { message });
  });
}

const BAD_SHAPES: Array<[string, string, RegExp]> = [
  ['not a mapping', '- a\n- b\n', /the top level must be a mapping/],
  ['an unknown kind', 'videoLibraries: []\n', /videoLibraries is not one of storageZones/],
  ['a kind that is not a list', 'pullZones: {Name: x}\n', /pullZones must be a list/],
  [
    'records that are not a list',
    'dnsZones: [{Domain: a.test, records: 3}]\n',
    /dnsZones\[0\]\.records/,
  ],
  [
    'a file that is not text',
    'storageZones: [{Name: s, files: {a: [1]}}]\n',
    /storageZones\[0\]\.files/,
  ],
  [
    'a shield zone without its pull zone',
    'shieldZones: [{shieldZone: {}}]\n',
    /shieldZones\[0\]\.pullZone/,
  ],
  ['not YAML at all', 'pullZones: [\n', /cannot read seed file/],
];

for (const [why, text, message] of BAD_SHAPES) {
  test(`a seed file of the wrong shape is refused before the start: ${why}`, (t) => {
    const file = join(tempDir(t), 'seed.yaml');
    writeFileSync(file, text);
    t.throws(() => readSeedFile(file), { instanceOf: SeedFileError, message });
    t.throws(() => parseCli(['--api-key', 'K', '--seed', file]), {
      instanceOf: UsageError,
      message,
    });
  });
}

test('--seed reads a YAML file into the start options', (t) => {
  const file = join(tempDir(t), 'seed.yaml');
  writeFileSync(file, stringify({ dnsZones: [{ Domain: 'terraform.internal' }] }));
  const o = parseCli(['--api-key', 'K', '--seed', file]);
  t.deepEqual(o.seed?.dnsZones, [{ Domain: 'terraform.internal' }]);
  t.deepEqual(o.seed?.apps, []);
});

const STORAGE_FLAGS: Array<[string[], unknown]> = [
  [[], { port: 0 }],
  [['--no-storage'], false],
  [
    ['--storage-port', '8443', '--storage-hostname', '127.0.0.1:{port}'],
    { port: 8443, hostname: '127.0.0.1:{port}' },
  ],
  [
    ['--storage-tls-cert', 'c.pem', '--storage-tls-key', 'k.pem'],
    { port: 0, tlsCertFile: 'c.pem', tlsKeyFile: 'k.pem' },
  ],
];

for (const [argv, expected] of STORAGE_FLAGS) {
  test(`storage flags ${argv.join(' ') || '(none)'}`, (t) => {
    t.deepEqual(parseCli(['--api-key', 'K', ...argv]).storage, expected);
  });
}

const BAD_STORAGE: Array<[string[], RegExp]> = [
  [['--storage-port', '70000'], /--storage-port 70000/],
  [['--storage-tls-cert', 'c.pem'], /go together/],
  [['--storage-hostname', 'a b'], /--storage-hostname a b/],
];

for (const [argv, message] of BAD_STORAGE) {
  test(`storage flags refuse ${argv.join(' ')}`, (t) => {
    t.throws(() => parseCli(['--api-key', 'K', ...argv]), { instanceOf: UsageError, message });
  });
}
