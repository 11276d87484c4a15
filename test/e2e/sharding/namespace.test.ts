/**
 * Two operator processes sharded by namespace (`--namespace team-c` / `--namespace team-d`,
 * distinct Leases) on the real apiserver and one cdn-sim, plus a namespace neither watches.
 * Every Kubernetes write is attributed to a shard by the audit log and every platform call
 * by a recording proxy: each object is acted on by its namespace's shard only, and an object
 * outside both shards is never touched.
 */
import test from 'ava';
import type { BenchEnv } from '../../../bench/lib/env.js';
import { collectionPath, pullZoneManifest } from '../../../bench/lib/objects.js';
import { sleep } from '../../../bench/lib/stats.js';
import {
  createObjects,
  kubeWritesTo,
  platformCallsTo,
  startShard,
  startShardEnv,
  stopShard,
  waitReady,
  type Shard,
} from './support.js';

const SHARDS = ['shard-c', 'shard-d'];
const POLL_MS = 5000;
// Zone names are platform-wide unique and default to the object name: one prefix per team.
const NAMES = { 'team-c': ['c-0', 'c-1', 'c-2'], 'team-d': ['d-0', 'd-1', 'd-2'] };

let env: BenchEnv;
let c: Shard;
let d: Shard;

test.before(async (t) => {
  t.timeout(600_000);
  env = await startShardEnv(SHARDS);
  for (const ns of ['team-c', 'team-d', 'team-x']) await env.createNamespace(ns);
  // As the chart does: Secrets are read in the release namespace (the account's API key)
  // and the watched ones.
  c = await startShard(env, 'shard-c', [
    '--namespace',
    'team-c',
    '--secret-namespace',
    'shard-c,team-c',
  ]);
  d = await startShard(env, 'shard-d', [
    '--namespace',
    'team-d',
    '--secret-namespace',
    'shard-d,team-d',
  ]);
  await createObjects(env, [
    ...NAMES['team-c'].map((n) => pullZoneManifest('team-c', n)),
    ...NAMES['team-d'].map((n) => pullZoneManifest('team-d', n)),
    pullZoneManifest('team-x', 'unwatched'),
  ]);
});

test.after.always(async () => {
  for (const s of [c, d]) if (s) await stopShard(s);
  await env?.stop();
});

test.serial('each namespace is acted on by its own shard only', async (t) => {
  t.timeout(300_000);
  const ids = new Map<string, Map<string, string>>();
  for (const ns of ['team-c', 'team-d'] as const) ids.set(ns, await waitReady(env, ns, NAMES[ns]));
  await sleep(2.5 * POLL_MS); // let each shard poll its zones at least once
  for (const [ns, mine, other] of [
    ['team-c', c, d],
    ['team-d', d, c],
  ] as const) {
    for (const name of NAMES[ns]) {
      const writes = await kubeWritesTo(env, ns, name, SHARDS);
      t.deepEqual(
        [...new Set(writes.map((w) => w.user))],
        [mine.name],
        `${ns}/${name}: Kubernetes writes only by ${mine.name}`,
      );
      const id = ids.get(ns)?.get(name) as string;
      t.true(platformCallsTo(mine, id).length > 0, `${ns}/${name}: ${mine.name} polls its zone`);
      t.deepEqual(platformCallsTo(other, id), [], `${ns}/${name}: ${other.name} never calls it`);
    }
  }
  const creates = (s: Shard): number =>
    s.proxy.calls.filter((x) => x.method === 'POST' && x.path === '/pullzone' && x.status < 300)
      .length;
  t.is(creates(c), 3, 'shard C created the three zones of team-c');
  t.is(creates(d), 3, 'shard D created the three zones of team-d');
});

test.serial('an object in a namespace no shard watches is never touched', async (t) => {
  const writes = await kubeWritesTo(env, 'team-x', 'unwatched', SHARDS);
  t.deepEqual(writes, [], 'no Kubernetes write by either shard');
  const obj = await env.kube.request<{ metadata: { finalizers?: string[] }; status?: unknown }>({
    method: 'GET',
    path: `${collectionPath('team-x', 'PullZoneConfig')}/unwatched`,
  });
  t.is(obj.metadata.finalizers, undefined, 'no finalizer');
  t.is(obj.status, undefined, 'no status');
});
