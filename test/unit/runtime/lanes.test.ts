/**
 * The priority lane (issue 17): the work queue serves `high` (changes to objects that exist
 * on the platform) before `normal` (creates) before `low` (drift checks, retries), and the
 * enqueue rules put each event in its lane.
 */
import test from 'ava';
import { laneOfChange, priorityForAdd } from '../../../src/runtime/enqueue-rules.js';
import type { ManagedKind, ManagedObject } from '../../../src/runtime/types.js';
import { WorkQueue, type Priority } from '../../../src/runtime/workqueue.js';

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
