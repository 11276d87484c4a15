/**
 * metav1.Condition merging: a condition's `lastTransitionTime` changes only when its status
 * changes, so rewriting the same condition is a no-op and status writes can be skipped.
 */
import { ConditionType } from './reasons.js';
import type { Condition, ManagedObject } from './types.js';

/** A condition without its transition time (filled in by {@link setCondition}). */
export type ConditionInput = Omit<Condition, 'lastTransitionTime'>;

/** Kubernetes limits a condition message to 32 KiB; we keep them much shorter. */
const MAX_MESSAGE = 1024;

/** Truncates a message to a size fit for a condition or an event note. */
export function truncateMessage(message: string, max = MAX_MESSAGE): string {
  return message.length <= max ? message : `${message.slice(0, max - 3)}...`;
}

/**
 * Returns a new condition list with `next` merged in: the transition time is kept when the
 * status is unchanged and set to `now` otherwise; other conditions keep their order.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionInput,
  now: Date,
): Condition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  const prev = i >= 0 ? list[i] : undefined;
  const merged: Condition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: truncateMessage(next.message),
    lastTransitionTime:
      prev && prev.status === next.status ? prev.lastTransitionTime : formatTime(now),
    ...(next.observedGeneration !== undefined
      ? { observedGeneration: next.observedGeneration }
      : {}),
  };
  if (i >= 0) list[i] = merged;
  else list.push(merged);
  return list;
}

/** Merges several conditions in order. */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  next: readonly ConditionInput[],
  now: Date,
): Condition[] {
  return next.reduce<Condition[]>((acc, c) => setCondition(acc, c, now), [...(conditions ?? [])]);
}

/** The condition of `type`, if present. */
export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the object's last pass succeeded: its Synced condition is True. */
export function lastPassSucceeded(obj: Pick<ManagedObject, 'status'>): boolean {
  return findCondition(obj.status?.conditions, ConditionType.Synced)?.status === 'True';
}

/** RFC 3339 with second precision, as Kubernetes stores metav1.Time. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
