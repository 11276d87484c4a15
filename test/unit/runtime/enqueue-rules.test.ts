/** Which changes of a managed object enqueue it, and in which lane (enqueue-rules.ts). */
import test from 'ava';
import { priorityForUpdate } from '../../../src/runtime/enqueue-rules.js';
import type { ManagedObject } from '../../../src/runtime/types.js';

function o(
  meta: Partial<ManagedObject['metadata']> = {},
  status: Record<string, unknown> = {},
): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'K',
    metadata: {
      name: 'a',
      namespace: 'ns',
      uid: 'u',
      generation: 1,
      resourceVersion: '1',
      ...meta,
    },
    status,
  };
}

const updates: Array<
  [string, ManagedObject, ManagedObject, 'high' | 'normal' | 'low' | undefined]
> = [
  [
    'status-only change (our own write) is ignored',
    o(),
    o({ resourceVersion: '2' }, { x: 1 }),
    undefined,
  ],
  ['generation bump is a user change', o(), o({ generation: 2 }), 'high'],
  ['annotation change (paused, dry-run)', o(), o({ annotations: { a: 'b' } }), 'high'],
  [
    'a request annotation (purge, forced pass) is queued like a create, not with the changes',
    o({ annotations: { 'cdn.operator.io/purge-requested-at': '1' } }),
    o({ annotations: { 'cdn.operator.io/purge-requested-at': '2' } }),
    'normal',
  ],
  [
    'a request annotation together with a change is a change',
    o(),
    o({ annotations: { 'cdn.operator.io/reconcile-requested-at': '1', a: 'b' } }),
    'high',
  ],
  ['deletion', o(), o({ deletionTimestamp: 'now' }), 'high'],
  [
    'our own create-pending marker is ignored',
    o(),
    o({ annotations: { 'cdn.operator.io/external-create-pending': 't' } }),
    undefined,
  ],
  [
    'finalizer change while deleting',
    o({ deletionTimestamp: 'now', finalizers: ['a', 'b'] }),
    o({ deletionTimestamp: 'now', finalizers: ['b'] }),
    'high',
  ],
  [
    'finalizer change while alive (our own add) is ignored',
    o(),
    o({ finalizers: ['f'] }),
    undefined,
  ],
];
for (const [why, a, b, expected] of updates) {
  test(`enqueue rule: ${why}`, (t) => t.is(priorityForUpdate(a, b), expected));
}
