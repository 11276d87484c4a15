/**
 * Which watch events enqueue a managed object, and in which lane. Status-only updates (most
 * of them our own status writes) do not enqueue: the pass that wrote them already scheduled
 * the next one. User changes go to the high lane, ahead of periodic drift checks.
 */
import { jsonEqual } from './merge-patch.js';
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

function metadataChanged(oldObj: ManagedObject, obj: ManagedObject): boolean {
  const o = oldObj.metadata;
  const n = obj.metadata;
  if (!jsonEqual(o.annotations ?? {}, n.annotations ?? {})) return true;
  if (!jsonEqual(o.labels ?? {}, n.labels ?? {})) return true;
  return Boolean(n.deletionTimestamp) && !jsonEqual(o.finalizers ?? [], n.finalizers ?? []);
}
