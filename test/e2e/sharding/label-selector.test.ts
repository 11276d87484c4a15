/**
 * Two operator processes sharded by label selector (`--label-selector shard=a` / `shard=b`,
 * distinct Leases) on the real apiserver and one cdn-sim. Objects in both shards, and one
 * object relabelled from shard A to shard B mid-life. Every Kubernetes write is attributed
 * to a shard by the audit log (each shard has its own client identity) and every platform
 * call by a recording proxy (each shard has its own API URL). Checks: no object is ever
 * written by both shards, the relabelled object's writes by A all precede B's, A stops
 * polling it, and B alone carries its later change and its deletion.
 */
import test from 'ava';
import type { BenchEnv } from '../../../bench/lib/env.js';
import { collectionPath, pullZoneManifest, type Manifest } from '../../../bench/lib/objects.js';
import { sleep } from '../../../bench/lib/stats.js';
import {
  createObjects,
  isWrite,
  kubeWritesTo,
  platformCallsTo,
  startShard,
  startShardEnv,
  stopShard,
  waitReady,
  type Shard,
} from './support.js';

const NS = 'apps';
const SHARDS = ['shard-a', 'shard-b'];
const POLL_MS = 5000;

let env: BenchEnv;
let a: Shard;
let b: Shard;
const ids = new Map<string, string>();

function labelled(name: string, shard: 'a' | 'b'): Manifest {
  const m = pullZoneManifest(NS, name);
  m.metadata.labels = { 'example.com/shard': shard };
  return m;
}

const IN_A = ['a-0', 'a-1', 'a-2'];
const IN_B = ['b-0', 'b-1', 'b-2'];
const MOVING = 'moving';

test.before(async (t) => {
  t.timeout(600_000);
  env = await startShardEnv(SHARDS);
  await env.createNamespace(NS);
  a = await startShard(env, 'shard-a', ['--label-selector', 'example.com/shard=a']);
  b = await startShard(env, 'shard-b', ['--label-selector', 'example.com/shard=b']);
  await createObjects(env, [
    ...IN_A.map((n) => labelled(n, 'a')),
    ...IN_B.map((n) => labelled(n, 'b')),
    labelled(MOVING, 'a'),
  ]);
  for (const [k, v] of await waitReady(env, NS, [...IN_A, ...IN_B, MOVING])) ids.set(k, v);
});

test.after.always(async () => {
  for (const s of [a, b]) if (s) await stopShard(s);
  await env?.stop();
});

test.serial('each object is written only by the shard whose selector matches it', async (t) => {
  // A create's answer is its first observation; the next calls about a zone are polls.
  await sleep(2.5 * POLL_MS);
  for (const [names, mine, other] of [
    [IN_A, a, b],
    [IN_B, b, a],
  ] as const) {
    for (const name of names) {
      const writes = await kubeWritesTo(env, NS, name, SHARDS);
      t.true(writes.length > 0, `${name}: its shard wrote it (finalizer, status)`);
      t.deepEqual(
        [...new Set(writes.map((w) => w.user))],
        [mine.name],
        `${name}: Kubernetes writes only by ${mine.name}`,
      );
      const id = ids.get(name) as string;
      t.true(platformCallsTo(mine, id).length > 0, `${name}: ${mine.name} called the platform`);
      t.deepEqual(
        platformCallsTo(other, id),
        [],
        `${name}: ${other.name} never called the platform`,
      );
    }
  }
  const creates = (s: Shard): number =>
    s.proxy.calls.filter((c) => c.method === 'POST' && c.path === '/pullzone' && c.status < 300)
      .length;
  t.is(creates(a), IN_A.length + 1, 'shard A created its three zones and the moving one');
  t.is(creates(b), IN_B.length, 'shard B created its three zones');
});

test.serial(
  'an object relabelled from shard A to shard B ends up managed by B alone',
  async (t) => {
    t.timeout(300_000);
    const id = ids.get(MOVING) as string;
    const relabelledAt = Date.now();
    await env.kube.request({
      method: 'PATCH',
      path: `${collectionPath(NS, 'PullZoneConfig')}/${MOVING}`,
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { 'example.com/shard': 'b' } } },
    });
    // B takes it over; a spec change after the move must reach the platform through B.
    await sleep(2000);
    const changedAt = Date.now();
    await env.kube.request({
      method: 'PATCH',
      path: `${collectionPath(NS, 'PullZoneConfig')}/${MOVING}`,
      contentType: 'application/merge-patch+json',
      body: { spec: { settings: { cacheControlMaxAgeOverrideSeconds: 4242 } } },
    });
    const deadline = Date.now() + 120_000;
    const bWrote = (): boolean =>
      platformCallsTo(b, id).some(
        (c) => c.method === 'POST' && c.start >= changedAt && c.status < 300,
      );
    while (!bWrote() && Date.now() < deadline) await sleep(500);
    t.true(bWrote(), 'shard B wrote the change made after the move to the platform');
    // Several of A's poll intervals: a shard that still held the object would poll it.
    await sleep(4 * POLL_MS);

    const aCalls = platformCallsTo(a, id);
    const bCalls = platformCallsTo(b, id);
    const grace = 2000; // a pass of A already running when the label changed may finish
    t.deepEqual(
      aCalls.filter((c) => c.start > relabelledAt + grace),
      [],
      'shard A made no platform call for the zone after the move (no polling, no writes)',
    );
    t.deepEqual(
      aCalls.filter((c) => isWrite(c) && c.start > relabelledAt),
      [],
      'shard A wrote nothing to the zone after the move',
    );
    t.true(bCalls.length > 0, 'shard B polls and writes the zone now');
    const lastA = Math.max(0, ...aCalls.map((c) => c.t));
    const firstB = Math.min(...bCalls.map((c) => c.start));
    t.true(lastA < firstB, `platform calls never overlap: A's last ${lastA} < B's first ${firstB}`);

    const kube = await kubeWritesTo(env, NS, MOVING, SHARDS);
    const aKube = kube.filter((w) => w.user === 'shard-a');
    const bKube = kube.filter((w) => w.user === 'shard-b');
    t.true(aKube.length > 0 && bKube.length > 0, 'A wrote it before the move, B after');
    t.true(
      Math.max(...aKube.map((w) => w.t)) < Math.min(...bKube.map((w) => w.t)),
      "Kubernetes writes never interleave: every A write precedes B's first",
    );
    t.deepEqual(
      aKube.filter((w) => w.t > relabelledAt + grace),
      [],
      'shard A wrote nothing to the object after the move',
    );

    const obj = await env.kube.request<{ metadata: { finalizers?: string[] } }>({
      method: 'GET',
      path: `${collectionPath(NS, 'PullZoneConfig')}/${MOVING}`,
    });
    t.deepEqual(
      obj.metadata.finalizers,
      ['cdn.operator.io/finalizer'],
      'one finalizer, which B honours (both shards use the same name)',
    );
  },
);

test.serial('the moved object is deleted on the platform by shard B only', async (t) => {
  t.timeout(180_000);
  const id = ids.get(MOVING) as string;
  const path = `${collectionPath(NS, 'PullZoneConfig')}/${MOVING}`;
  await env.kube.request({ method: 'DELETE', path });
  const deadline = Date.now() + 120_000;
  let gone = false;
  while (!gone && Date.now() < deadline) {
    gone = await env.kube.request({ method: 'GET', path }).then(
      () => false,
      () => true,
    );
    if (!gone) await sleep(500);
  }
  t.true(gone, 'the object went away (finalizer removed)');
  const deletes = (s: Shard): number =>
    platformCallsTo(s, id).filter((c) => c.method === 'DELETE' && c.status < 300).length;
  t.is(deletes(b), 1, 'shard B deleted the zone');
  t.is(deletes(a), 0, 'shard A did not');
});
