/**
 * The steps of moving one legacy object (docs/migration.md), each safe to repeat:
 * a. pause the legacy object and set its deletion policy to Orphan;
 * b. create the new object, paused;
 * c. write the new object's status (the ids the legacy object recorded), and hand the Secrets
 *    the legacy object controls to the new one (owned-secrets.ts); digests salted with the
 *    uid are computed again for the new uid (uid-digests.ts);
 * d. unpause the new object: the operator observes the resource by its recorded id;
 * e. wait until the new object is Ready;
 * f. delete the legacy object, releasing our finalizer (no controller serves its group).
 * Between a and f only the legacy object is stopped; the new one acts from d on: never two
 * objects acting on one platform resource.
 */
import type { KindModule } from '../../../controllers/kind-module.js';
import { Annotation, FINALIZER } from '../../../runtime/reasons.js';
import { isKubeStatus, type KubeClient } from '../../../runtime/kube-client.js';
import {
  getOrAbsent,
  legacyObjectPath,
  mergePatch,
  newObjectPath,
  type LiveObject,
} from './legacy-api.js';
import { handOverSecrets } from './owned-secrets.js';
import { rekeyUidDigests } from './uid-digests.js';
import { isUserPaused, newObjectOf, newStatusOf, pausePatchOf } from './new-object.js';

/** A legacy object being moved, and the new object once created. */
export interface Move {
  kind: KindModule;
  old: LiveObject;
  created?: LiveObject;
}

const POLL_MS = 1_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Steps a to d; resumes a move a previous run began (`existing`: the new object found). */
export async function startMove(
  kube: KubeClient,
  move: Move,
  existing: LiveObject | undefined,
): Promise<void> {
  const { kind } = move;
  move.old = await mergePatch(kube, legacyObjectPath(kind, move.old), pausePatchOf(kind, move.old));
  const path = newObjectPath(kind, move.old);
  let created = existing;
  if (!created) {
    const collection = path.slice(0, path.lastIndexOf('/'));
    created = await kube.request<LiveObject>({
      method: 'POST',
      path: collection,
      body: newObjectOf(kind, move.old),
    });
  }
  const userPaused = isUserPaused(move.old);
  // The status is ours to write while the new object is paused; once unpaused, the operator's.
  if (created.metadata.annotations?.[Annotation.Paused] === 'true') {
    const status = newStatusOf(kind, move.old);
    await rekeyUidDigests(kube, move.old, created, status);
    created = await mergePatch(kube, `${path}/status`, { status });
    await handOverSecrets(kube, move.old, created);
    if (!userPaused) {
      created = await mergePatch(kube, path, {
        metadata: { annotations: { [Annotation.Paused]: null } },
      });
    }
  }
  move.created = created;
}

type Condition = { type: string; status: string; reason?: string; message?: string };

/** The Ready condition of an object, if any. */
function readyOf(obj: LiveObject | undefined): Condition | undefined {
  const conditions = (obj?.status?.conditions ?? []) as Condition[];
  return conditions.find((c) => c.type === 'Ready');
}

/**
 * Step e: resolves when the new object is Ready (a paused one, left paused by its user, is
 * done once its status is written); otherwise the last Ready condition, as a reason, at the
 * deadline (a monotonic clock).
 */
export async function waitReady(
  kube: KubeClient,
  move: Move,
  deadline: number,
): Promise<string | undefined> {
  if (isUserPaused(move.old)) return undefined;
  const path = newObjectPath(move.kind, move.old);
  for (;;) {
    const obj = await getOrAbsent(kube, path);
    const ready = readyOf(obj);
    if (ready?.status === 'True') {
      move.created = obj;
      return undefined;
    }
    if (performance.now() >= deadline) {
      if (!obj) return 'the new object is gone';
      return ready
        ? `not Ready: ${ready.reason ?? ''}: ${ready.message ?? ''}`
        : 'no Ready condition yet (is the new operator running and watching this namespace?)';
    }
    await sleep(POLL_MS);
  }
}

/**
 * Step f: deletes the legacy object and waits until it is gone. No controller serves the
 * legacy group any more, so the operator's finalizer is removed here, and only once the
 * deletion policy Orphan is recorded (the finalizer's holder would have released the resource
 * too). Another party's finalizer is left alone: its holder finishes the deletion.
 */
export async function deleteLegacy(
  kube: KubeClient,
  move: Move,
  deadline: number,
): Promise<string | undefined> {
  const path = legacyObjectPath(move.kind, move.old);
  const current = await getOrAbsent(kube, path);
  if (!current) return undefined;
  if (move.kind.controller && current.spec?.deletionPolicy !== 'Orphan') {
    return 'the old object lost its deletionPolicy Orphan; run cdnctl migrate --live again';
  }
  await kube.request({ method: 'DELETE', path }).catch((err: unknown) => {
    if (!isKubeStatus(err, 404)) throw err;
  });
  for (;;) {
    const obj = await getOrAbsent(kube, path);
    if (!obj) return undefined;
    const finalizers = obj.metadata.finalizers ?? [];
    if (finalizers.includes(FINALIZER)) {
      await mergePatch(kube, path, {
        metadata: {
          resourceVersion: obj.metadata.resourceVersion,
          finalizers: finalizers.filter((f) => f !== FINALIZER),
        },
      }).catch((err: unknown) => {
        if (!isKubeStatus(err, 404) && !isKubeStatus(err, 409)) throw err;
      });
      continue;
    }
    if (performance.now() >= deadline) {
      return `the old object is still there, held by finalizers ${finalizers.join(', ')}`;
    }
    await sleep(POLL_MS);
  }
}
