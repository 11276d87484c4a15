/**
 * Shared setup of the sharding tests: a private control plane with an audit log (so each
 * shard's Kubernetes writes are attributed to its own client identity), one cdn-sim, and per
 * shard an operator process with its own identity, its own leader-election Lease and a
 * recording proxy as its API URL (so its platform calls are attributed to it).
 */
import { WRITE_VERBS, type AuditEntry } from '../../../bench/lib/audit.js';
import { BenchEnv } from '../../../bench/lib/env.js';
import { collectionPath, type Manifest } from '../../../bench/lib/objects.js';
import { ReadyTracker } from '../../../bench/lib/ready-tracker.js';
import type { OperatorProcess } from '../support/operator.js';
import {
  startRecordingProxy,
  type ProxiedCall,
  type RecordingProxy,
} from '../support/recording-proxy.js';

/** One running shard. */
export interface Shard {
  name: string;
  op: OperatorProcess;
  proxy: RecordingProxy;
}

/** Starts the environment with one client identity per shard name. */
export function startShardEnv(shards: string[]): Promise<BenchEnv> {
  return BenchEnv.start({ operatorUsers: shards });
}

/**
 * Starts shard `name`: credentials namespace `name`, Lease `cdn-operator-<name>` there,
 * `selection` = the flags that pick its objects (`--label-selector …` or `--namespace …`).
 */
export async function startShard(
  env: BenchEnv,
  name: string,
  selection: string[],
  pollInterval = '5s',
): Promise<Shard> {
  await env.createNamespace(name);
  const proxy = await startRecordingProxy(env.sim.url);
  const op = await env.startOperator(name, {
    user: name,
    args: [
      ...selection,
      '--leader-elect',
      '--leader-election-id',
      `cdn-operator-${name}`,
      '--leader-election-namespace',
      name,
      '--poll-interval',
      pollInterval,
      // Polls by id, not by list pages (observe by pages): the tests tell shards apart by the
      // calls each makes about one zone, and a listing names every zone of the account.
      '--sweep-read-share',
      '0',
      // Last one wins: this shard talks to the sim through its own recording proxy.
      '--api-url',
      proxy.url,
    ],
  });
  return { name, op, proxy };
}

/** Stops the shard's process and proxy. */
export async function stopShard(s: Shard): Promise<void> {
  await s.op.kill();
  await s.proxy.close();
}

/** Creates `manifests` through the bench's admin identity. */
export async function createObjects(env: BenchEnv, manifests: Manifest[]): Promise<void> {
  for (const m of manifests) {
    await env.kube.request({
      method: 'POST',
      path: collectionPath(m.metadata.namespace, 'PullZoneConfig'),
      body: m,
    });
  }
}

/** Waits until `names` in `namespace` are all Ready; returns their zone ids by name. */
export async function waitReady(
  env: BenchEnv,
  namespace: string,
  names: string[],
  timeoutMs = 120_000,
): Promise<Map<string, string>> {
  const tracker = new ReadyTracker(env.kube, collectionPath(namespace, 'PullZoneConfig'));
  tracker.start();
  try {
    await tracker
      .waitUntil(() => names.every((n) => tracker.readyAt.has(n)), timeoutMs, 'Ready')
      .catch((err: unknown) => {
        const late = names.filter((n) => !tracker.readyAt.has(n));
        const why = late.map(
          (n) => `${n}: ${JSON.stringify(tracker.objects.get(n)?.status ?? null)}`,
        );
        throw new Error(`${String(err)}; not Ready: ${why.join('; ')}`);
      });
    const ids = new Map<string, string>();
    for (const n of names) {
      const id = tracker.objects.get(n)?.status?.pullZoneId;
      if (typeof id === 'number' || typeof id === 'string') ids.set(n, String(id));
    }
    return ids;
  } finally {
    await tracker.stop();
  }
}

/** The operator writes (audit log) to one object, by the shard identities given. */
export async function kubeWritesTo(
  env: BenchEnv,
  namespace: string,
  name: string,
  users: string[],
): Promise<AuditEntry[]> {
  await env.audit.refresh();
  return env.audit
    .select({ verbs: WRITE_VERBS, resource: 'pullzoneconfigs', namespace })
    .filter((e) => e.name === name && users.includes(e.user));
}

/** A shard's platform calls about one zone (`/pullzone/<id>` and its sub-paths). */
export function platformCallsTo(s: Shard, zoneId: string): ProxiedCall[] {
  const path = `/pullzone/${zoneId}`;
  return s.proxy.calls.filter((c) => c.path === path || c.path.startsWith(`${path}/`));
}

/** True when a call changes platform state. */
export function isWrite(c: ProxiedCall): boolean {
  return c.method !== 'GET';
}
