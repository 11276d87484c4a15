import test from 'ava';
import { ClaimIndex, compareClaimants, type Claimant } from '../../../src/runtime/claims.js';
import { effectiveDeletionPolicy } from '../../../src/runtime/claims-policy.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';

const F = 'cdn.operator.io/finalizer';

function obj(
  name: string,
  created: string,
  extra: { uid?: string; namespace?: string; status?: Record<string, unknown> } = {},
): ManagedObject {
  return {
    apiVersion: 'test.io/v1',
    kind: 'Thing',
    metadata: {
      name,
      namespace: extra.namespace ?? 'ns',
      uid: extra.uid ?? `uid-${name}`,
      creationTimestamp: created,
    },
    spec: {},
    ...(extra.status ? { status: extra.status } : {}),
  };
}

function claimant(over: Partial<Claimant>): Claimant {
  return {
    kind: 'Thing',
    namespace: 'ns',
    name: 'x',
    uid: 'u',
    creationTimestamp: '2025-01-01T00:00:00Z',
    recorded: true,
    ...over,
  };
}

const order: Array<[string, Partial<Claimant>, Partial<Claimant>]> = [
  [
    'a recorded claim beats a spec-only claim of an older object',
    { recorded: true, creationTimestamp: '2025-02-01T00:00:00Z' },
    { recorded: false, creationTimestamp: '2024-01-01T00:00:00Z' },
  ],
  [
    'then the older object wins',
    { creationTimestamp: '2025-01-01T00:00:00Z' },
    { creationTimestamp: '2025-01-01T00:00:01Z' },
  ],
  ['then the uid decides', { uid: 'a' }, { uid: 'b' }],
  ['then the namespace', { uid: 'a', namespace: 'a' }, { uid: 'a', namespace: 'b' }],
  [
    'a missing creation time never wins',
    { creationTimestamp: '2030-01-01T00:00:00Z' },
    { creationTimestamp: '' },
  ],
];
for (const [title, winner, loser] of order) {
  test(`claim order: ${title}`, (t) => {
    t.true(compareClaimants(claimant(winner), claimant(loser)) < 0);
    t.true(compareClaimants(claimant(loser), claimant(winner)) > 0);
  });
}

test('index: the oldest claim wins whatever the insertion order (deterministic after restarts)', (t) => {
  const older = obj('older', '2025-01-01T00:00:00Z', { namespace: 'team-a' });
  const newer = obj('newer', '2025-01-02T00:00:00Z', { namespace: 'team-b' });
  const claim = { type: 'Thing', id: '7', recorded: true };
  for (const sequence of [
    [older, newer],
    [newer, older],
  ]) {
    const index = new ClaimIndex();
    for (const o of sequence) index.set('Thing', o, [claim], 'acc');
    const self = (o: ManagedObject): Claimant => ({
      kind: 'Thing',
      namespace: o.metadata.namespace,
      name: o.metadata.name,
      uid: o.metadata.uid!,
      creationTimestamp: o.metadata.creationTimestamp!,
      account: 'acc',
      recorded: true,
    });
    t.is(index.rivalOf(self(older), claim), undefined);
    t.like(index.rivalOf(self(newer), claim), { namespace: 'team-a', name: 'older' });
  }
});

test('index: claims in two different accounts do not conflict, an unknown account conflicts with all', (t) => {
  const index = new ClaimIndex();
  const claim = { type: 'Thing', id: '7', recorded: true };
  index.set('Thing', obj('a', '2025-01-01T00:00:00Z'), [claim], 'acc-a');
  const b = claimant({ name: 'b', uid: 'ub', creationTimestamp: '2025-01-02T00:00:00Z' });
  t.is(index.rivalOf({ ...b, account: 'acc-b' }, claim), undefined);
  t.like(index.rivalOf({ ...b, account: 'acc-a' }, claim), { name: 'a' });
  t.like(index.rivalOf(b, claim), { name: 'a' }, 'unknown account: refuse rather than share');
});

test('index: removing or changing a claim reports the other claimants and leaves no entry behind', (t) => {
  const index = new ClaimIndex();
  const claim = { type: 'Thing', id: '7', recorded: true };
  const a = obj('a', '2025-01-01T00:00:00Z');
  const b = obj('b', '2025-01-02T00:00:00Z');
  t.deepEqual(index.set('Thing', a, [claim], 'acc'), []);
  t.deepEqual(index.set('Thing', b, [claim], 'acc'), [
    { kind: 'Thing', namespace: 'ns', name: 'a' },
  ]);
  t.deepEqual(index.set('Thing', b, [claim], 'acc'), [], 'an unchanged claim reports nobody');
  t.deepEqual(index.remove('Thing', a), [{ kind: 'Thing', namespace: 'ns', name: 'b' }]);
  t.deepEqual(index.set('Thing', b, [], 'acc'), []);
  t.is(index.size, 0);
  t.is(index.objects, 0);
  for (let i = 0; i < 1000; i++) {
    const o = obj(`o${i}`, '2025-01-01T00:00:00Z');
    index.set('Thing', o, [{ type: 'Thing', id: String(i), recorded: true }], 'acc');
    index.remove('Thing', o);
  }
  t.is(index.size, 0, 'no leak after 1000 create/delete cycles');
});

test('index: one, several and back to one claimant per claim; one and several claims per object', (t) => {
  const index = new ClaimIndex();
  const c7 = { type: 'Thing', id: '7', recorded: true };
  const c8 = { type: 'Thing', id: '8', recorded: true };
  const a = obj('a', '2025-01-01T00:00:00Z');
  const b = obj('b', '2025-01-02T00:00:00Z');
  const c = obj('c', '2025-01-03T00:00:00Z');
  const self = (o: ManagedObject): Claimant =>
    claimant({ name: o.metadata.name, uid: o.metadata.uid!, account: 'acc', recorded: false });
  index.set('Thing', a, [c7, c8], 'acc');
  t.is(index.size, 2);
  t.is(index.objects, 1);
  index.set('Thing', b, [c7], 'acc');
  index.set('Thing', c, [c7], 'acc');
  t.like(index.rivalOf(self(c), c7), { name: 'a' });
  t.deepEqual(
    index.set('Thing', a, [c8], 'acc'),
    [
      { kind: 'Thing', namespace: 'ns', name: 'b' },
      { kind: 'Thing', namespace: 'ns', name: 'c' },
    ],
    'a dropped claim reports both others',
  );
  t.like(index.rivalOf(self(c), c7), { name: 'b' });
  index.remove('Thing', b);
  t.is(index.rivalOf(self(c), c7), undefined, 'c alone on 7');
  t.like(index.rivalOf(self(c), c8), { name: 'a' });
  t.deepEqual(index.set('Thing', c, [c7, c8], 'acc'), [
    { kind: 'Thing', namespace: 'ns', name: 'a' },
  ]);
  t.deepEqual(index.set('Thing', c, [c7], 'acc'), [{ kind: 'Thing', namespace: 'ns', name: 'a' }]);
  t.is(index.rivalOf(self(a), c8), undefined, 'a alone on 8 again');
  const d = obj('d', '2024-12-01T00:00:00Z');
  index.set('Thing', d, [c7], undefined);
  const rival = index.rivalOf(self(c), c7);
  t.like(rival, { name: 'd' }, 'an unknown account overlaps every account');
  t.false('account' in rival!, 'no account member when unknown');
  index.remove('Thing', d);
  index.remove('Thing', a);
  index.remove('Thing', c);
  t.is(index.size, 0);
  t.is(index.objects, 0);
});

test('effective deletion policy: Delete for created resources, Orphan for adopted ones unless the spec says Delete', (t) => {
  const env = new FakeEnv();
  const kind = env.kind();
  const base = thing('a');
  t.is(effectiveDeletionPolicy(kind, base), 'Delete');
  t.is(effectiveDeletionPolicy(kind, thing('a', { thingId: 't9' })), 'Orphan');
  t.is(
    effectiveDeletionPolicy(kind, thing('a', { thingId: 't9', deletionPolicy: 'Delete' })),
    'Delete',
  );
  t.is(
    effectiveDeletionPolicy(kind, { ...base, status: { ownership: { adopted: true } } }),
    'Orphan',
  );
});

/** Two objects in one FakeEnv: `owner` created thing t1, `second` is created after it. */
async function ownerAndSecond(
  secondSpec: Record<string, unknown>,
): Promise<{ env: FakeEnv; index: ClaimIndex }> {
  const env = new FakeEnv();
  env.put({
    ...thing('owner'),
    metadata: { ...thing('owner').metadata, creationTimestamp: '2025-01-01T00:00:00Z' },
  });
  const index = new ClaimIndex();
  await env.reconciler({ claims: env.indexClaims(index) }).reconcile('ns/owner');
  const second = thing('second', secondSpec);
  env.put({
    ...second,
    metadata: { ...second.metadata, creationTimestamp: '2025-01-02T00:00:00Z' },
  });
  env.indexClaims(index);
  env.calls = [];
  return { env, index };
}

test('a second claimant by id is refused with AlreadyManaged naming the owner, and nothing is read or written for it', async (t) => {
  const { env, index } = await ownerAndSecond({ color: 'blue', thingId: 't1' });
  const r = await env.reconciler({ claims: index }).reconcile('ns/second');
  t.is(r.outcome, 'terminal');
  t.deepEqual(env.calls, [], 'no observe, update or delete for the refused object');
  t.is(env.things.get('t1')!.color, 'red', 'the owner’s resource is untouched');
  const synced = findCondition(env.get('second').status?.conditions, 'Synced');
  t.like(synced, { status: 'False', reason: 'AlreadyManaged' });
  t.regex(synced!.message, /ns\/owner/);
  t.is(env.get('second').status?.thingId, undefined, 'the refused object records no id');
  t.is(env.get('second').status?.ownership, undefined);
});

test('deleting a refused claimant deletes nothing and only drops its finalizer', async (t) => {
  const { env, index } = await ownerAndSecond({
    color: 'blue',
    thingId: 't1',
    deletionPolicy: 'Delete',
  });
  const s = env.get('second');
  env.objects.set('ns/second', {
    ...s,
    metadata: { ...s.metadata, finalizers: [F], deletionTimestamp: '2025-01-03T00:00:00Z' },
  });
  const r = await env.reconciler({ claims: index }).reconcile('ns/second');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, [], 'no platform call at all');
  t.true(env.things.has('t1'));
  t.deepEqual(env.get('second').metadata.finalizers, []);
});

test('the refused claimant takes over only once the owner is gone from the index', async (t) => {
  const { env, index } = await ownerAndSecond({ color: 'blue', thingId: 't1' });
  t.is((await env.reconciler({ claims: index }).reconcile('ns/second')).outcome, 'terminal');
  const contenders = index.remove('Thing', env.get('owner'));
  t.deepEqual(contenders, [{ kind: 'Thing', namespace: 'ns', name: 'second' }], 'retried');
  env.objects.delete('ns/owner');
  t.is((await env.reconciler({ claims: index }).reconcile('ns/second')).outcome, 'success');
  t.is(env.things.get('t1')!.color, 'blue');
});

test('migration: an object whose status records an id from an older version keeps working', async (t) => {
  const env = new FakeEnv();
  env.things.set('t5', { id: 't5', name: 'ns/old', color: 'red' });
  const old = thing('old');
  env.put({
    ...old,
    metadata: { ...old.metadata, finalizers: [F], creationTimestamp: '2024-01-01T00:00:00Z' },
    status: { thingId: 't5' },
  });
  const index = env.indexClaims(new ClaimIndex());
  const r = await env.reconciler({ claims: index }).reconcile('ns/old');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, ['observe']);
  t.deepEqual(env.get('old').status?.ownership, {
    account: 'acc-1',
    adopted: false,
    deletionPolicy: 'Delete',
  });
});

test('crash recovery never adopts a resource another object claims', async (t) => {
  const env = new FakeEnv();
  const index = new ClaimIndex();
  // Another object owns a thing carrying this object's lookup name.
  env.things.set('t9', { id: 't9', name: 'ns/a', color: 'red' });
  const other = obj('other', '2024-01-01T00:00:00Z', { status: { thingId: 't9' } });
  index.set('Thing', other, [{ type: 'Thing', id: 't9', recorded: true }], 'acc-1');
  const a = thing('a');
  env.put({ ...a, status: { ownership: { createPendingTime: '2025-01-01T00:00:00Z' } } });
  let seen: boolean | undefined;
  const kind = env.kind();
  const client = env.client();
  const r = await env
    .reconciler({
      claims: index,
      kind: {
        ...kind,
        connect: () =>
          Promise.resolve({
            ...client,
            account: 'acc-1',
            observe: (o, ctx) => {
              seen = ctx.claimedByOther?.('Thing', 't9');
              return client.observe(o, ctx);
            },
          }),
      },
    })
    .reconcile('ns/a');
  t.true(seen, 'the kind is told the id is taken');
  t.is(r.outcome, 'terminal', 'a kind that returned it anyway is refused by the runtime');
  t.is(env.get('a').status?.thingId, undefined);
});

test('deletion: a 404 on the observe GET still sends the DELETE before the finalizer goes', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  env.things.clear(); // the GET now answers 404
  const o = env.get('a');
  env.objects.set('ns/a', {
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
  });
  env.calls = [];
  await rec.reconcile('ns/a');
  t.deepEqual(env.calls, ['observe', 'delete'], 'DELETE by id even though the GET said gone');
  t.deepEqual(env.get('a').metadata.finalizers, [F], 'kept until confirmed');
  await rec.reconcile('ns/a');
  t.deepEqual(env.get('a').metadata.finalizers, []);
});

test('deletion of an adopted resource without an explicit policy leaves it in place', async (t) => {
  const env = new FakeEnv();
  env.things.set('t7', { id: 't7', name: 'outside', color: 'red' });
  env.put(thing('a', { color: 'red', thingId: 't7' }));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  t.like(env.get('a').status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
  const o = env.get('a');
  env.objects.set('ns/a', {
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
  });
  await rec.reconcile('ns/a');
  t.false(env.calls.includes('delete'));
  t.true(env.things.has('t7'));
  t.deepEqual(env.get('a').metadata.finalizers, []);
});

test('a create the platform refused clears its create-pending marker (no later adoption by name)', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const kind = env.kind((e) => ({ class: 'terminal', reason: 'NameTaken', message: String(e) }));
  const client = env.client();
  const refusing = {
    ...kind,
    connect: () =>
      Promise.resolve({
        ...client,
        create: () => Promise.reject(new Error('cannot create: the name is taken')),
      }),
  };
  const r = await env.reconciler({ kind: refusing }).reconcile('ns/a');
  t.is(r.outcome, 'terminal');
  const status = env.get('a').status;
  t.like(findCondition(status?.conditions, 'Synced'), { status: 'False', reason: 'NameTaken' });
  t.is(
    (status?.ownership as { createPendingTime?: string } | undefined)?.createPendingTime,
    undefined,
  );
  // The next pass creates (and fails) again instead of looking the name up.
  env.calls = [];
  await env.reconciler({ kind: refusing }).reconcile('ns/a');
  t.deepEqual(env.calls, ['observe']);
});
