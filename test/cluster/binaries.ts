/** Locates (building on first use) the cached etcd and kube-apiserver binaries. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../hack/build-binaries.sh', import.meta.url));

/** Absolute paths of the control plane binaries. */
export interface Binaries {
  etcd: string;
  kubeApiserver: string;
}

/** Runs hack/build-binaries.sh (a no-op when cached) and returns the binary paths. */
export async function resolveBinaries(): Promise<Binaries> {
  const { stdout } = await run(script, ['etcd', 'kube-apiserver'], {
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, GOWORK: 'off' },
  });
  const paths = new Map(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => line.split('=', 2) as [string, string]),
  );
  const etcd = paths.get('etcd');
  const kubeApiserver = paths.get('kube-apiserver');
  if (!etcd || !kubeApiserver) throw new Error(`cannot locate binaries in build output: ${stdout}`);
  return { etcd, kubeApiserver };
}
