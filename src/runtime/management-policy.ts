/**
 * Observe-only objects (`spec.managementPolicy: Observe`, Crossplane's `managementPolicies:
 * [Observe]`): the object finds its platform resource the way adoption does (`spec.adoption`,
 * by id or by name), reports it in status and is a reference target like any other object —
 * and the runtime never creates, updates or deletes anything for it, adds no finalizer, and
 * enters no claim in the claim index, so it never holds a resource against an object that
 * manages it.
 *
 * What it may read is still bounded like a raw id: a resource managed by an object of another
 * namespace is refused (`ReferenceNotAllowed`), so that observing cannot leak another tenant's
 * resource into a status, nor make it a `*Ref` target in this namespace.
 */
import type { ClaimRef, IdReference, ManagedKind, ManagedObject } from './types.js';

/** `spec.managementPolicy` value of an observe-only object. */
export const MANAGEMENT_POLICY_OBSERVE = 'Observe';

/** `spec.managementPolicy` value of a managed object (the default when unset). */
export const MANAGEMENT_POLICY_MANAGE = 'Manage';

/** True when the object only observes its platform resource. */
export function isObserveOnly(obj: ManagedObject): boolean {
  return obj.spec?.managementPolicy === MANAGEMENT_POLICY_OBSERVE;
}

/**
 * The resources an observe-only object reads, as references by id (checked like a raw id in a
 * spec): its kind's default claim type with the id found or recorded.
 */
export function observedReferences(
  kind: Pick<ManagedKind, 'kind' | 'idStatusField'>,
  claims: readonly ClaimRef[],
): IdReference[] {
  return claims.map((c) => ({
    field: c.recorded ? `status.${kind.idStatusField}` : 'spec.adoption',
    type: c.type,
    id: c.id,
  }));
}
