/**
 * cdnctl reads the list of kinds to print its help, and the list stays light
 * (src/controllers/kind-module.ts): the real bin, spawned with a preload that records every
 * module it loads, loads each kind's kind.ts and none of the files its lazy parts live in
 * (crd.ts, index.ts, plan.ts, export.ts, a shield rule family's controller), for help of every
 * command that names kinds.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import * as nodeModule from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CONTROLLERS = `${path.join(REPO, 'src', 'controllers')}/`;

/** The modules of src/controllers (relative paths) `cdnctl ...args` loads. */
async function controllerModulesLoadedBy(args: string[]): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cdnctl-light-'));
  try {
    const out = path.join(dir, 'loaded.txt');
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          '--import',
          './test/support/record-loads.ts',
          'src/cli/main.ts',
          ...args,
        ],
        { cwd: REPO, env: { ...process.env, RECORD_LOADS_TO: out }, timeout: 30_000 },
        (error, _stdout, stderr) =>
          error ? reject(new Error(stderr || error.message)) : resolve(),
      );
    });
    return (await readFile(out, 'utf8'))
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url))
      .filter((file) => file.startsWith(CONTROLLERS))
      .map((file) => file.slice(CONTROLLERS.length));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The preload needs module.registerHooks (Node 22.15; package.json allows 22.0): older skip. */
const check = 'registerHooks' in nodeModule ? test.serial : test.serial.skip;

/** A file a kind's lazy part lives in. */
const PART_FILE = /^[a-z-]+\/(crd|index|plan|export|controller|fields)\.ts$/;

for (const args of [['--help'], ['export', '--help'], ['diff', '--help'], ['migrate', '--help']]) {
  check(`cdnctl ${args.join(' ')} loads every kind.ts and no part of a kind`, async (t) => {
    const loaded = await controllerModulesLoadedBy(args);
    t.true(loaded.includes('kinds.ts') && loaded.includes('dnszone/kind.ts'), 'the list is read');
    t.deepEqual(
      loaded.filter((file) => PART_FILE.test(file)),
      [],
    );
  });
}
