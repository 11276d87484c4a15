/**
 * `make cluster-up` / `make cluster-down`: a long-lived local control plane for manual use
 * and `make demo`. State (pids, dir, kubeconfig) is kept in ~/.cache/cdn-operator/cluster.json
 * so that `up` is idempotent (reuses a healthy cluster) and `down` stops exactly what `up` started.
 */
import { readFile, writeFile, rm, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { startControlPlane } from './control-plane.js';
import { isProcessAlive } from './process.js';

interface ClusterState {
  pids: number[];
  dir: string;
  kubeconfigPath: string;
  server: string;
}

const stateFile = join(
  process.env.CDN_OPERATOR_CACHE ?? join(homedir(), '.cache', 'cdn-operator'),
  'cluster.json',
);

async function readState(): Promise<ClusterState | undefined> {
  try {
    return JSON.parse(await readFile(stateFile, 'utf8')) as ClusterState;
  } catch {
    return undefined;
  }
}

function printUsage(state: ClusterState): void {
  process.stdout.write(
    `Local control plane at ${state.server}\n` +
      `  export KUBECONFIG=${state.kubeconfigPath}\n` +
      `  kubectl get namespaces\n` +
      `Stop it with: make cluster-down\n`,
  );
}

async function up(): Promise<void> {
  const existing = await readState();
  if (existing && existing.pids.every(isProcessAlive)) {
    printUsage(existing);
    return;
  }
  if (existing) await down();
  const cp = await startControlPlane({ detached: true, baseDir: dirname(stateFile) });
  const state: ClusterState = {
    pids: cp.pids(),
    dir: cp.dir,
    kubeconfigPath: cp.kubeconfigPath,
    server: cp.server,
  };
  await mkdir(dirname(stateFile), { recursive: true });
  await writeFile(stateFile, JSON.stringify(state, null, 2));
  printUsage(state);
}

async function down(): Promise<void> {
  const state = await readState();
  if (!state) {
    process.stdout.write('No local control plane is running.\n');
    return;
  }
  // apiserver first, then etcd, the reverse of the start order.
  for (const pid of [...state.pids].reverse()) {
    if (!isProcessAlive(pid)) continue;
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (isProcessAlive(pid) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(state.dir, { recursive: true, force: true });
  await rm(stateFile, { force: true });
  process.stdout.write('Local control plane stopped.\n');
}

const command = process.argv[2];
const actions: Record<string, () => Promise<void>> = {
  up,
  down,
  status: async () => {
    const s = await readState();
    if (s && s.pids.every(isProcessAlive)) printUsage(s);
    else process.stdout.write('No local control plane is running.\n');
  },
};
const action = command ? actions[command] : undefined;
if (!action) {
  process.stderr.write('usage: cli.ts up|down|status\n');
  process.exit(2);
}
await action();
