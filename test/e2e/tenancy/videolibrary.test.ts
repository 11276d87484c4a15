/**
 * A video library belongs to one namespace (issue 47), with two tenant namespaces on a real
 * apiserver, the real operator and cdn-sim: team-b naming team-a's library by its raw id
 * (`spec.adoption: {policy: ById}`) is refused with AlreadyManaged, writes nothing to the
 * library, never gets its keys (its outputs Secret is never written) and, deleted, deletes
 * nothing.
 */
import test from 'ava';
import { apply, deleteObject, getObject } from '../support/kube.js';
import {
  objectYaml,
  resetCalls,
  resourceOf,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from './setup.js';

const VL = resourceOf('VideoLibrary');
let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

test.serial(
  'VideoLibrary: another namespace cannot adopt it by raw id, change it or read its keys',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(
      objectYaml('VideoLibrary', teamA, 'videos', {
        captions: { fontSize: 22 },
        outputSecretRef: { name: 'videos-keys' },
      }),
    );
    const a = await waitCondition(VL, teamA, 'videos', 'Ready', 'True');
    const id = Number(a.status?.libraryId);
    await resetCalls(env.sim);
    await apply(
      objectYaml('VideoLibrary', teamB, 'videos', {
        adoption: { policy: 'ById', id },
        captions: { fontSize: 99 },
        deletionPolicy: 'Delete',
        outputSecretRef: { name: 'stolen-keys' },
      }),
    );
    await waitCondition(VL, teamB, 'videos', 'Synced', 'False', 'AlreadyManaged');
    await settle(2000);
    const toLibrary = async (): Promise<string[]> =>
      (await simWrites(env.sim))
        .filter((c) => c.path.startsWith(`/videolibrary/${id}`))
        .map((c) => `${c.method} ${c.path}`);
    t.deepEqual(await toLibrary(), [], 'the refused claimant writes nothing');
    t.is(env.sim.state.videoLibraries.get(id)?.CaptionsFontSize, 22);
    t.is(await getObject('secret', teamB, 'stolen-keys'), undefined, 'no keys for team-b');
    await deleteObject(VL, teamB, 'videos');
    await waitGone(VL, teamB, 'videos');
    t.deepEqual(await toLibrary(), [], 'deleting the refused claimant deletes nothing');
    t.true(env.sim.state.videoLibraries.has(id));
    await deleteObject(VL, teamA, 'videos');
    await waitGone(VL, teamA, 'videos');
  },
);
