/**
 * Issue 29 items 1 and 5: a create whose answer was lost (the client timed out, the platform
 * committed just after) is resolved by looking the resource up, never by another create while
 * the platform may still show it: the next pass's lookup can miss it (listing lag), and a
 * second create then either makes a duplicate (names not unique) or is refused as "name taken"
 * — whose refusal used to void the marker, so the first resource was never recorded and never
 * deleted. A rotated API key must not void the record of such a create either.
 */
import test from 'ava';
import { FakeEnv, thing } from './fake-env.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import { markerKeyFor } from '../../../src/cdn/credentials.js';
import type { ClassifiedError } from '../../../src/runtime/errors.js';
import type { ManagedReconciler, ReconcileResult } from '../../../src/runtime/reconciler.js';

const MARKER = 'cdn.operator.io/create-pending';
const WINDOW_MS = 60_000;

/** Name conflicts are refusals (terminal NameTaken); everything else is retried. */
function classify(e: unknown): ClassifiedError {
  if ((e as { nameTaken?: boolean }).nameTaken)
    return { class: 'terminal', reason: 'NameTaken', message: 'the name is taken' };
  return { class: 'retryable', reason: 'ReconcileError', message: String(e) };
}

interface World {
  env: FakeEnv;
  clock: { now: number };
  rec: ManagedReconciler;
  /** One pass; the clock moves on by the delay the pass asked for. */
  pass(): Promise<ReconcileResult>;
}

/** A platform whose first create commits but whose answer is lost, then shows up `lag` lookups late. */
function slowCreate(opts: { uniqueNames: boolean; lag: number }): World {
  const env = new FakeEnv();
  env.markerKey = markerKeyFor('api-key-1');
  env.uniqueNames = opts.uniqueNames;
  env.lookupLag = opts.lag;
  env.loseCreateAnswer = true;
  env.put(thing('a'));
  const clock = { now: 1_000_000 };
  // One reconciler for the whole run, as in the operator (its window lives in memory).
  const rec = env.reconciler({ kind: env.kind(classify), monotonicNow: () => clock.now });
  return {
    env,
    clock,
    rec,
    pass: async () => {
      const r = await rec.reconcile('ns/a');
      clock.now += r.requeueAfterMs ?? r.retryMinDelayMs ?? 1000;
      return r;
    },
  };
}

async function deleteObject(w: World): Promise<void> {
  const o = w.env.get('a');
  o.metadata.deletionTimestamp = '2025-01-01T00:10:00Z';
  w.env.objects.set('ns/a', o);
  for (let i = 0; i < 6 && w.env.objects.get('ns/a')?.metadata.finalizers?.length; i++)
    await w.pass();
}

for (const uniqueNames of [true, false]) {
  test(`a create answered after the client's timeout, seen 2 lookups late (${uniqueNames ? 'unique names: no NameTaken' : 'names not unique: no duplicate'}), is adopted, recorded and deleted`, async (t) => {
    const w = slowCreate({ uniqueNames, lag: 2 });
    t.is((await w.pass()).outcome, 'error', 'the first create timed out');
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) outcomes.push((await w.pass()).outcome);
    const o = w.env.get('a');
    t.log(
      `outcomes ${outcomes.join(', ')}; creates ${w.env.calls.filter((c) => c === 'create').length}; things ${w.env.things.size}`,
    );
    t.is(w.env.calls.filter((c) => c === 'create').length, 1, 'no second create');
    t.is(w.env.things.size, 1, 'exactly one resource');
    t.is(o.status?.thingId, 't1', 'recorded in status');
    t.like(o.status?.ownership, { deletionPolicy: 'Delete', adopted: false });
    t.not(findCondition(o.status?.conditions, 'Synced')?.reason, 'NameTaken');
    await deleteObject(w);
    t.is(w.env.things.size, 0, 'gone after the object was deleted');
    t.deepEqual(w.env.objects.get('ns/a')?.metadata.finalizers ?? [], []);
  });
}

test('while the window lasts a pending create is looked up again with growing delays, never created again', async (t) => {
  const w = slowCreate({ uniqueNames: false, lag: 1000 });
  await w.pass();
  const delays: number[] = [];
  let creates = 0;
  const start = w.clock.now;
  while (w.clock.now - start < WINDOW_MS - 5_000) {
    const r = await w.pass();
    creates = w.env.calls.filter((c) => c === 'create').length;
    t.is(r.outcome, 'waiting');
    delays.push(r.requeueAfterMs ?? 0);
  }
  t.is(creates, 1);
  t.true(delays.length <= 10, `${delays.length} lookups: ${delays.join(', ')}`);
  t.is(
    findCondition(w.env.get('a').status?.conditions, 'Ready')?.reason,
    'CreatePending',
    'reported while it lasts',
  );
});

test('a create that really did not happen is sent again once the window passed without finding it', async (t) => {
  const w = slowCreate({ uniqueNames: false, lag: 0 });
  w.env.loseCreateAnswer = false;
  w.env.createError = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  t.is((await w.pass()).outcome, 'error');
  t.is((await w.pass()).outcome, 'waiting', 'not created again at once');
  w.clock.now += WINDOW_MS;
  t.is((await w.pass()).outcome, 'success');
  t.is(w.env.things.size, 1);
  t.is(w.env.get('a').status?.thingId, 't1');
});

test('an object deleted while its create is pending keeps its finalizer until the create is resolved', async (t) => {
  const w = slowCreate({ uniqueNames: false, lag: 3 });
  await w.pass();
  await deleteObject(w);
  t.is(w.env.things.size, 0, 'the late resource was found and deleted');
  t.deepEqual(w.env.objects.get('ns/a')?.metadata.finalizers ?? [], []);
});

test('a rotated API key keeps a pending create verifiable: adopted, not created again (item 5)', async (t) => {
  const w = slowCreate({ uniqueNames: false, lag: 1 });
  await w.pass();
  // The account's key is rotated: a new marker key and a new account fingerprint.
  w.env.markerKey = markerKeyFor('api-key-2');
  w.env.account = 'acc-2';
  for (let i = 0; i < 3; i++) await w.pass();
  t.is(w.env.calls.filter((c) => c === 'create').length, 1, 'no second create');
  t.is(w.env.things.size, 1);
  t.is(w.env.get('a').status?.thingId, 't1');
});

test('a marker of another key with no record of its outcome (crash, then rotation) parks the object instead of creating again', async (t) => {
  const env = new FakeEnv();
  env.markerKey = markerKeyFor('api-key-1');
  env.put(thing('a'));
  env.failStatusWrites = 2; // the create succeeded; the process died before recording it
  await env.reconciler().reconcile('ns/a');
  t.truthy(env.get('a').metadata.annotations?.[MARKER]);
  env.markerKey = markerKeyFor('api-key-2');
  env.account = 'acc-2';
  const r = await env.reconciler().reconcile('ns/a');
  t.is(r.outcome, 'terminal');
  t.is(
    findCondition(env.get('a').status?.conditions, 'Synced')?.reason,
    'CreatePendingUnverifiable',
  );
  t.is(env.things.size, 1, 'no second resource');
  // The user looks and removes the marker: a new create.
  const o = env.get('a');
  delete o.metadata.annotations?.[MARKER];
  env.objects.set('ns/a', o);
  t.is((await env.reconciler().reconcile('ns/a')).outcome, 'success');
});

test('a create the platform answered it did not process (503, 429: notApplied) is sent again at once, no window', async (t) => {
  const w = slowCreate({ uniqueNames: false, lag: 0 });
  w.env.loseCreateAnswer = false;
  w.env.createError = Object.assign(new Error('503 Service Unavailable'), { notApplied: true });
  const rec = w.env.reconciler({
    kind: w.env.kind((e) =>
      (e as { notApplied?: boolean }).notApplied
        ? { class: 'retryable', reason: 'ApiUnavailable', message: '503', notApplied: true }
        : classify(e),
    ),
    monotonicNow: () => w.clock.now,
  });
  t.is((await rec.reconcile('ns/a')).outcome, 'error');
  t.is((await rec.reconcile('ns/a')).outcome, 'success', 'created again at once');
  t.is(w.env.things.size, 1);
  t.deepEqual(
    w.env.calls.filter((c) => c.startsWith('observe')),
    ['observe', 'observe', 'observe'],
    'no lookup by name: the marker of the unprocessed create was voided',
  );
});

test('a create that waited for a reference before sending anything (WaitingError) is sent at once when it is ready, no window', async (t) => {
  // The demo's ContainerApp waited for its PullZoneConfig's id inside create; that wait was
  // taken for a lost create and held the app in CreatePending for the whole 60 s window.
  const w = slowCreate({ uniqueNames: false, lag: 0 });
  w.env.loseCreateAnswer = false;
  w.env.createError = Object.assign(new Error('waiting for the pull zone id'), { waiting: true });
  const rec = w.env.reconciler({
    kind: w.env.kind((e) =>
      (e as { waiting?: boolean }).waiting
        ? {
            class: 'waiting',
            reason: 'ReferenceNotReady',
            message: 'waiting',
            requeueAfterMs: 1000,
          }
        : classify(e),
    ),
    monotonicNow: () => w.clock.now,
  });
  const first = await rec.reconcile('ns/a');
  t.not(
    findCondition(w.env.get('a').status?.conditions, 'Ready')?.reason,
    'CreatePending',
    first.outcome,
  );
  await rec.reconcile('ns/a');
  const o = w.env.get('a');
  t.is(
    findCondition(o.status?.conditions, 'Ready')?.reason !== 'CreatePending',
    true,
    'not held as a pending create',
  );
  t.is(w.env.things.size, 1, 'created on the next pass');
  t.is(o.status?.thingId, 't1');
  t.is(
    (o.status?.ownership as { createPendingTime?: unknown } | undefined)?.createPendingTime,
    undefined,
  );
});
