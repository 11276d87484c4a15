/**
 * Observe-only objects (`spec.managementPolicy: Observe`, issue 48): found like an adoption,
 * reported in status, never created, changed or deleted, no finalizer, no claim held against a
 * managing object — and never a window onto a resource another namespace manages.
 *
 * Failing first: on the old runtime an observe-only object was managed like any other (its
 * differing color was written, a missing thing was created, a finalizer added and the thing
 * deleted with the object), and it held its claim against a later owner (AlreadyManaged).
 */
import test from 'ava';
import { ClaimIndex } from '../../../src/runtime/claims.js';
import { claimsOfObject } from '../../../src/runtime/claims-policy.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { statusIdOf } from '../../../src/controllers/kit/ref-or-id.js';
import { FakeEnv, thing } from './fake-env.js';

const OBSERVE = { managementPolicy: 'Observe' };

/** A Thing object in `namespace` whose status records thing `id` (a managing owner). */
function owner(namespace: string, id: string): ManagedObject {
  return {
    ...thing('owner', { color: 'blue' }),
    metadata: {
      name: 'owner',
      namespace,
      uid: `uid-owner-${namespace}`,
      creationTimestamp: '2024-01-01T00:00:00Z',
    },
    status: { thingId: id, ownership: { account: 'acc-1' } },
  };
}

test('an observe-only object reports its resource and writes nothing, whatever differs', async (t) => {
  const env = new FakeEnv();
  env.things.set('t1', { id: 't1', name: 'ns/web', color: 'blue' });
  env.put(thing('web', { ...OBSERVE, thingId: 't1', color: 'red' }));
  const r = await env.reconciler().reconcile('ns/web');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, ['observe'], 'one read, no update');
  t.is(env.things.get('t1')!.color, 'blue', 'the platform is unchanged');
  const o = env.get('web');
  t.is(o.status?.thingId, 't1');
  t.deepEqual(o.metadata.finalizers ?? [], [], 'no finalizer: deleting it makes no call');
  t.like(findCondition(o.status?.conditions, 'Synced'), { status: 'True', reason: 'ObserveOnly' });
  t.like(findCondition(o.status?.conditions, 'Ready'), { status: 'True' });
  t.like(o.status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
  t.is(env.writes.metadata, 0, 'no metadata write (no finalizer, no create marker)');
});

test('an observe-only object whose resource is missing is reported, never created', async (t) => {
  const env = new FakeEnv();
  env.put(thing('web', { ...OBSERVE, thingId: 't9', color: 'red' }));
  const r = await env.reconciler().reconcile('ns/web');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, ['observe']);
  t.is(env.things.size, 0, 'nothing created');
  const o = env.get('web');
  t.like(findCondition(o.status?.conditions, 'Ready'), { status: 'False', reason: 'NotFound' });
  t.like(findCondition(o.status?.conditions, 'Synced'), {
    status: 'False',
    reason: 'ObserveOnly',
  });
});

test('deleting an observe-only object never deletes its resource, even with a finalizer and deletionPolicy Delete', async (t) => {
  const env = new FakeEnv();
  env.things.set('t1', { id: 't1', name: 'ns/web', color: 'blue' });
  const o = env.put(thing('web', { ...OBSERVE, thingId: 't1', deletionPolicy: 'Delete' }));
  env.objects.set('ns/web', {
    ...o,
    metadata: {
      ...o.metadata,
      finalizers: ['cdn.operator.io/finalizer'],
      deletionTimestamp: '2025-01-03T00:00:00Z',
    },
    status: { thingId: 't1' },
  });
  const r = await env.reconciler().reconcile('ns/web');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, [], 'no platform call');
  t.true(env.things.has('t1'));
  t.deepEqual(env.get('web').metadata.finalizers, []);
});

const NAMESPACE_CASES: Array<{ why: string; ownerNamespace?: string; refused: boolean }> = [
  { why: 'unmanaged: observed', refused: false },
  { why: 'managed in the same namespace: observed', ownerNamespace: 'ns', refused: false },
  { why: 'managed in another namespace: refused', ownerNamespace: 'team-a', refused: true },
];

for (const c of NAMESPACE_CASES)
  test(`an observe-only object on a resource ${c.why}`, async (t) => {
    const env = new FakeEnv();
    env.things.set('t1', { id: 't1', name: 'x', color: 'blue' });
    env.put(thing('web', { ...OBSERVE, thingId: 't1', color: 'blue' }));
    const index = new ClaimIndex();
    if (c.ownerNamespace) {
      const o = owner(c.ownerNamespace, 't1');
      index.set('Thing', o, claimsOfObject(env.kind(), o), 'acc-1');
    }
    const r = await env.reconciler({ claims: index }).reconcile('ns/web');
    const synced = findCondition(env.get('web').status?.conditions, 'Synced');
    if (!c.refused) {
      t.is(r.outcome, 'success');
      t.like(synced, { status: 'True', reason: 'ObserveOnly' });
      return;
    }
    t.is(r.outcome, 'terminal');
    t.deepEqual(env.calls, [], 'nothing read: the refusal comes before the observe');
    t.like(synced, { status: 'False', reason: 'ReferenceNotAllowed' });
    t.regex(synced!.message, /namespace team-a/);
  });

test('an observe-only object never keeps an object from managing the resource, and is told when one does', (t) => {
  const env = new FakeEnv();
  const index = new ClaimIndex();
  const observer: ManagedObject = {
    ...thing('web', { ...OBSERVE, thingId: 't1' }),
    metadata: {
      name: 'web',
      namespace: 'team-b',
      uid: 'uid-b',
      creationTimestamp: '2020-01-01T00:00:00Z',
    },
    status: { thingId: 't1', ownership: { account: 'acc-1' } },
  };
  index.set('Thing', observer, claimsOfObject(env.kind(), observer), 'acc-1');
  t.is(index.ownerOf({ type: 'Thing', id: 't1' }, 'acc-1'), undefined, 'an observer owns nothing');
  t.deepEqual(
    index.claimantsOf({ type: 'Thing', id: 't1' }, 'acc-1'),
    [],
    'nor is it a claimant to spare',
  );
  const o = owner('team-a', 't1');
  const told = index.set('Thing', o, claimsOfObject(env.kind(), o), 'acc-1');
  t.deepEqual(
    told,
    [{ kind: 'Thing', namespace: 'team-b', name: 'web' }],
    'the observer is re-checked',
  );
  t.like(index.ownerOf({ type: 'Thing', id: 't1' }, 'acc-1'), { namespace: 'team-a' });
  const self = {
    kind: 'Thing',
    namespace: 'team-a',
    name: 'owner',
    uid: 'uid-owner-team-a',
    creationTimestamp: '2024-01-01T00:00:00Z',
    account: 'acc-1',
    recorded: true,
  };
  t.is(
    index.rivalOf(self, { type: 'Thing', id: 't1' }),
    undefined,
    'the older observer is no rival',
  );
});

const STATUS_ID_CASES: Array<{
  why: string;
  spec: Record<string, unknown>;
  synced?: 'True' | 'False';
  id?: number;
}> = [
  { why: 'a managed object: its id', spec: {}, id: 7 },
  {
    why: 'an observe-only object whose last pass succeeded: its id',
    spec: OBSERVE,
    synced: 'True',
    id: 7,
  },
  {
    why: 'an observe-only object whose last pass was refused: none',
    spec: OBSERVE,
    synced: 'False',
  },
  { why: 'an observe-only object before its first pass: none', spec: OBSERVE },
];

for (const c of STATUS_ID_CASES)
  test(`the id a reference reads from ${c.why}`, (t) => {
    const conditions = c.synced
      ? [{ type: 'Synced', status: c.synced, reason: 'X', message: '', lastTransitionTime: '' }]
      : undefined;
    const o: ManagedObject = {
      ...thing('zone', c.spec),
      status: { dnsZoneId: 7, ...(conditions ? { conditions } : {}) },
    };
    t.is(statusIdOf(o, 'dnsZoneId'), c.id);
  });
