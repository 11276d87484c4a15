/** Locates (building on first use) the cached Go binaries hack/build-binaries.sh makes. */
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

/**
 * Runs hack/build-binaries.sh for `targets` (a no-op for each one cached) and returns the path it
 * prints for each, in order.
 */
export async function buildBinaries(targets: readonly string[]): Promise<string[]> {
  const { stdout } = await run(script, [...targets], {
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, GOWORK: 'off' },
  });
  const paths = new Map(
    stdout
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => line.split('=', 2) as [string, string]),
  );
  return targets.map((target) => {
    const path = paths.get(target);
    if (!path) throw new Error(`cannot locate ${target} in the build output: ${stdout}`);
    return path;
  });
}

/** Runs hack/build-binaries.sh (a no-op when cached) and returns the binary paths. */
export async function resolveBinaries(): Promise<Binaries> {
  const [etcd, kubeApiserver] = (await buildBinaries(['etcd', 'kube-apiserver'])) as [
    string,
    string,
  ];
  return { etcd, kubeApiserver };
}
