import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseCli, UsageError } from '../../../src/simulator/cli-args.js';
import { REPO_ROOT } from '../../support/openapi-docs.js';

test('cdn-sim --port 0 --api-key K prints its URL, serves the API and stops cleanly on SIGTERM', async (t) => {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/simulator/cli.ts',
      '--port',
      '0',
      '--api-key',
      'K',
      '--admin-token',
      'T',
      '--log-level',
      'warn',
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.teardown(() => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^cdn-sim listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${String(code)}: ${stderr}`)));
  });
  const res = await fetch(`${url}/pullzone`, { headers: { AccessKey: 'K' } });
  t.is(res.status, 200);
  t.deepEqual(await res.json(), []);
  t.is((await fetch(`${url}/pullzone`)).status, 401);
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  t.is(await exit, 0);
  t.false(stderr.includes('K"'), 'the API key is never logged');
});

test('cdn-sim exits 2 with a clear message on a bad flag', (t) => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/simulator/cli.ts', '--api-key', 'K', '--error-rate', '3'],
    // Generous, within ava's 60 s: tsx compiling the CLI took over 30 s at load 58 (2 cores).
    { cwd: REPO_ROOT, encoding: 'utf8', timeout: 55_000 },
  );
  t.is(run.status, 2);
  t.regex(run.stderr, /--error-rate 3: must be a number between 0 and 1/);
});

test('flag parsing: repeatable keys with roles, faults, defaults', (t) => {
  const o = parseCli([
    '--api-key',
    'A',
    '--api-key',
    'B:Admin,User',
    '--latency-ms',
    '5-10',
    '--error-rate',
    '0.1',
    '--rate-limit',
    '50,100',
    '--port',
    '8080',
  ]);
  t.deepEqual(o.apiKeys, [{ key: 'A' }, { key: 'B', roles: ['Admin', 'User'] }]);
  t.deepEqual(o.faults, {
    latencyMs: { min: 5, max: 10 },
    errorRate: 0.1,
    rateLimit: { ratePerSecond: 50, burst: 100 },
  });
  t.is(o.port, 8080);
  t.is(o.host, '127.0.0.1');
  t.is(o.logLevel, 'info');
});

const BAD: Array<[string[], RegExp]> = [
  [[], /at least one --api-key/],
  [['--api-key', 'K', '--port', '70000'], /--port/],
  [['--api-key', 'K', '--latency-ms', '9-3'], /lower bound/],
  [['--api-key', 'K', '--log-level', 'loud'], /--log-level/],
  [['--api-key', 'K', '--nope'], /nope/],
  [['--keys-file', '/does/not/exist.yaml'], /--keys-file/],
];
for (const [argv, message] of BAD) {
  test(`flag parsing rejects ${argv.join(' ') || '(no flags)'}`, (t) => {
    t.throws(() => parseCli(argv), { instanceOf: UsageError, message });
  });
}
