/**
 * A raw id in a spec that names another kind's platform resource is a reference and passes
 * the same claim check as a `*Ref` (issue 28, item 6): allowed only when no object claims the
 * resource, or when its owner lives in the same namespace. Otherwise the pass is refused with
 * Synced=False `ReferenceNotAllowed` naming field, id and owner namespace, and nothing is read
 * from or written to the platform. Before: `settings.storageZoneId` and friends let team-b
 * serve team-a's files on its own hostname and write cache and logs into team-a's zone.
 */
import test from 'ava';
import { ClaimIndex } from '../../../src/runtime/claims.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import type { ManagedKind, ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';

/** A StorageZone object that manages storage zone `id` (recorded), in `namespace`. */
function storageZone(namespace: string, id: string, account = 'acc-1'): ManagedObject {
  return {
    apiVersion: 'storage.cdn.operator.io/v1beta1',
    kind: 'StorageZone',
    metadata: {
      name: 'files',
      namespace,
      uid: `uid-sz-${namespace}`,
      creationTimestamp: '2025-01-01T00:00:00Z',
    },
    spec: {},
    status: { storageZoneId: Number(id), ownership: { account } },
  };
}

/** The fake kind, naming a storage zone by id in `spec.storageZoneId`. */
function referencingKind(env: FakeEnv): ManagedKind {
  return {
    ...env.kind(),
    idReferences: (o: ManagedObject) => {
      const id = o.spec?.storageZoneId;
      return typeof id === 'number'
        ? [{ field: 'spec.storageZoneId', type: 'StorageZone', id: String(id) }]
        : [];
    },
  };
}

const CASES: Array<{
  why: string;
  owner?: ManagedObject;
  refused: boolean;
}> = [
  { why: 'owned in another namespace: refused', owner: storageZone('team-a', '42'), refused: true },
  { why: 'owned in the same namespace: allowed', owner: storageZone('ns', '42'), refused: false },
  { why: 'claimed by no object: allowed', refused: false },
  {
    why: 'owned in another namespace but another account (another resource): allowed',
    owner: storageZone('team-a', '42', 'acc-other'),
    refused: false,
  },
];

for (const c of CASES)
  test(`a storage zone id in the spec, ${c.why}`, async (t) => {
    const env = new FakeEnv();
    env.put(thing('web', { color: 'red', storageZoneId: 42 }));
    const index = new ClaimIndex();
    if (c.owner)
      index.set(
        'StorageZone',
        c.owner,
        [{ type: 'StorageZone', id: '42', recorded: true }],
        (c.owner.status?.ownership as { account: string }).account,
      );
    const r = await env
      .reconciler({ claims: index, kind: referencingKind(env) })
      .reconcile('ns/web');
    const synced = findCondition(env.get('web').status?.conditions, 'Synced');
    if (!c.refused) {
      t.is(r.outcome, 'success');
      t.is(env.things.size, 1, 'created as usual');
      return;
    }
    t.is(r.outcome, 'terminal');
    t.deepEqual(env.calls, [], 'nothing read from or written to the platform');
    t.is(env.things.size, 0);
    t.like(synced, { status: 'False', reason: 'ReferenceNotAllowed' });
    t.regex(synced!.message, /spec\.storageZoneId/);
    t.regex(synced!.message, /\b42\b/);
    t.regex(synced!.message, /namespace team-a/);
    t.true(
      env.events.some((e) => e.type === 'Warning' && e.message.includes('ReferenceNotAllowed')),
      JSON.stringify(env.events),
    );
  });

test('an object being deleted is never held back by a reference check (it only lets go)', async (t) => {
  const env = new FakeEnv();
  const o = env.put(thing('web', { color: 'red', storageZoneId: 42 }));
  env.objects.set('ns/web', {
    ...o,
    metadata: {
      ...o.metadata,
      finalizers: ['cdn.operator.io/finalizer'],
      deletionTimestamp: '2025-01-03T00:00:00Z',
    },
  });
  const index = new ClaimIndex();
  const owner = storageZone('team-a', '42');
  index.set('StorageZone', owner, [{ type: 'StorageZone', id: '42', recorded: true }], 'acc-1');
  const r = await env.reconciler({ claims: index, kind: referencingKind(env) }).reconcile('ns/web');
  t.is(r.outcome, 'success');
  t.deepEqual(env.get('web').metadata.finalizers, []);
});

test("another namespace's older spec-only claim on a resource managed here does not block the owner namespace", async (t) => {
  // team-b's policy named team-a's zone by id first (refused there: ReferenceNotAllowed); its
  // claim is only asked for in its spec, so it must not keep team-a from its own zone.
  const env = new FakeEnv();
  const kind: ManagedKind = {
    ...env.kind(),
    claimsOf: (o) =>
      typeof o.spec?.zoneId === 'number'
        ? [{ type: 'Shield', id: String(o.spec.zoneId), recorded: false }]
        : [],
    idReferences: (o) =>
      typeof o.spec?.zoneId === 'number'
        ? [{ field: 'spec.zoneId', type: 'Zone', id: String(o.spec.zoneId) }]
        : [],
  };
  const own = env.put({
    ...thing('own', { color: 'red', zoneId: 7 }),
    metadata: { ...thing('own').metadata, creationTimestamp: '2025-01-02T00:00:00Z' },
  });
  const index = new ClaimIndex();
  const zone = { ...storageZone('ns', '7'), kind: 'Zone' };
  index.set('Zone', zone, [{ type: 'Zone', id: '7', recorded: true }], 'acc-1');
  const hijack: ManagedObject = {
    ...thing('hijack', { color: 'blue', zoneId: 7 }),
    metadata: {
      name: 'hijack',
      namespace: 'team-b',
      uid: 'uid-hijack',
      creationTimestamp: '2025-01-01T00:00:00Z',
    },
  };
  index.set('Thing', hijack, kind.claimsOf!(hijack), 'acc-1');
  index.set('Thing', own, kind.claimsOf!(own), 'acc-1');
  const r = await env.reconciler({ claims: index, kind }).reconcile('ns/own');
  t.is(r.outcome, 'success', JSON.stringify(env.get('own').status?.conditions));
});
