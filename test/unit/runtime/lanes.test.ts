/**
 * The priority lane (issue 17): the work queue serves `high` (changes to objects that exist
 * on the platform) before `normal` (creates) before `low` (drift checks, retries), and the
 * enqueue rules put each event in its lane.
 */
import test from 'ava';
import { laneOfChange, priorityForAdd } from '../../../src/runtime/enqueue-rules.js';
import type { ManagedKind, ManagedObject } from '../../../src/runtime/types.js';
import { LANE_STREAK, WorkQueue, type Priority } from '../../../src/runtime/workqueue.js';

test('work queue: high before normal before low, whatever the order of arrival', async (t) => {
  const q = new WorkQueue();
  for (let i = 0; i < 3; i++) q.add(`ns/poll-${i}`, 'low');
  for (let i = 0; i < 3; i++) q.add(`ns/create-${i}`, 'normal');
  q.add('ns/update', 'high');
  const order: string[] = [];
  while (q.len() > 0) {
    const key = (await q.get()) as string;
    order.push(`${key}:${q.takenFrom(key)}`);
    q.done(key);
  }
  t.deepEqual(order, [
    'ns/update:high',
    'ns/create-0:normal',
    'ns/create-1:normal',
    'ns/create-2:normal',
    'ns/poll-0:low',
    'ns/poll-1:low',
    'ns/poll-2:low',
  ]);
});

test('work queue: a waiting key moves up to a higher lane, never down', async (t) => {
  const q = new WorkQueue();
  q.add('ns/a', 'normal');
  q.add('ns/b', 'low');
  q.add('ns/b', 'normal');
  q.add('ns/b', 'high');
  q.add('ns/a', 'low');
  t.is(await q.get(), 'ns/b');
  t.is(q.takenFrom('ns/b'), 'high');
  t.is(await q.get(), 'ns/a');
  t.is(q.takenFrom('ns/a'), 'normal');
});

const KIND = { idStatusField: 'thingId' } as unknown as ManagedKind;

function obj(
  status?: Record<string, unknown>,
  meta: Partial<ManagedObject['metadata']> = {},
): ManagedObject {
  return {
    apiVersion: 'x/v1',
    kind: 'Thing',
    metadata: { name: 'a', namespace: 'ns', uid: 'u', generation: 2, ...meta },
    spec: {},
    ...(status ? { status } : {}),
  };
}

const synced = (generation: number): Record<string, unknown> => ({
  thingId: '7',
  conditions: [{ type: 'Synced', status: 'True', observedGeneration: generation }],
});

const ADDS: Array<[string, ManagedObject, Priority]> = [
  ['a new object is a create: normal lane', obj(), 'normal'],
  ['an object with an id, in sync for its generation (start-up list): low', obj(synced(2)), 'low'],
  ['an object with an id changed while the operator was away: high', obj(synced(1)), 'high'],
  [
    'an object with an id being deleted: high',
    obj(synced(2), { deletionTimestamp: 'now' }),
    'high',
  ],
];
for (const [why, o, lane] of ADDS) test(`add: ${why}`, (t) => t.is(priorityForAdd(KIND, o), lane));

test('a user change goes to high when the object exists on the platform, else normal', (t) => {
  t.is(laneOfChange(KIND, obj({ thingId: 12 })), 'high');
  t.is(laneOfChange(KIND, obj()), 'normal');
  t.is(laneOfChange(KIND, obj(undefined, { deletionTimestamp: 'now' })), 'high');
});

/** Takes `n` keys (each marked done at once); returns them with their lane. */
async function takeKeys(q: WorkQueue, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n && q.len() > 0; i++) {
    const key = (await q.get()) as string;
    out.push(`${key}:${String(q.takenFrom(key))}`);
    q.done(key);
  }
  return out;
}

test('work queue: namespaces take turns within a lane (one tenant cannot queue another behind its backlog)', async (t) => {
  const q = new WorkQueue();
  for (let i = 0; i < 100; i++) q.add(`tenant-a/zone-${i}`, 'normal');
  q.add('tenant-b/zone-0', 'normal');
  for (let i = 0; i < 100; i++) q.add(`tenant-a/change-${i}`, 'high');
  q.add('tenant-c/change-0', 'high');
  const first = await takeKeys(q, 2);
  t.deepEqual(first, ['tenant-a/change-0:high', 'tenant-c/change-0:high']);
  const creates = (await takeKeys(q, 300)).filter((k) => k.endsWith(':normal'));
  // Fair shares between namespaces: tenant-b's one create is not queued behind tenant-a's 100
  // (it goes before tenant-a's first one, which waits for tenant-a's own changes).
  t.deepEqual(creates.slice(0, 2), ['tenant-b/zone-0:normal', 'tenant-a/zone-0:normal']);
});

test(`work queue: a lane waits at most ${LANE_STREAK} keys of higher lanes (a flood of changes cannot starve creates or drift checks)`, async (t) => {
  const q = new WorkQueue();
  q.add('tenant-b/new-zone', 'normal');
  q.add('tenant-c/poll', 'low');
  // tenant-a keeps changing its existing objects: the high lane never empties.
  let n = 0;
  const served: string[] = [];
  for (let i = 0; i < 40; i++) {
    q.add(`tenant-a/zone-${n++}`, 'high');
    q.add(`tenant-a/zone-${n++}`, 'high');
    served.push(...(await takeKeys(q, 1)));
  }
  const at = (key: string): number => served.findIndex((k) => k.startsWith(key));
  t.true(at('tenant-b/new-zone') >= 0 && at('tenant-b/new-zone') <= LANE_STREAK, served.join(' '));
  t.true(at('tenant-c/poll') >= 0 && at('tenant-c/poll') <= 2 * LANE_STREAK + 1, served.join(' '));
  t.true(
    served.filter((k) => k.endsWith(':high')).length >= 36,
    'the high lane still gets almost every turn',
  );
});

test('work queue: a namespace at its in-flight limit stays queued while others are served', async (t) => {
  const q = new WorkQueue({ maxInFlightPerNamespace: 2 });
  for (let i = 0; i < 5; i++) q.add(`tenant-a/zone-${i}`, 'high');
  const a1 = (await q.get()) as string;
  const a2 = (await q.get()) as string;
  t.true(a1.startsWith('tenant-a/') && a2.startsWith('tenant-a/'));
  // tenant-a has 2 keys processing (e.g. both waiting for its throttled account): the next key
  // handed out is tenant-b's, although tenant-a still has 3 queued.
  const next = q.get();
  q.add('tenant-b/zone-0', 'low');
  t.is(await next, 'tenant-b/zone-0');
  q.done(a1);
  t.true(
    ((await q.get()) as string).startsWith('tenant-a/'),
    'tenant-a gets a key once one is done',
  );
});
