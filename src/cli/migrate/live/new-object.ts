/**
 * What `cdnctl migrate --live` writes, as pure functions of the legacy object: the annotations
 * that mark its progress (so a second run resumes instead of starting over), the object of the
 * family group that takes it over, and that object's status.
 */
import { groupKey } from '../../../api-group.js';
import type { KindModule } from '../../../controllers/kind-module.js';
import { apiVersionOf } from '../../../controllers/kind-names.js';
import { Annotation } from '../../../runtime/reasons.js';
import { applyFieldMoves, FIELD_MOVES, plainStore, type FieldMoveTable } from '../field-moves.js';
import type { LiveObject } from './legacy-api.js';

/** On the new object: the uid of the legacy object it took over (its proof on a re-run). */
export const MIGRATED_FROM = groupKey('migrated-from');
/** On the legacy object: whether the user had paused it (`"true"`/`"false"`) before migrate did. */
export const WAS_PAUSED = groupKey('migrate-was-paused');
/** On the legacy object: its `spec.deletionPolicy` before migrate set Orphan (`""`: unset). */
export const WAS_DELETION_POLICY = groupKey('migrate-deletion-policy');
/** kubectl's copy of the last applied manifest: of the legacy apiVersion, so not carried over. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Status members a pass of the new object writes afresh, never copied. */
const PASS_STATUS = new Set(['conditions', 'observedGeneration']);

const MIGRATE_MARKS = [WAS_PAUSED, WAS_DELETION_POLICY];

/** True when the user (not migrate) paused the legacy object. */
export function isUserPaused(old: LiveObject): boolean {
  const marked = old.metadata.annotations?.[WAS_PAUSED];
  if (marked !== undefined) return marked === 'true';
  return old.metadata.annotations?.[Annotation.Paused] === 'true';
}

/** The user's `spec.deletionPolicy` of the legacy object (undefined: unset). */
export function userDeletionPolicy(old: LiveObject): string | undefined {
  const marked = old.metadata.annotations?.[WAS_DELETION_POLICY];
  if (marked !== undefined) return marked === '' ? undefined : marked;
  const policy = old.spec?.deletionPolicy;
  return typeof policy === 'string' ? policy : undefined;
}

/**
 * Step a: the merge patch that stops every controller acting on the legacy object (paused) and
 * makes its deletion release the platform resource (Orphan; a kind with no platform resource
 * has no policy), recording what the user had.
 */
export function pausePatchOf(kind: KindModule, old: LiveObject): Record<string, unknown> {
  const annotations = {
    [Annotation.Paused]: 'true',
    [WAS_PAUSED]: String(isUserPaused(old)),
    [WAS_DELETION_POLICY]: userDeletionPolicy(old) ?? '',
  };
  return {
    metadata: { annotations },
    ...(kind.controller ? { spec: { deletionPolicy: 'Orphan' } } : {}),
  };
}

/** The legacy object's spec and status with the kind's field moves applied (copies). */
export function movedFields(
  kind: KindModule,
  old: LiveObject,
  moves: FieldMoveTable = FIELD_MOVES,
): { spec: Record<string, unknown>; status: Record<string, unknown> } {
  const copy = structuredClone({ spec: old.spec ?? {}, status: old.status ?? {} });
  applyFieldMoves(plainStore(copy), moves[kind.kind] ?? []);
  return copy;
}

/** The annotations of the new object: the user's, plus the migration's proof and pause. */
function annotationsOf(old: LiveObject): Record<string, string> {
  const kept = Object.entries(old.metadata.annotations ?? {}).filter(
    ([k]) => k !== LAST_APPLIED && k !== Annotation.Paused && !MIGRATE_MARKS.includes(k),
  );
  return {
    ...Object.fromEntries(kept),
    [MIGRATED_FROM]: old.metadata.uid ?? '',
    // Created paused: no pass runs before its status carries the resource's ids.
    [Annotation.Paused]: 'true',
  };
}

/** Step b: the object of the family group, created paused, spec moved, same name and labels. */
export function newObjectOf(
  kind: KindModule,
  old: LiveObject,
  moves: FieldMoveTable = FIELD_MOVES,
): LiveObject {
  const { spec } = movedFields(kind, old, moves);
  const policy = userDeletionPolicy(old);
  if (kind.controller) {
    if (policy === undefined) delete spec.deletionPolicy;
    else spec.deletionPolicy = policy;
  }
  const { name, namespace, labels } = old.metadata;
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(labels ? { labels } : {}),
      annotations: annotationsOf(old),
    },
    spec,
  };
}

/**
 * Step c: the new object's status, the legacy one's moved: the ids, `status.ownership` (who
 * created or adopted the resource, so the deletion policy in force is unchanged) and every
 * kind-specific record, without the conditions and generation a pass writes.
 */
export function newStatusOf(
  kind: KindModule,
  old: LiveObject,
  moves: FieldMoveTable = FIELD_MOVES,
): Record<string, unknown> {
  const { status } = movedFields(kind, old, moves);
  return Object.fromEntries(Object.entries(status).filter(([k]) => !PASS_STATUS.has(k)));
}

/** Why the legacy object cannot be moved safely, if it cannot. */
export function refusalOf(old: LiveObject, existing: LiveObject | undefined): string | undefined {
  const ownership = old.status?.ownership as { createPending?: unknown } | undefined;
  if (existing && existing.metadata.annotations?.[MIGRATED_FROM] !== old.metadata.uid) {
    return `a ${existing.kind} ${existing.apiVersion} with this name exists and was not created by cdnctl migrate from this object; rename or delete one of them`;
  }
  if (existing) return undefined;
  if (ownership?.createPending !== undefined) {
    return 'a create of the old operator is pending (status.ownership.createPending): its outcome is unknown, so the new object could not recognise the resource; let the old operator finish, or delete the object';
  }
  if (old.metadata.deletionTimestamp) return 'it is being deleted';
  return undefined;
}

/** The platform ids the status records (`pullZoneId=123`), for the report. */
export function idsOf(status: Record<string, unknown> | undefined): string {
  const ids = Object.entries(status ?? {}).filter(
    ([k, v]) => /Id$/.test(k) && (typeof v === 'string' || typeof v === 'number'),
  );
  return ids.map(([k, v]) => `${k}=${String(v)}`).join(' ');
}
