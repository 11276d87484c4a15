import test from 'ava';
import {
  buildPendingStatusPatch,
  isCreatePending,
  recordedExternalId,
} from '../../../src/runtime/create-guard.js';
import {
  decideDeletion,
  withFinalizer,
  withoutFinalizer,
  type DeletionStep,
} from '../../../src/runtime/finalizer.js';
import type { ManagedKind, ManagedObject } from '../../../src/runtime/types.js';

const F = 'cdn.operator.io/finalizer';
function obj(
  over: Partial<ManagedObject['metadata']> = {},
  spec: Record<string, unknown> = {},
  status: Record<string, unknown> = {},
): ManagedObject {
  return {
    apiVersion: 'x/v1',
    kind: 'X',
    metadata: { name: 'a', namespace: 'ns', resourceVersion: '7', ...over },
    spec,
    status,
  };
}

const cases: Array<[string, ManagedObject, boolean | undefined, boolean, DeletionStep]> = [
  ['no finalizer of ours: nothing to do', obj({ finalizers: ['other'] }), true, false, 'none'],
  [
    'Orphan: remove without delete',
    obj({ finalizers: [F] }, { deletionPolicy: 'Orphan' }),
    true,
    false,
    'orphan',
  ],
  ['dry-run: never delete externally', obj({ finalizers: [F] }), true, true, 'orphan'],
  [
    'not observed yet: must delete/observe first, never remove blindly',
    obj({ finalizers: [F] }),
    undefined,
    false,
    'delete',
  ],
  ['still exists: delete', obj({ finalizers: [F] }), true, false, 'delete'],
  [
    'observe confirms it is gone: remove finalizer',
    obj({ finalizers: [F] }),
    false,
    false,
    'remove-finalizer',
  ],
];
for (const [why, o, exists, dry, step] of cases) {
  test(`decideDeletion: ${why}`, (t) => t.is(decideDeletion(o, exists, dry), step));
}

test('finalizer list helpers keep other finalizers and never duplicate', (t) => {
  t.deepEqual(withFinalizer(['a']), ['a', F]);
  t.deepEqual(withFinalizer([F]), [F]);
  t.deepEqual(withoutFinalizer(['a', F]), ['a']);
  t.deepEqual(withFinalizer(undefined), [F]);
});

const kind = {
  idStatusField: 'zoneId',
  specExternalId: (o: ManagedObject) => o.spec?.adoptId as string | undefined,
} as unknown as ManagedKind;

test('recorded id: spec adoption first, then status (numbers accepted)', (t) => {
  t.is(recordedExternalId(kind, obj({}, { adoptId: '9' }, { zoneId: 1 })), '9');
  t.is(recordedExternalId(kind, obj({}, {}, { zoneId: 42 })), '42');
  t.is(recordedExternalId(kind, obj({}, {}, {})), undefined);
});

test('create pending only when the status marker is present and no id is recorded', (t) => {
  const marked = obj({}, {}, { ownership: { createPendingTime: '2025-01-01T00:00:00Z' } });
  t.true(isCreatePending(marked, undefined));
  t.false(isCreatePending(marked, '5'), 'a stale marker next to an id is harmless');
  t.false(isCreatePending(obj(), undefined));
});

test('a hand-set create-pending annotation is not a create-pending record', (t) => {
  const forged = obj({
    annotations: { 'cdn.operator.io/external-create-pending': '2025-01-01T00:00:00Z' },
  });
  t.false(isCreatePending(forged, undefined));
});

test('the pre-create status patch carries the resourceVersion, a fresh marker and the account', (t) => {
  const p = buildPendingStatusPatch(obj(), new Date('2025-02-03T04:05:06.789Z'), 'acc1');
  t.deepEqual(p, {
    metadata: { resourceVersion: '7' },
    status: { ownership: { createPendingTime: '2025-02-03T04:05:06Z', account: 'acc1' } },
  });
});
