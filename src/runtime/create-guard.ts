/**
 * Duplicate-create guard. A create on the platform is not idempotent (two creates make two
 * pull zones), and the operator can crash between the create call and the status write that
 * records the new id. So before every create the runtime writes `status.ownership.createPending`
 * through the status subresource with the cached resourceVersion as precondition (a stale
 * cache fails with 409 and nothing is created), adds the finalizer, creates, and records the
 * id while clearing the marker in one status write. On a later pass with a pending marker and
 * no id, `ExternalContext.createPending` tells the kind's observe to look its own resource up
 * by name before the runtime would ever create again.
 *
 * The marker is kept in status, not in an annotation: a tenant who may edit the object may
 * normally not write its status, so a hand-set marker cannot make the operator look up (and
 * adopt) another team's resource. The old annotation `cdn.operator.io/external-create-pending`
 * is ignored.
 */
import type { ManagedKind, ManagedObject } from './types.js';
import { formatTime } from './conditions.js';
import { OWNERSHIP_FIELD, ownershipOf } from './claims-status.js';

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
  return externalId === undefined && ownershipOf(obj).createPending !== undefined;
}

/**
 * The status merge patch written before a create: a fresh create-pending marker (and the
 * account it is made in), with the cached resourceVersion as precondition (the apiserver
 * answers 409 when stale).
 */
export function buildPendingStatusPatch(
  obj: ManagedObject,
  now: Date,
  account: string | undefined,
): Record<string, unknown> {
  return {
    metadata: { resourceVersion: obj.metadata.resourceVersion },
    status: {
      [OWNERSHIP_FIELD]: {
        createPending: formatTime(now),
        ...(account !== undefined ? { account } : {}),
      },
    },
  };
}

/** The status merge patch that clears the create-pending marker. */
export function clearPendingPatch(): Record<string, unknown> {
  return { [OWNERSHIP_FIELD]: { createPending: null } };
}
