/**
 * Finalizer rules as pure functions. The finalizer is added (together with the create-pending
 * marker) before the first create, and removed only when deletion is confirmed: a later
 * observe says the external resource no longer exists, or `deletionPolicy: Orphan`.
 * It is never removed in a `finally` or after an error.
 */
import { FINALIZER } from './reasons.js';
import type { ManagedObject } from './types.js';

/** True when the object carries the runtime's finalizer. */
export function hasFinalizer(obj: ManagedObject): boolean {
  return obj.metadata.finalizers?.includes(FINALIZER) ?? false;
}

/** The finalizer list with ours added (unchanged order, no duplicate). */
export function withFinalizer(finalizers: readonly string[] | undefined): string[] {
  const list = [...(finalizers ?? [])];
  if (!list.includes(FINALIZER)) list.push(FINALIZER);
  return list;
}

/** The finalizer list without ours. */
export function withoutFinalizer(finalizers: readonly string[] | undefined): string[] {
  return (finalizers ?? []).filter((f) => f !== FINALIZER);
}

/** True when the object is being deleted. */
export function isDeleting(obj: ManagedObject): boolean {
  return Boolean(obj.metadata.deletionTimestamp);
}

/** True when `spec.deletionPolicy` is `Orphan` (leave the external resource in place). */
export function isOrphanPolicy(obj: ManagedObject): boolean {
  return obj.spec?.deletionPolicy === 'Orphan';
}

/** What to do with a deleting object after (or instead of) an observe. */
export type DeletionStep =
  /** Nothing of ours to do (our finalizer is already gone). */
  | 'none'
  /** Remove the finalizer without touching the platform. */
  | 'orphan'
  /** The external resource is confirmed gone: remove the finalizer. */
  | 'remove-finalizer'
  /** Call delete and come back to confirm. */
  | 'delete';

/**
 * Decides the deletion step. `externallyExists` is the result of the latest observe
 * (undefined when no observe was made yet, which never allows removing the finalizer).
 */
export function decideDeletion(
  obj: ManagedObject,
  externallyExists: boolean | undefined,
  dryRun = false,
): DeletionStep {
  if (!hasFinalizer(obj)) return 'none';
  if (isOrphanPolicy(obj) || dryRun) return 'orphan';
  if (externallyExists === false) return 'remove-finalizer';
  return 'delete';
}
