/**
 * The production bundle the Dockerfile ships: `npm pack --ignore-scripts` of the built dist/
 * (`make test-e2e` runs `make build` first, as the Dockerfile runs tsc first) unpacked, plus
 * `npm ci --omit=dev` with the repository's lockfile. The operator must start
 * from that bundle alone — no dev dependency, no tsx, nothing from the checkout — and the
 * Dockerfile must build the bundle the same way.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from '../../unit/packaging/tools.js';

interface Pkg {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  files: string[];
}

const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Pkg;
let work = '';
let app = '';
let packedFiles: string[] = [];

/** Sources whose compiled file in dist/ is missing or older (dist/ must be built first). */
async function staleOutputs(): Promise<string[]> {
  const sources = (await readdir(join(ROOT, 'src'), { recursive: true })).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.d.ts'),
  );
  const stale: string[] = [];
  for (const f of sources) {
    const out = join(ROOT, 'dist', f.replace(/\.ts$/, '.js'));
    const [src, built] = await Promise.all([
      stat(join(ROOT, 'src', f)),
      stat(out).catch(() => undefined),
    ]);
    if (!built || built.mtimeMs < src.mtimeMs) stale.push(f);
  }
  return stale;
}

test.before(async () => {
  const stale = await staleOutputs();
  if (stale.length > 0) {
    throw new Error(
      `dist/ is older than ${stale.slice(0, 3).join(', ')}: run \`make build\` first`,
    );
  }
  work = await mkdtemp(join(tmpdir(), 'cdn-operator-bundle-'));
  app = join(work, 'app');
  await mkdir(app);
  const packed = await run(
    'npm',
    // --ignore-scripts: `prepare` would rewrite dist/ while other test files read it.
    ['pack', '--ignore-scripts', '--json', '--pack-destination', work],
    { timeoutMs: 170_000 },
  );
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const json = packed.stdout.slice(packed.stdout.indexOf('['));
  const [info] = JSON.parse(json) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error('npm pack printed no package');
  packedFiles = info.files.map((f) => f.path);
  const untar = await run('tar', [
    '-xzf',
    join(work, info.filename),
    '--strip-components=1',
    '-C',
    app,
  ]);
  if (untar.code !== 0) throw new Error(`cannot unpack: ${untar.stderr}`);
  await cp(join(ROOT, 'package-lock.json'), join(app, 'package-lock.json'));
  const ci = await run(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: app, timeoutMs: 170_000 },
  );
  if (ci.code !== 0) throw new Error(`npm ci --omit=dev failed: ${ci.stderr}`);
});

test.after.always(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

test('npm pack ships dist/, crds/ and package.json only (no sources, tests or tooling)', (t) => {
  t.true(packedFiles.includes('package.json'));
  t.true(packedFiles.includes('dist/main.js'));
  t.true(packedFiles.includes('dist/simulator/cli.js'));
  t.true(packedFiles.some((f) => f.startsWith('crds/')));
  const unexpected = packedFiles.filter(
    (f) => !/^(dist\/|crds\/|package\.json$|README\.md$|LICENSE$)/.test(f),
  );
  t.deepEqual(unexpected, []);
  t.false(
    packedFiles.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
    'no TypeScript sources',
  );
});

test('node_modules holds the production dependencies and no dev dependency', async (t) => {
  const installed = new Set<string>();
  for (const entry of await readdir(join(app, 'node_modules'))) {
    if (entry.startsWith('@')) {
      for (const sub of await readdir(join(app, 'node_modules', entry)))
        installed.add(`${entry}/${sub}`);
    } else installed.add(entry);
  }
  for (const dep of Object.keys(pkg.dependencies)) t.true(installed.has(dep), `missing ${dep}`);
  // A dev dependency may still arrive transitively through a production one; the direct ones
  // that only the toolchain needs must not.
  for (const dev of ['typescript', 'tsx', 'ava', 'eslint', 'prettier', 'typescript-eslint']) {
    t.false(installed.has(dev), `${dev} is a dev dependency`);
  }
});

test('the bundle answers --version and --help', async (t) => {
  const version = await run(process.execPath, ['dist/main.js', '--version'], { cwd: app });
  t.is(version.code, 0, version.stderr);
  t.is(version.stdout.trim(), `cdn-operator ${pkg.version}`);
  const help = await run(process.execPath, ['dist/main.js', '--help'], { cwd: app });
  t.is(help.code, 0, help.stderr);
  for (const flag of ['--leader-elect', '--metrics-bind-address', '--health-probe-bind-address']) {
    t.true(help.stdout.includes(flag), flag);
  }
  const sim = await run(process.execPath, ['dist/simulator/cli.js', '--help'], { cwd: app });
  t.is(sim.code, 0, `cdn-sim from the bundle: ${sim.stderr}`);
});

/** Starts cdn-sim from the bundle; resolves with its URL once it prints the listening line. */
function startBundledSim(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['dist/simulator/cli.js', '--api-key', 'bundle-key'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await exited;
  };
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /cdn-sim listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop });
    });
    child.once('exit', (code) => reject(new Error(`cdn-sim exited ${code}: ${stderr}`)));
  });
}

test('cdn-sim starts strict from the bundle: the API model ships in dist/, nothing else is read', async (t) => {
  // The bundle sits in a temporary directory with no ../shared: strict mode must still start
  // and check requests against the documents' structure.
  t.true(packedFiles.includes('dist/simulator/generated/api-model/core.js'));
  const sim = await startBundledSim();
  try {
    const headers = { AccessKey: 'bundle-key', 'Content-Type': 'application/json' };
    const list = await fetch(`${sim.url}/pullzone`, { headers });
    t.is(list.status, 200);
    const bad = await fetch(`${sim.url}/pullzone`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ Name: 'bundle-zone', OriginUrl: 'https://o.example', Type: 'x' }),
    });
    t.is(bad.status, 400, 'a body the documents reject is refused');
  } finally {
    await sim.stop();
  }
});

test('the operator starts from the bundle against the apiserver, serves probes and stops cleanly', async (t) => {
  const kubeconfig = process.env.KUBECONFIG;
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  // The CRDs the bundle itself ships (same content as crds/; other tests apply them too).
  const crds = await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'apply',
    '--server-side',
    '--force-conflicts',
    '-f',
    join(app, 'crds'),
  ]);
  t.is(crds.code, 0, crds.stderr);
  await run('kubectl', [
    '--kubeconfig',
    kubeconfig,
    'wait',
    '--for=condition=Established',
    'crd',
    '--all',
    '--timeout=60s',
  ]);
  const ns = `pkg-bundle-${process.pid}`;
  await run('kubectl', ['--kubeconfig', kubeconfig, 'create', 'namespace', ns]);
  t.teardown(() =>
    run('kubectl', ['--kubeconfig', kubeconfig, 'delete', 'namespace', ns, '--wait=false']),
  );

  const child = spawn(
    process.execPath,
    [
      'dist/main.js',
      '--kubeconfig',
      kubeconfig,
      '--namespace',
      ns,
      '--api-url',
      'http://127.0.0.1:9',
      '--metrics-bind-address',
      '127.0.0.1:0',
      '--health-probe-bind-address',
      '127.0.0.1:0',
    ],
    // No NODE_OPTIONS/tsx from the test runner: exactly `node dist/main.js`.
    {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const ports: Record<string, number> = {};
  const onData = (d: Buffer): void => {
    output += d.toString();
    for (const m of output.matchAll(/"server":"(metrics|health)"[^\n]*?"port":(\d+)/g))
      ports[m[1]!] = Number(m[2]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  const deadline = Date.now() + 60_000;
  let ready = 0;
  while (Date.now() < deadline && child.exitCode === null) {
    if (ports.health) {
      ready = await fetch(`http://127.0.0.1:${ports.health}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (ready === 200) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  t.is(ready, 200, `readyz from the bundle; output:\n${output.slice(-3000)}`);
  const healthz = await fetch(`http://127.0.0.1:${ports.health}/healthz`);
  t.is(healthz.status, 200);
  const metrics = await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text();
  t.regex(metrics, /^# HELP cdn_operator_reconcile_total /m);
  child.kill('SIGTERM');
  t.is(await exited, 0, `clean shutdown; output:\n${output.slice(-2000)}`);
});

test('the Dockerfile builds the same bundle: npm pack, npm ci --omit=dev, non-root runtime', async (t) => {
  const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split('\n').filter((l) => /^FROM /.test(l));
  t.is(stages.length, 3, 'build, bundle and runtime stages');
  t.regex(dockerfile, /npm ci --ignore-scripts/);
  t.regex(dockerfile, /npx tsc -p tsconfig\.build\.json/);
  t.regex(dockerfile, /npm pack --ignore-scripts/);
  t.regex(dockerfile, /npm ci --omit=dev --ignore-scripts/);
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  t.regex(runtime, /^USER 1000:1000$/m, 'runtime runs as the non-root uid the chart expects');
  t.regex(runtime, /COPY --from=bundle \/app \/app/);
  t.notRegex(runtime, /RUN npm/, 'nothing is installed in the runtime stage');
  t.regex(runtime, /ENTRYPOINT \["node", "\/app\/dist\/main\.js"\]/);
  // The build stage copies what npm pack needs: package.json "files" (dist is built there).
  for (const f of pkg.files.filter((x) => x !== 'dist'))
    t.regex(dockerfile, new RegExp(`COPY ${f} \\./${f}`), `COPY ${f}`);
  const ignore = await readFile(join(ROOT, '.dockerignore'), 'utf8');
  for (const f of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'src/',
    'crds/',
  ]) {
    t.true(ignore.includes(`!${f}`), `.dockerignore lets ${f} through`);
  }
});
