/**
 * Runs a command against one fresh local control plane and tears it down afterwards, even
 * when the command fails or this process is interrupted. Used by `make test-e2e` so that all
 * e2e test files share a single kube-apiserver + etcd.
 *
 * Usage: node --import tsx test/cluster/with-cluster.ts -- <command> [args...]
 * The command sees KUBECONFIG (admin) and CDN_E2E_SHARED_CLUSTER=1.
 */
import { spawn } from 'node:child_process';
import { startControlPlane, type ControlPlane } from './control-plane.js';

async function main(): Promise<number> {
  const sep = process.argv.indexOf('--');
  const command = sep >= 0 ? process.argv.slice(sep + 1) : [];
  if (command.length === 0) {
    process.stderr.write('usage: with-cluster.ts -- <command> [args...]\n');
    return 2;
  }
  const started = Date.now();
  const cp: ControlPlane = await startControlPlane();
  process.stderr.write(
    `# control plane ready at ${cp.server} in ${Date.now() - started} ms (KUBECONFIG=${cp.kubeconfigPath})\n`,
  );
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= cp.stop());
  const child = spawn(command[0] as string, command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, KUBECONFIG: cp.kubeconfigPath, CDN_E2E_SHARED_CLUSTER: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      child.kill(signal);
    });
  }
  const code = await new Promise<number>((resolve) => {
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 128 : 1)));
    child.on('error', (err) => {
      process.stderr.write(`cannot run ${command[0]}: ${err.message}\n`);
      resolve(127);
    });
  });
  await stop();
  return code;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `cannot run with a local control plane: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
