/**
 * Duplicate-create guard. A create on the platform is not idempotent (two creates make two
 * pull zones), and the operator can crash between the create call and the status write that
 * records the new id. So before every create the runtime persists, in one metadata write that
 * fails on a stale resourceVersion, the finalizer plus a create-pending annotation; right
 * after the create it records the id in status. On a later pass with a pending marker and no
 * id, `ExternalContext.createPending` tells the kind's observe to look the resource up by
 * name (and adopt it) before the runtime would ever create again.
 */
import { Annotation } from './reasons.js';
import { withFinalizer } from './finalizer.js';
import type { ManagedKind, ManagedObject } from './types.js';
import { formatTime } from './conditions.js';

/** The id recorded for the object: the spec's adoption id first, then the status field. */
export function recordedExternalId(kind: ManagedKind, obj: ManagedObject): string | undefined {
  const fromSpec = kind.specExternalId?.(obj);
  if (fromSpec !== undefined && fromSpec !== '') return fromSpec;
  const fromStatus = obj.status?.[kind.idStatusField];
  if (typeof fromStatus === 'string' && fromStatus !== '') return fromStatus;
  if (typeof fromStatus === 'number') return String(fromStatus);
  return undefined;
}

/** True when a create was started and its outcome (an id) was never recorded. */
export function isCreatePending(obj: ManagedObject, externalId: string | undefined): boolean {
  return externalId === undefined && Boolean(obj.metadata.annotations?.[Annotation.CreatePending]);
}

/**
 * The JSON merge patch written before a create: finalizer + fresh create-pending marker,
 * with the cached resourceVersion as precondition (the apiserver answers 409 when stale).
 */
export function buildPreCreatePatch(obj: ManagedObject, now: Date): Record<string, unknown> {
  return {
    metadata: {
      resourceVersion: obj.metadata.resourceVersion,
      finalizers: withFinalizer(obj.metadata.finalizers),
      annotations: { [Annotation.CreatePending]: formatTime(now) },
    },
  };
}
