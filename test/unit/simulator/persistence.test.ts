import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { StateFileError } from '../../../src/simulator/persistence.js';
import { REPO_ROOT } from '../../support/openapi-docs.js';
import { call, createPullZone, startTestSim } from '../../support/sim-client.js';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'cdn-sim-state-'));
}

test('state survives a restart with --state-file (pull zones, apps, shield zones, id counters)', async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const stateFile = path.join(dir, 'state.json');
  const first = await startTestSim({ stateFile });
  const id = await createPullZone(t, first, 'persisted');
  await call(t, first, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId: id },
  });
  await first.close();
  const second = await startTestSim({ stateFile });
  t.teardown(() => second.close());
  const got = await call(t, second, {
    area: 'core',
    method: 'GET',
    template: '/pullzone/{id}',
    params: { id },
  });
  t.is(got.status, 200);
  t.is(second.state.shieldZones.size, 1);
  const next = await createPullZone(t, second, 'after-restart');
  t.true(next > id, 'ids continue after the restart');
});

test('a missing state file starts empty and is created after a change', async (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const stateFile = path.join(dir, 'new.json');
  const sim = await startTestSim({ stateFile });
  t.teardown(() => sim.close());
  t.is(sim.state.pullZones.size, 0);
  await createPullZone(t, sim, 'written');
  await sim.saveState();
  t.regex(readFileSync(stateFile, 'utf8'), /"written"/);
});

const CORRUPT: Array<[string, string]> = [
  ['{"version": 1, "pullZones": [', 'invalid JSON'],
  ['{"version": 7}', 'unsupported version'],
  [
    '{"version": 1, "pullZones": {}, "apps": [], "shieldZones": [], "storageZones": [], "videoLibraries": [], "nextIds": {}, "wafMetrics": {}}',
    'pullZones is not an array',
  ],
];

for (const [content, reason] of CORRUPT) {
  test(`a corrupt state file is reported (${reason}) naming the file, and never replaced`, async (t) => {
    const dir = tempDir();
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const stateFile = path.join(dir, 'bad.json');
    writeFileSync(stateFile, content);
    const err = await t.throwsAsync(startTestSim({ stateFile }), { instanceOf: StateFileError });
    t.true(err?.message.includes(stateFile));
    t.true(err?.message.includes(reason));
    t.is(readFileSync(stateFile, 'utf8'), content);
  });
}

test('the CLI exits 1 with a clear message on a corrupt state file', (t) => {
  const dir = tempDir();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const stateFile = path.join(dir, 'bad.json');
  writeFileSync(stateFile, 'not json');
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/simulator/cli.ts', '--api-key', 'K', '--state-file', stateFile],
    { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 },
  );
  t.is(run.status, 1);
  t.regex(run.stderr, /cannot load state file .*bad\.json: invalid JSON/);
  t.is(readFileSync(stateFile, 'utf8'), 'not json');
});
