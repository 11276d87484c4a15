/**
 * `make demo` end to end (hack/demo.sh up / down) in a private cache directory: its own
 * control plane, cdn-sim and operator. The first run reaches all Ready and prints the table
 * and next steps; the second reuses everything; `down` leaves no process behind.
 * dist/ is built by `make test-e2e` beforehand (CDN_DEMO_SKIP_BUILD=1 keeps it untouched).
 */
import test from 'ava';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT, resolveHelm, run } from '../../unit/packaging/tools.js';

let cache = '';

function demo(command: string): ReturnType<typeof run> {
  return run(join(ROOT, 'hack/demo.sh'), [command], {
    // DEMO_NODE: the Node.js running the tests (the private cache has no installed release).
    env: {
      ...process.env,
      CDN_OPERATOR_CACHE: cache,
      CDN_DEMO_SKIP_BUILD: '1',
      KUBECONFIG: '',
      DEMO_NODE: process.execPath,
    },
    timeoutMs: 170_000,
  });
}

function pidsOf(record: string): number[] {
  return [...record.matchAll(/"pid": (\d+)/g)].map((m) => Number(m[1]));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'cdn-operator-demo-'));
  // Reuse the cached Go builds: the binaries live under <cache>/bin.
  const helm = await resolveHelm();
  await symlink(dirname(dirname(helm)), join(cache, 'bin'));
});

test.after.always(async () => {
  if (!cache) return;
  await demo('down');
  await rm(cache, { recursive: true, force: true });
});

test.serial('make demo: all examples Ready, the table and the next steps', async (t) => {
  t.timeout(300_000);
  const up = await demo('up');
  t.is(up.code, 0, up.stdout + up.stderr);
  // examples/ (3) and examples/dns/ (the zone, the pull zone with a custom hostname and the
  // record pointing that hostname at it).
  t.regex(up.stdout, /Waiting until 6 objects are Ready/);
  t.regex(up.stdout, /\] 6\/6 Ready/);
  for (const name of [
    'pullzoneconfig.pullzones.cdn.operator.io/shop-cdn',
    'containerapp.containers.cdn.operator.io/shop-app',
    'shieldpolicy.shield.cdn.operator.io/shop-shield',
    'dnszone.dns.cdn.operator.io/shop-example-com',
    'pullzoneconfig.pullzones.cdn.operator.io/shop-media',
    'dnsrecord.dns.cdn.operator.io/shop-media-cname',
  ]) {
    t.regex(
      up.stdout,
      new RegExp(`cdn-demo\\s+${name.replace(/\./g, '\\.')}\\s+True\\s+True`),
      name,
    );
  }
  // The certificate flow: the custom hostname's free certificate is issued once the record
  // points it at the zone in cdn-sim's DNS (cdn-sim's defaults; nothing declared as pointing).
  const kubeconfig = /export KUBECONFIG=(\S+)/.exec(up.stdout)?.[1] ?? '';
  const certificate = await run('kubectl', [
    ...['--kubeconfig', kubeconfig, '-n', 'cdn-demo', 'wait', 'pzc/shop-media'],
    ...['--for=condition=CertificatesReady', '--timeout=90s'],
  ]);
  t.is(certificate.code, 0, certificate.stderr);
  t.regex(up.stdout, /curl -s http:\/\/127\.0\.0\.1:\d+\/metrics/);
  t.regex(up.stdout, /make demo-down/);
  const port = /127\.0\.0\.1:(\d+)\/metrics/.exec(up.stdout)?.[1];
  const metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  t.regex(metrics, /cdn_operator_reconcile_total\{controller="pullzoneconfig"/);
});

test.serial('a second make demo reuses the running simulator and operator', async (t) => {
  const before = await readFile(join(cache, 'demo/operator.json'), 'utf8');
  const again = await demo('up');
  t.is(again.code, 0, again.stdout + again.stderr);
  t.regex(again.stdout, /cdn-sim already running/);
  t.regex(again.stdout, /Operator already running/);
  t.regex(again.stdout, /\] 6\/6 Ready/);
  t.deepEqual(pidsOf(await readFile(join(cache, 'demo/operator.json'), 'utf8')), pidsOf(before));
});

test.serial('make demo-down stops the operator, cdn-sim and the control plane', async (t) => {
  const pids = [
    ...pidsOf(await readFile(join(cache, 'demo/operator.json'), 'utf8')),
    ...pidsOf(await readFile(join(cache, 'demo/sim.json'), 'utf8')),
    ...(JSON.parse(await readFile(join(cache, 'cluster.json'), 'utf8')) as { pids: number[] }).pids,
  ];
  t.is(pids.length, 4);
  const down = await demo('down');
  t.is(down.code, 0, down.stdout + down.stderr);
  t.deepEqual(pids.filter(alive), [], 'no demo process survives');
});
