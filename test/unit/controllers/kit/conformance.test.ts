/**
 * The kit's conformance table (issue 43): every kind with a platform identity, as the operator
 * runs it (real client, real reconciler, in-process cdn-sim), against the identity rules that
 * live once in kit/identity.ts and the runtime:
 *
 * - a pass with nothing to do writes nothing (observe is read-only);
 * - a missing adopted id is terminal and never created;
 * - an adopted resource deleted behind the operator's back is never created again;
 * - gone is gone: deleting an object whose resource is already gone releases it;
 * - `Orphan` deletes nothing;
 * - a lost create (answer lost after the commit) is recovered, with no duplicate, and a resource
 *   of another owner with the same name is never adopted, changed or deleted;
 * - a create lost before the commit never takes such a resource either (created after the
 *   pending window instead);
 * - several candidates for adoption by name are refused; one another object claims is skipped;
 * - an observe-only object (`spec.managementPolicy: Observe`) reads and never writes or deletes.
 *
 * The cases for resources of another owner with the same name apply where names are not unique
 * (the platform refuses a second pull zone, storage zone or DNS zone of one name). The test's
 * Gadget runs too, on the gadget routes the world installs in cdn-sim.
 */
import test, { type ExecutionContext } from 'ava';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { FIXTURES, type KindFixture, type KindScene } from './fixtures.js';
import {
  callCount,
  objectOf,
  setFaults,
  startWorld,
  Subject,
  writesSince,
  type World,
} from './world.js';

let world: World;
const scenes = new Map<string, KindScene>();
let seq = 0;

test.before(async () => {
  world = await startWorld();
  for (const f of FIXTURES) scenes.set(f.kind, await f.prepare(world));
});

test.after.always(async () => {
  await world?.close();
});

/** A platform name no other case uses. */
function fresh(f: KindFixture): string {
  return `kit-${f.kind.toLowerCase()}-${++seq}`;
}

function sceneOf(f: KindFixture): KindScene {
  return scenes.get(f.kind)!;
}

function subject(f: KindFixture, name: string, extra: Record<string, unknown> = {}): Subject {
  return new Subject(world, sceneOf(f).stage, name, { ...sceneOf(f).spec(name), ...extra });
}

/**
 * A new process after the window: the object is Ready with one resource of its name, the one
 * its status records, and nothing is left under a provisional name.
 */
async function assertOneAfterRestart(
  t: ExecutionContext,
  f: KindFixture,
  s: Subject,
  name: string,
): Promise<void> {
  s.restart();
  s.advance(61_000);
  await s.settle(6);
  t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
  t.deepEqual(
    (await sceneOf(f).named(name)).map((r) => r.id),
    [s.id(f.idField)],
    'one resource, the recorded one',
  );
  const leftovers = (await sceneOf(f).all()).filter((r) => r.name.startsWith('cdnop-'));
  t.deepEqual(leftovers, [], 'no resource left under a provisional name');
}

/** A spec id that names nothing (apps have string ids). */
function missingId(f: KindFixture): string | number {
  return f.kind === 'ContainerApp' ? 'a0000000-0000-4000-8000-000000000000' : 999_999;
}

function assertSynced(t: ExecutionContext, s: Subject, reason: string): void {
  const synced = s.condition('Synced');
  t.is(synced?.status, 'False', `Synced: ${JSON.stringify(synced)}`);
  t.is(synced?.reason, reason, synced?.message);
}

type Case = [
  title: string,
  applies: (f: KindFixture) => boolean,
  run: (t: ExecutionContext, f: KindFixture) => Promise<void>,
];

const all = (): boolean => true;
const shared = (f: KindFixture): boolean => f.names === 'shared';

const CASES: Case[] = [
  [
    'a pass with nothing to do writes nothing',
    all,
    async (t, f) => {
      const s = subject(f, fresh(f));
      await s.settle();
      t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
      const mark = callCount(world);
      await s.pass();
      t.deepEqual(writesSince(world, mark), []);
    },
  ],
  [
    'a missing adopted id is terminal and never created',
    all,
    async (t, f) => {
      const name = fresh(f);
      const s = subject(f, name, { adoption: { policy: 'ById', id: missingId(f) } });
      const mark = callCount(world);
      const r = await s.pass();
      t.is(r.outcome, 'terminal');
      assertSynced(t, s, 'NotFound');
      t.is(s.condition('Ready')?.reason, 'NotFound');
      t.deepEqual(writesSince(world, mark), []);
    },
  ],
  [
    'an adopted resource deleted behind the operator is never created again',
    all,
    async (t, f) => {
      const name = fresh(f);
      const theirs = await sceneOf(f).foreign(name);
      const s = subject(f, name, { adoption: { policy: 'ByName' } });
      await s.settle();
      t.is(s.id(f.idField), theirs);
      await sceneOf(f).remove(theirs);
      const mark = callCount(world);
      await s.pass();
      assertSynced(t, s, 'NotFound');
      t.deepEqual(writesSince(world, mark), [], 'no create');
      t.deepEqual(await sceneOf(f).named(name), []);
    },
  ],
  [
    'gone is gone: deleting an object whose resource is already gone releases it',
    all,
    async (t, f) => {
      const s = subject(f, fresh(f));
      await s.settle();
      await sceneOf(f).remove(s.id(f.idField)!);
      s.markDeleted();
      for (let i = 0; i < 3 && !s.released(); i++) await s.pass();
      t.true(s.released());
    },
  ],
  [
    'Orphan deletes nothing',
    all,
    async (t, f) => {
      const name = fresh(f);
      const s = subject(f, name, { deletionPolicy: 'Orphan' });
      await s.settle();
      const id = s.id(f.idField)!;
      s.markDeleted();
      const mark = callCount(world);
      await s.pass();
      t.true(s.released());
      t.deepEqual(writesSince(world, mark), []);
      t.true(
        (await sceneOf(f).all()).some((r) => r.id === id),
        'still on the platform',
      );
    },
  ],
  [
    'a create whose answer is lost after the commit is recovered: no duplicate, nothing of another owner touched',
    all,
    async (t, f) => {
      const name = fresh(f);
      const theirs = f.names === 'shared' ? await sceneOf(f).foreign(name) : undefined;
      const s = subject(f, name);
      setFaults(world, { commitThenDropRate: 1, errorRoutes: [f.createRoute] });
      try {
        await s.pass();
      } finally {
        setFaults(world, {});
      }
      t.is(s.id(f.idField), undefined, 'the answer was lost');
      await s.settle(6);
      t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
      const ours = s.id(f.idField);
      const named = (await sceneOf(f).named(name)).map((r) => r.id).sort();
      t.deepEqual(
        named,
        [ours, theirs].filter((x) => x !== undefined).sort(),
        'ours and theirs, once each',
      );
      t.not(ours, theirs);
      t.is(
        s.obj.status?.ownership && (s.obj.status.ownership as { adopted?: boolean }).adopted,
        false,
      );
    },
  ],
  [
    'a crash after the create and the update of its pass, before the last status write, leaves no duplicate',
    all,
    async (t, f) => {
      const name = fresh(f);
      const s = subject(f, name);
      s.crashBeforeReady = true;
      await s.pass();
      await assertOneAfterRestart(t, f, s, name);
    },
  ],
  [
    'a lost create recovered, then a crash before the recovery pass writes Ready: no duplicate',
    all,
    async (t, f) => {
      const name = fresh(f);
      const s = subject(f, name);
      setFaults(world, { commitThenDropRate: 1, errorRoutes: [f.createRoute] });
      try {
        await s.pass();
      } finally {
        setFaults(world, {});
      }
      // The next pass finds the resource (by its provisional name where names are shared),
      // updates it (the rename that removes that proof) and dies before its Ready write.
      s.crashBeforeReady = true;
      await s.pass();
      await assertOneAfterRestart(t, f, s, name);
    },
  ],
  [
    'deleted while its create is pending: the late resource is found and deleted, nothing leaks',
    all,
    async (t, f) => {
      const name = fresh(f);
      const s = subject(f, name);
      setFaults(world, { commitThenDropRate: 1, errorRoutes: [f.createRoute] });
      try {
        await s.pass();
      } finally {
        setFaults(world, {});
      }
      const before = (await sceneOf(f).all()).length;
      s.markDeleted();
      for (let i = 0; i < 4 && !s.released(); i++) await s.pass();
      t.true(s.released(), JSON.stringify(s.obj.status?.conditions));
      t.is((await sceneOf(f).all()).length, before - 1, 'the late resource was deleted');
      t.deepEqual(await sceneOf(f).named(name), []);
    },
  ],
  [
    'a create lost before the commit never takes a resource of another owner; created after the window',
    shared,
    async (t, f) => {
      const name = fresh(f);
      const theirs = await sceneOf(f).foreign(name);
      const s = subject(f, name);
      setFaults(world, { dropConnectionRate: 1, errorRoutes: [f.createRoute] });
      try {
        await s.pass();
      } finally {
        setFaults(world, {});
      }
      const mark = callCount(world);
      await s.pass();
      t.is(s.condition('Ready')?.reason, 'CreatePending', 'waits for its own create');
      t.deepEqual(writesSince(world, mark), [], 'nothing written meanwhile');
      s.advance(61_000);
      await s.settle(6);
      t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
      t.not(s.id(f.idField), theirs);
      t.is((await sceneOf(f).named(name)).length, 2, 'ours and theirs');
    },
  ],
  [
    'several candidates for adoption by name are refused',
    shared,
    async (t, f) => {
      const name = fresh(f);
      const a = await sceneOf(f).foreign(name);
      const b = await sceneOf(f).foreign(name);
      const s = subject(f, name, { adoption: { policy: 'ByName' } });
      const mark = callCount(world);
      await s.pass();
      assertSynced(t, s, 'AmbiguousName');
      t.regex(s.condition('Synced')!.message, new RegExp(`${a}.*${b}`));
      t.deepEqual(writesSince(world, mark), []);
    },
  ],
  [
    'adoption by name skips a resource another object claims',
    shared,
    async (t, f) => {
      const name = fresh(f);
      const claimedId = await sceneOf(f).foreign(name);
      const free = await sceneOf(f).foreign(name);
      const claims = new ClaimIndex();
      const other = objectOf(f.kind, `${name}-owner`, {
        adoption: { policy: 'ById', id: claimedId },
      });
      claims.set(
        f.kind,
        { ...other, metadata: { ...other.metadata, namespace: 'team-b' } },
        [{ type: f.kind, id: claimedId, recorded: true }],
        undefined,
      );
      const s = new Subject(world, { ...sceneOf(f).stage, claims }, name, {
        ...sceneOf(f).spec(name),
        adoption: { policy: 'ByName' },
      });
      await s.settle();
      t.is(s.id(f.idField), free);
    },
  ],
  [
    'observe-only: found by name, reported, nothing written, and deleting it makes no call',
    all,
    async (t, f) => {
      const name = fresh(f);
      const theirs = await sceneOf(f).foreign(name);
      const s = subject(f, name, { managementPolicy: 'Observe', adoption: { policy: 'ByName' } });
      const mark = callCount(world);
      await s.settle();
      t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
      t.is(s.condition('Synced')?.reason, 'ObserveOnly');
      t.is(s.id(f.idField), theirs);
      t.true(s.released(), 'no finalizer');
      await s.pass();
      t.deepEqual(writesSince(world, mark), [], 'observe is read-only, whatever the spec says');
      s.markDeleted();
      const deleting = callCount(world);
      await s.pass();
      t.is(callCount(world), deleting, 'no platform call while deleting');
      t.true(
        (await sceneOf(f).all()).some((r) => r.id === theirs),
        'still on the platform',
      );
    },
  ],
  [
    'observe-only: a missing id is reported, never created',
    all,
    async (t, f) => {
      const s = subject(f, fresh(f), {
        managementPolicy: 'Observe',
        adoption: { policy: 'ById', id: missingId(f) },
      });
      const mark = callCount(world);
      await s.pass();
      t.is(s.condition('Synced')?.status, 'False');
      t.is(s.condition('Ready')?.reason, 'NotFound');
      t.deepEqual(writesSince(world, mark), [], 'no create');
    },
  ],
];

for (const f of FIXTURES) {
  for (const [title, applies, run] of CASES) {
    if (!applies(f)) continue;
    test.serial(`${f.kind}: ${title}`, (t) => run(t, f));
  }
}

test.serial('nothing cdn-sim received was rejected by the documents', (t) => {
  t.is(world.sim.calls.snapshot().rejectedByDocument.count, 0);
});
