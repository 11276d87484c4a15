import test from 'ava';
import { FakeEnv, thing } from './fake-env.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import type { ClassifiedError } from '../../../src/runtime/errors.js';

const F = 'cdn.operator.io/finalizer';
const PENDING = 'cdn.operator.io/external-create-pending';
/** The fake clock of FakeEnv's reconcilers. */
const NOW = '2025-01-01T00:00:00Z';

test('create without a marker key: the status marker and the finalizer before the create, one status write with the id', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.observeErrorAfterCreate = new Error('platform hiccup right after the create');
  const r = await env.reconciler().reconcile('ns/a');
  const o = env.get('a');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, ['observe', 'create', 'observe'], 'tried to confirm in the same pass');
  t.deepEqual(
    env.writes,
    { metadata: 1, status: 2 },
    'at most three Kubernetes writes per create (marker, finalizer, id)',
  );
  t.deepEqual(o.metadata.finalizers, [F]);
  t.is(o.metadata.annotations?.[PENDING], undefined, 'no tenant-writable marker');
  t.is(o.status?.thingId, 't1');
  t.deepEqual(
    o.status?.ownership,
    { account: 'acc-1', adopted: false, deletionPolicy: 'Delete' },
    'marker cleared',
  );
  t.is(
    findCondition(o.status?.conditions, 'Ready')?.reason,
    'Creating',
    'the confirm failed: the id is still recorded, Ready waits for the next pass',
  );
  t.is(r.requeueAfterMs, 2000, 'observe again soon to confirm');
});

test('create whose answer does not prove the desired state: observed in the same pass, Ready=True in its single status write', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const r = await env.reconciler().reconcile('ns/a');
  t.deepEqual(env.calls, ['observe', 'create', 'observe']);
  t.like(findCondition(env.get('a').status?.conditions, 'Ready'), { status: 'True' });
  t.true(r.requeueAfterMs! > 60_000, 'no confirming pass');
  await env.reconciler().reconcile('ns/a');
  t.deepEqual(env.writes, { metadata: 1, status: 2 }, 'the next poll writes nothing');
});

test('create whose answer proves the desired state: Ready=True in the same single status write, next observe at the poll interval', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.createAvailable = true;
  const r = await env.reconciler().reconcile('ns/a');
  const o = env.get('a');
  t.deepEqual(env.calls, ['observe', 'create']);
  t.deepEqual(env.writes, { metadata: 1, status: 2 });
  t.like(findCondition(o.status?.conditions, 'Ready'), { status: 'True', reason: 'Available' });
  t.like(findCondition(o.status?.conditions, 'Synced'), { status: 'True' });
  t.true(
    r.requeueAfterMs! > 60_000,
    `no confirming pass right after the create (${r.requeueAfterMs} ms)`,
  );
  // The later poll observes the same state and must not write status again.
  await env.reconciler().reconcile('ns/a');
  t.deepEqual(
    env.writes,
    { metadata: 1, status: 2 },
    'the first poll after the create writes nothing',
  );
});

test('duplicate-create guard: a crash between create and the id write is resolved by lookup, not a second create', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.failStatusWrites = 2;
  const first = await env.reconciler().reconcile('ns/a');
  t.is(first.errorClass, 'retryable');
  t.is(env.get('a').status?.thingId, undefined, 'the id was lost');
  // A restarted operator (fresh reconciler) sees the marker without an id.
  const second = await env.reconciler().reconcile('ns/a');
  t.is(second.outcome, 'success');
  t.deepEqual(
    env.calls,
    ['observe', 'create', 'observe', 'observe:pending'],
    'looked up by name, no second create',
  );
  t.is(env.things.size, 1);
  t.is(env.get('a').status?.thingId, 't1', 'adopted id recorded');
  t.true(env.events.some((e) => e.reason === 'AdoptedExternalResource'));
});

test('duplicate-create guard: a create whose answer was lost is adopted on the retry', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.loseCreateAnswer = true;
  t.is((await env.reconciler().reconcile('ns/a')).errorClass, 'retryable');
  await env.reconciler().reconcile('ns/a');
  t.is(env.calls.filter((c) => c === 'create').length, 1);
  t.is(env.get('a').status?.thingId, 't1');
});

test('the pre-create write fails on a stale cache (409) and the pass is a silent requeue', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const stale = env.get('a');
  env.put({ ...stale, spec: { color: 'blue' } });
  const r = await env.reconciler({ getCached: () => structuredClone(stale) }).reconcile('ns/a');
  t.is(r.outcome, 'conflict');
  t.deepEqual(env.calls, ['observe'], 'no create after a failed marker write');
  t.is(env.events.length, 0, 'no event for a conflict');
  t.is(env.get('a').status?.conditions, undefined, 'no status written for a conflict');
  t.is(env.writes.metadata, 0, 'no finalizer written for a conflict');
});

test('a resync with nothing changed makes no write at all', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a'); // create, confirmed in the same pass
  const writes = { ...env.writes };
  const calls = env.calls.length;
  for (let i = 0; i < 3; i++) {
    const r = await rec.reconcile('ns/a');
    t.true(r.requeueAfterMs! >= 540_000 && r.requeueAfterMs! <= 660_000, 'poll interval ±10 %');
  }
  t.deepEqual(env.writes, writes);
  t.deepEqual(env.calls.slice(calls), ['observe', 'observe', 'observe']);
});

test('drift is updated, reported once as an event and not left in plannedChanges', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  env.things.get('t1')!.color = 'changed-outside';
  await rec.reconcile('ns/a');
  t.is(env.things.get('t1')!.color, 'red');
  t.true(
    env.events.some(
      (e) =>
        e.reason === 'UpdatedExternalResource' &&
        e.message.includes('color: changed-outside → red'),
    ),
  );
  t.is(env.get('a').status?.plannedChanges, undefined);
});

test('an update that leaves the resource not ready yet reports Ready=False and observes again soon', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  env.things.get('t1')!.color = 'changed-outside';
  env.updateNotReady = { reason: 'CertificatePending', message: 'Waiting for the certificate' };
  const r = await rec.reconcile('ns/a');
  const ready = findCondition(env.get('a').status?.conditions, 'Ready');
  t.like(ready, { status: 'False', reason: 'CertificatePending' });
  t.true((r.requeueAfterMs ?? Infinity) <= 15_000, 'the not-ready interval, not the poll interval');
});

test('dry-run plans without calling create/update/delete and without a finalizer', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a', { color: 'red' }, { 'cdn.operator.io/dry-run': 'true' }));
  const r = await env.reconciler().reconcile('ns/a');
  const o = env.get('a');
  t.is(r.outcome, 'dry-run');
  t.deepEqual(env.calls, ['observe']);
  t.deepEqual(o.status?.plannedChanges, [
    { field: '(resource)', live: '<absent>', desired: '<created>' },
  ]);
  t.like(findCondition(o.status?.conditions, 'Synced'), { status: 'False', reason: 'DryRun' });
  t.is(env.writes.metadata, 0);
});

test('paused: no external call, Synced=False ReconcilePaused', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a', { color: 'red' }, { 'cdn.operator.io/paused': 'true' }));
  const r = await env.reconciler().reconcile('ns/a');
  t.is(r.outcome, 'paused');
  t.is(r.requeueAfterMs, undefined);
  t.deepEqual(env.calls, []);
  t.like(findCondition(env.get('a').status?.conditions, 'Synced'), {
    status: 'False',
    reason: 'ReconcilePaused',
  });
});

test('deletion: delete, then the finalizer is removed only after observe confirms', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  const o = env.get('a');
  env.objects.set('ns/a', {
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
  });
  const r1 = await rec.reconcile('ns/a');
  t.deepEqual(env.get('a').metadata.finalizers, [F], 'kept after the delete call');
  t.is(findCondition(env.get('a').status?.conditions, 'Ready')?.reason, 'Deleting');
  t.is(r1.requeueAfterMs, 2000);
  await rec.reconcile('ns/a');
  t.deepEqual(env.get('a').metadata.finalizers, [], 'removed after observe says gone');
  t.deepEqual(env.calls.slice(-3), ['observe', 'delete', 'observe']);
});

test('deletion: an error keeps the finalizer (never removed in a finally)', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  const o = env.get('a');
  env.objects.set('ns/a', {
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
  });
  env.observeError = new Error('platform down');
  const r = await rec.reconcile('ns/a');
  t.is(r.errorClass, 'retryable');
  t.deepEqual(env.get('a').metadata.finalizers, [F]);
});

test('deletion with deletionPolicy Orphan removes the finalizer without a delete call', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a', { color: 'red', deletionPolicy: 'Orphan' }));
  const rec = env.reconciler();
  await rec.reconcile('ns/a');
  const o = env.get('a');
  env.objects.set('ns/a', {
    ...o,
    metadata: { ...o.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' },
  });
  await rec.reconcile('ns/a');
  t.deepEqual(env.get('a').metadata.finalizers, []);
  t.false(env.calls.includes('delete'));
  t.is(env.things.size, 1);
});

const errorCases: Array<[string, ClassifiedError, Record<string, unknown>, string]> = [
  [
    'terminal: parked, no requeue',
    { class: 'terminal', reason: 'InvalidSpec', message: 'bad' },
    { requeueAfterMs: undefined, retryMinDelayMs: undefined },
    'InvalidSpec',
  ],
  [
    'unauthorized: periodic recheck',
    { class: 'unauthorized', reason: 'Whatever', message: 'key rejected' },
    { requeueAfterMs: 300_000 },
    'Unauthorized',
  ],
  [
    'retryable honours Retry-After as a floor',
    { class: 'retryable', reason: 'ReconcileError', message: '503', retryAfterMs: 7000 },
    { retryMinDelayMs: 7000 },
    'ReconcileError',
  ],
];
for (const [why, c, expected, reason] of errorCases) {
  test(`error class ${why}`, async (t) => {
    const env = new FakeEnv();
    env.put(thing('a'));
    env.observeError = new Error('x');
    const rec = env.reconciler({ kind: env.kind(() => c) });
    const r = await rec.reconcile('ns/a');
    if ('requeueAfterMs' in expected && expected.requeueAfterMs !== undefined) {
      t.true(Math.abs(r.requeueAfterMs! - (expected.requeueAfterMs as number)) <= 30_000);
    } else t.like(r, expected);
    t.like(findCondition(env.get('a').status?.conditions, 'Synced'), { status: 'False', reason });
    t.is(env.events.filter((e) => e.type === 'Warning').length, 1);
  });
}

test('a terminal NotFound (the resource to adopt is missing) sets Ready=False NotFound too', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.observeError = new Error('x');
  const rec = env.reconciler({
    kind: env.kind(() => ({ class: 'terminal', reason: 'NotFound', message: 'no zone 42' })),
  });
  await rec.reconcile('ns/a');
  const conditions = env.get('a').status?.conditions;
  t.like(findCondition(conditions, 'Synced'), { status: 'False', reason: 'NotFound' });
  t.like(findCondition(conditions, 'Ready'), {
    status: 'False',
    reason: 'NotFound',
    message: 'no zone 42',
  });
});

test('another terminal error leaves Ready Unknown rather than claiming the resource is missing', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.observeError = new Error('x');
  const rec = env.reconciler({
    kind: env.kind(() => ({ class: 'terminal', reason: 'InvalidSpec', message: 'bad' })),
  });
  await rec.reconcile('ns/a');
  t.like(findCondition(env.get('a').status?.conditions, 'Ready'), { status: 'Unknown' });
});

test('a repeated identical error writes status once', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const rec = env.reconciler();
  env.observeError = new Error('down');
  await rec.reconcile('ns/a');
  const after = env.writes.status;
  env.observeError = new Error('down');
  await rec.reconcile('ns/a');
  t.is(env.writes.status, after);
});

test('waiting errors set Ready=False with the reason and requeue after the given delay', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  env.observeError = new (await import('../../../src/runtime/errors.js')).WaitingError(
    'ReferenceNotReady',
    'zone x not ready',
    3000,
  );
  const r = await env.reconciler().reconcile('ns/a');
  t.like(r, { outcome: 'waiting', requeueAfterMs: 3000 });
  t.like(findCondition(env.get('a').status?.conditions, 'Ready'), {
    status: 'False',
    reason: 'ReferenceNotReady',
  });
  t.is(env.events.filter((e) => e.type === 'Warning').length, 0, 'no warning storm for waiting');
});

/** A FakeEnv holding object `a`, created `seconds` before the fake clock, without status. */
function youngThing(seconds: number): FakeEnv {
  const env = new FakeEnv();
  const young = thing('a');
  young.metadata.creationTimestamp = new Date(Date.parse(NOW) - seconds * 1000).toISOString();
  env.put(young);
  return env;
}

test('an object gone from the cache is a no-op', async (t) => {
  const env = new FakeEnv();
  t.is((await env.reconciler().reconcile('ns/missing')).outcome, 'gone');
});

test('a waiting error of a young object without status is not written yet (one write fewer per create); later it is', async (t) => {
  const { WaitingError } = await import('../../../src/runtime/errors.js');
  const env = youngThing(5);
  env.observeError = new WaitingError('ReferenceNotReady', 'zone x not created yet', 3000);
  const r = await env.reconciler().reconcile('ns/a');
  t.like(r, { outcome: 'waiting', requeueAfterMs: 3000 }, 'still retried');
  t.deepEqual(env.writes, { metadata: 0, status: 0 }, 'nothing written while young');
  t.is(env.events.length, 0);
  // The same wait on an object past the grace period is reported.
  const old = env.get('a');
  old.metadata.creationTimestamp = '2024-12-31T23:59:00Z';
  env.objects.set('ns/a', old);
  env.observeError = new WaitingError('ReferenceNotReady', 'zone x not created yet', 3000);
  await env.reconciler().reconcile('ns/a');
  t.like(findCondition(env.get('a').status?.conditions, 'Ready'), {
    status: 'False',
    reason: 'ReferenceNotReady',
  });
});

test('an id given in the spec (adoption by id) is recorded in status even when observe reports no status fields', async (t) => {
  // Like a ContainerApp adopted with spec.adoption.id whose observe returns only what it read: the
  // id column must not stay empty, and a second pass writes nothing more.
  const env = new FakeEnv();
  env.things.set('t-adopted', { id: 't-adopted', name: 'elsewhere', color: 'red' });
  env.put(thing('a', { color: 'red', thingId: 't-adopted' }));
  const r = await env.reconciler().reconcile('ns/a');
  t.is(r.outcome, 'success');
  t.deepEqual(env.calls, ['observe'], 'nothing created or updated');
  const status = env.get('a').status;
  t.is(status?.thingId, 't-adopted');
  t.like(status?.ownership, { adopted: true });
  const writes = env.writes.status;
  await env.reconciler().reconcile('ns/a');
  t.is(env.writes.status, writes, 'recording it once is enough');
});

test('an adopted id keeps the type observe reports for it (a number stays a number)', async (t) => {
  const env = new FakeEnv();
  env.things.set('42', { id: '42', name: 'elsewhere', color: 'red' });
  env.put(thing('a', { color: 'red', thingId: '42' }));
  const base = env.kind();
  const kind = {
    ...base,
    connect: async (
      o: Parameters<typeof base.connect>[0],
      c: Parameters<typeof base.connect>[1],
    ) => {
      const client = await base.connect(o, c);
      return {
        ...client,
        observe: async (...args: Parameters<typeof client.observe>) => ({
          ...(await client.observe(...args)),
          status: { thingId: 42 },
        }),
      };
    },
  };
  await env.reconciler({ kind }).reconcile('ns/a');
  t.is(env.get('a').status?.thingId, 42);
});

test('a wait rechecked less often than the grace (a missing credentials Secret) is reported by the first pass', async (t) => {
  const { WaitingError } = await import('../../../src/runtime/errors.js');
  const env = youngThing(1);
  const rec = env.reconciler({
    kind: {
      ...env.kind(),
      connect: () =>
        Promise.reject(
          new WaitingError('CredentialsNotFound', 'Secret ns/creds not found', 30_000),
        ),
    },
  });
  const r = await rec.reconcile('ns/a');
  t.like(r, { outcome: 'waiting', requeueAfterMs: 30_000 }, 'the recheck interval is kept');
  const conditions = env.get('a').status?.conditions;
  t.like(findCondition(conditions, 'Ready'), { status: 'False', reason: 'CredentialsNotFound' });
  t.like(findCondition(conditions, 'Synced'), { status: 'Unknown' }, 'SYNCED is not blank');
  t.deepEqual(env.calls, [], 'nothing reached the platform');
});
