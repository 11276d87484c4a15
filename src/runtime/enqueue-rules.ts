/**
 * Which watch events enqueue a managed object, and in which lane. Status-only updates (most
 * of them our own status writes) and the runtime's own metadata writes (create-pending marker,
 * finalizer while alive) do not enqueue: the pass that wrote them already scheduled the next
 * one (otherwise every create would be followed by an extra pass, and an Unauthorized create
 * would be retried at once instead of on the periodic recheck). User changes go to the high lane, ahead of periodic drift checks.
 */
import { jsonEqual } from './merge-patch.js';
import { Annotation } from './reasons.js';
import type { Priority } from './workqueue.js';
import type { ManagedObject } from './types.js';

/** Lane for an update event, or undefined to ignore it. */
export function priorityForUpdate(oldObj: ManagedObject, obj: ManagedObject): Priority | undefined {
  const o = oldObj.metadata;
  const n = obj.metadata;
  const identityChanged =
    o.uid !== n.uid || o.generation !== n.generation || o.deletionTimestamp !== n.deletionTimestamp;
  if (identityChanged || metadataChanged(oldObj, obj)) return 'high';
  return undefined;
}

/** Annotations the runtime writes itself; changing them must not trigger another pass. */
const OWN_ANNOTATIONS = new Set<string>([Annotation.CreatePending, Annotation.CreatePendingSigned]);

function userAnnotations(a: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(a ?? {}).filter(([k]) => !OWN_ANNOTATIONS.has(k)));
}

function metadataChanged(oldObj: ManagedObject, obj: ManagedObject): boolean {
  const o = oldObj.metadata;
  const n = obj.metadata;
  if (!jsonEqual(userAnnotations(o.annotations), userAnnotations(n.annotations))) return true;
  if (!jsonEqual(o.labels ?? {}, n.labels ?? {})) return true;
  return Boolean(n.deletionTimestamp) && !jsonEqual(o.finalizers ?? [], n.finalizers ?? []);
}
