/**
 * The signed create-pending marker (create-guard.ts): one metadata write before a create, and
 * only a marker the operator signed for this very object makes a later pass look a resource
 * up by name.
 */
import test from 'ava';
import { FakeEnv, thing } from './fake-env.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import { signMarker, verifiedMarkerTime } from '../../../src/runtime/create-guard.js';
import { markerKeyFor } from '../../../src/cdn/credentials.js';
import type { ManagedObject } from '../../../src/runtime/types.js';

const F = 'cdn.operator.io/finalizer';
const MARKER = 'cdn.operator.io/create-pending';
const KEY = markerKeyFor('api-key-of-account-1');

function signedEnv(): FakeEnv {
  const env = new FakeEnv();
  env.markerKey = KEY;
  return env;
}

/** A same-named resource made by someone else (not claimed by any object). */
function foreignThing(env: FakeEnv, name = 'ns/a'): void {
  env.things.set('foreign', { id: 'foreign', name, color: 'red' });
}

function withMarker(env: FakeEnv, name: string, value: string): void {
  const o = env.get(name);
  o.metadata.annotations = { ...o.metadata.annotations, [MARKER]: value };
  env.objects.set(`ns/${name}`, o);
}

test('create with a marker key: finalizer and signed marker in one metadata write, then one status write with id and availability', async (t) => {
  const env = signedEnv();
  env.put(thing('a'));
  const r = await env.reconciler().reconcile('ns/a');
  const o = env.get('a');
  t.is(r.outcome, 'success');
  t.deepEqual(env.writes, { metadata: 1, status: 1 }, 'two Kubernetes writes per create');
  t.deepEqual(o.metadata.finalizers, [F]);
  t.truthy(verifiedMarkerTime(o, { key: KEY, account: 'acc-1' }), 'the marker verifies');
  t.is(o.status?.thingId, 't1');
  t.like(findCondition(o.status?.conditions, 'Ready'), { status: 'True' });
  t.deepEqual(o.status?.ownership, { account: 'acc-1', adopted: false, deletionPolicy: 'Delete' });
  await env.reconciler().reconcile('ns/a');
  t.deepEqual(env.writes, { metadata: 1, status: 1 }, 'the next poll writes nothing');
});

test('signed marker: a crash between create and the id write is resolved by lookup, not a second create', async (t) => {
  const env = signedEnv();
  env.put(thing('a'));
  env.failStatusWrites = 2;
  t.is((await env.reconciler().reconcile('ns/a')).errorClass, 'retryable');
  t.is(env.get('a').status?.thingId, undefined, 'the id was lost');
  const second = await env.reconciler().reconcile('ns/a');
  t.is(second.outcome, 'success');
  t.deepEqual(env.calls, ['observe', 'create', 'observe', 'observe:pending']);
  t.is(env.things.size, 1, 'no second create');
  t.is(env.get('a').status?.thingId, 't1');
  t.like(env.get('a').status?.ownership, { adopted: false, deletionPolicy: 'Delete' });
});

const forged: Array<{ what: string; value: (env: FakeEnv) => string }> = [
  {
    what: 'a hand-written value',
    value: () => 'v1.1735689600000.acc-1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  },
  { what: 'garbage', value: () => 'yes please' },
  {
    what: 'a valid marker copied from another object (bound to its uid)',
    value: (env) =>
      signMarker({ key: KEY, account: 'acc-1' }, env.get('b'), new Date('2025-01-01T00:00:00Z')),
  },
  {
    what: 'a marker signed with another account key (a rotated or foreign key)',
    value: (env) =>
      signMarker(
        { key: markerKeyFor('another-key'), account: 'acc-1' },
        env.get('a'),
        new Date('2025-01-01T00:00:00Z'),
      ),
  },
];
for (const c of forged) {
  test(`a tenant-set marker does nothing: ${c.what}`, async (t) => {
    const env = signedEnv();
    env.put(thing('a'));
    env.put(thing('b'));
    foreignThing(env);
    withMarker(env, 'a', c.value(env));
    await env.reconciler().reconcile('ns/a');
    t.deepEqual(env.calls.slice(0, 2), ['observe', 'create'], 'no lookup by name');
    t.not(env.get('a').status?.thingId, 'foreign', 'the same-named resource was not taken');
    t.true(env.things.has('foreign'));
    t.truthy(
      verifiedMarkerTime(env.get('a'), { key: KEY, account: 'acc-1' }),
      'the create replaced it with its own marker',
    );
  });
}

test('a tenant-set marker naming another account parks its own object: nothing looked up, nothing created', async (t) => {
  // What a marker made with the account's previous API key looks like (create-pending.test.ts):
  // a create may have happened, so neither a lookup nor a new create is safe.
  const env = signedEnv();
  env.put(thing('a'));
  foreignThing(env);
  withMarker(
    env,
    'a',
    signMarker({ key: KEY, account: 'acc-2' }, env.get('a'), new Date('2025-01-01T00:00:00Z')),
  );
  const r = await env.reconciler().reconcile('ns/a');
  t.is(r.outcome, 'terminal');
  t.deepEqual(env.calls, ['observe'], 'no lookup by name, no create');
  t.deepEqual([...env.things.keys()], ['foreign'], 'the same-named resource was not taken');
  t.like(findCondition(env.get('a').status?.conditions, 'Synced'), {
    reason: 'CreatePendingUnverifiable',
  });
});

test('a marker of a refused create is void: saving and re-adding it does not make the operator look up by name', async (t) => {
  const env = signedEnv();
  env.put(thing('a'));
  env.createError = new Error('400 invalid origin');
  const rec = env.reconciler({
    kind: env.kind(() => ({ class: 'terminal', reason: 'InvalidSpec', message: 'bad' })),
  });
  t.is((await rec.reconcile('ns/a')).outcome, 'terminal');
  const refused = env.get('a');
  const saved = refused.metadata.annotations?.[MARKER];
  t.truthy(saved);
  t.truthy(refused.status?.ownership, 'status records the refusal');
  t.is(
    verifiedMarkerTime(refused, { key: KEY, account: 'acc-1' }),
    undefined,
    'the marker no longer counts',
  );
  // Someone else makes a resource with the name; the tenant re-adds the saved marker.
  foreignThing(env);
  withMarker(env, 'a', saved!);
  const next = await env.reconciler().reconcile('ns/a');
  t.is(next.outcome, 'success');
  t.false(env.calls.includes('observe:pending'), 'no lookup by name');
  t.not(env.get('a').status?.thingId, 'foreign');
});

test('a stale marker is ignored once the id is recorded', async (t) => {
  const env = signedEnv();
  env.put(thing('a'));
  await env.reconciler().reconcile('ns/a');
  env.calls = [];
  await env.reconciler().reconcile('ns/a');
  t.deepEqual(env.calls, ['observe'], 'observed by id, no lookup by name');
});

test('signMarker/verifiedMarkerTime: the uid, the account and the key are all bound', (t) => {
  const obj: ManagedObject = { ...thing('a'), metadata: { ...thing('a').metadata, uid: 'u1' } };
  const signer = { key: KEY, account: 'acc-1' };
  const now = new Date('2025-01-01T00:00:00.123Z');
  const marked = {
    ...obj,
    metadata: { ...obj.metadata, annotations: { [MARKER]: signMarker(signer, obj, now) } },
  };
  t.is(verifiedMarkerTime(marked, signer), now.getTime());
  t.is(
    verifiedMarkerTime({ ...marked, metadata: { ...marked.metadata, uid: 'u2' } }, signer),
    undefined,
  );
  t.is(verifiedMarkerTime(marked, { ...signer, account: 'acc-2' }), undefined);
  t.is(verifiedMarkerTime(marked, { key: markerKeyFor('other'), account: 'acc-1' }), undefined);
  t.is(verifiedMarkerTime(marked, undefined), undefined, 'no key: never trusted');
  t.is(
    verifiedMarkerTime(
      { ...marked, status: { ownership: { createRefusedTime: now.toISOString() } } },
      signer,
    ),
    undefined,
    'voided by a refused create at the same time',
  );
});
