/**
 * Which watch events enqueue a managed object, and in which lane. Status-only updates (most
 * of them our own status writes) and the runtime's own metadata writes (create-pending marker,
 * finalizer while alive) do not enqueue: the pass that wrote them already scheduled the next
 * one (otherwise every create would be followed by an extra pass, and an Unauthorized create
 * would be retried at once instead of on the periodic recheck).
 *
 * Lanes (workqueue.ts): a change to an object whose platform resource exists, or a deletion,
 * goes to `high`; a new object still to be created to `normal`, behind them, so that a burst
 * of creates never delays an update; an object listed at start-up that is already in sync for
 * its generation to `low`, with the drift checks.
 */
import { groupKey } from '../api-group.js';
import { findCondition } from './conditions.js';
import { recordedExternalId } from './create-guard.js';
import { jsonEqual } from './merge-patch.js';
import { Annotation, ConditionType } from './reasons.js';
import type { Priority } from './workqueue.js';
import type { ManagedKind, ManagedObject } from './types.js';

/** Lane of a user change to `obj`: `high` when it exists on the platform or is deleted. */
export function laneOfChange(kind: ManagedKind, obj: ManagedObject): Priority {
  if (obj.metadata.deletionTimestamp) return 'high';
  return recordedExternalId(kind, obj) !== undefined ? 'high' : 'normal';
}

/** Lane for an add event (a new object, or every object at start-up). */
export function priorityForAdd(kind: ManagedKind, obj: ManagedObject): Priority {
  const lane = laneOfChange(kind, obj);
  return lane === 'high' && isSettled(obj) ? 'low' : lane;
}

/** Synced=True for the current generation and not being deleted: nothing new to apply. */
function isSettled(obj: ManagedObject): boolean {
  if (obj.metadata.deletionTimestamp) return false;
  const synced = findCondition(obj.status?.conditions, ConditionType.Synced);
  return synced?.status === 'True' && synced.observedGeneration === obj.metadata.generation;
}

/**
 * Whether an update event enqueues, or undefined to ignore it: `high` for a change (refined by
 * {@link laneOfChange}), `normal` when only request annotations changed (`*-requested-at`: a
 * purge, a forced pass). A request is queued like a create, not with the changes, so a tenant
 * bumping them cannot crowd out anyone's updates (issue 28).
 */
export function priorityForUpdate(oldObj: ManagedObject, obj: ManagedObject): Priority | undefined {
  const o = oldObj.metadata;
  const n = obj.metadata;
  const identityChanged =
    o.uid !== n.uid || o.generation !== n.generation || o.deletionTimestamp !== n.deletionTimestamp;
  if (identityChanged || metadataChanged(oldObj, obj)) return 'high';
  if (!jsonEqual(requestAnnotations(o.annotations), requestAnnotations(n.annotations)))
    return 'normal';
  return undefined;
}

/** Annotations that each ask for one action when set to a new value (`<group>/*-requested-at`). */
function isRequestAnnotation(key: string): boolean {
  return key.startsWith(groupKey('')) && key.endsWith('-requested-at');
}

function requestAnnotations(a: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(a ?? {}).filter(([k]) => isRequestAnnotation(k)));
}

/** Annotations the runtime writes itself; changing them must not trigger another pass. */
const OWN_ANNOTATIONS = new Set<string>([Annotation.CreatePending, Annotation.CreatePendingSigned]);

/** Annotations a user changes to change the object (not the runtime's own, not requests). */
function userAnnotations(a: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(a ?? {}).filter(([k]) => !OWN_ANNOTATIONS.has(k) && !isRequestAnnotation(k)),
  );
}

function metadataChanged(oldObj: ManagedObject, obj: ManagedObject): boolean {
  const o = oldObj.metadata;
  const n = obj.metadata;
  if (!jsonEqual(userAnnotations(o.annotations), userAnnotations(n.annotations))) return true;
  if (!jsonEqual(o.labels ?? {}, n.labels ?? {})) return true;
  return Boolean(n.deletionTimestamp) && !jsonEqual(o.finalizers ?? [], n.finalizers ?? []);
}
