/**
 * The real `cdn-operator` entry point (src/main.ts) with every registered kind: --help,
 * --version and bad flags; starting against the shared control plane with the CRDs from
 * crds/ it becomes ready, serves metrics and health, and drains on SIGTERM with exit 0.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { apply, createNamespace, deleteNamespace, kubectl } from '../support/kube.js';
import { metricValue, startOperator } from '../support/operator.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const kubeconfig = process.env.KUBECONFIG ?? '';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', ...args],
      { cwd: root },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

test('--help documents the flags, --version prints the version, a bad flag exits 2', async (t) => {
  const help = await cli(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /--namespace/);
  t.regex(help.stdout, /--leader-elect/);
  const version = await cli(['--version']);
  t.regex(version.stdout, /^cdn-operator \d+\.\d+\.\d+/);
  const bad = await cli(['--poll-interval', 'often']);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /invalid --poll-interval "often"/);
});

test('the operator with all kinds becomes ready, serves metrics and drains on SIGTERM', async (t) => {
  if (!kubeconfig) return t.fail('KUBECONFIG is not set');
  for (const f of (await readdir(`${root}crds`)).filter((x) => x.endsWith('.yaml'))) {
    await apply(await readFile(`${root}crds/${f}`, 'utf8'));
  }
  await kubectl(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
  const ns = await createNamespace('rt-main');
  try {
    const op = await startOperator({
      kubeconfig,
      args: ['--namespace', ns, '--api-url', 'http://127.0.0.1:9'],
    });
    const metrics = await op.metrics();
    t.is(metricValue(metrics, 'cdn_operator_leader'), 1, 'leader election off: always leading');
    t.truthy(metricValue(metrics, 'cdn_operator_kube_api_requests_total', { verb: 'LIST' }));
    t.true(op.logs().some((l) => l.msg === 'Workers started'));
    t.is(await op.stop(), 0);
    t.true(op.logs().some((l) => l.msg === 'Shutdown complete' && l.drained === true));
  } finally {
    await deleteNamespace(ns);
  }
});
