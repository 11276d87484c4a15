/**
 * Ownership rules on top of the claim index (claims.ts): which resources an object claims,
 * the `status.ownership` record the runtime keeps, the effective deletion policy and the
 * refusal of a second claimant.
 *
 * `status.ownership` (claims-status.ts) lives in the status subresource on purpose: tenants who may edit an
 * object normally may not write its status, so nothing in it can be forged to make the
 * operator adopt or delete someone else's resource.
 */
import { claimantOf, type Claimant, type ClaimIndex } from './claims.js';
import { recordedExternalId } from './create-guard.js';
import { TerminalError } from './errors.js';
import { SyncedReason } from './reasons.js';
import type { ClaimHolder, ClaimRef, IdReference, ManagedKind, ManagedObject } from './types.js';
import { ownershipOf } from './claims-status.js';
import { isObserveOnly } from './management-policy.js';

/** Synced reason of an object refused because another object manages the resource. */
export const AlreadyManaged = SyncedReason.AlreadyManaged;

/** Synced reason of an object whose spec names by id a resource managed from elsewhere. */
export const ReferenceNotAllowed = SyncedReason.ReferenceNotAllowed;

/** The claims of an object: the kind's own, else its recorded id under claim type `kind`. */
export function claimsOfObject(kind: ManagedKind, obj: ManagedObject): ClaimRef[] {
  if (kind.claimsOf) return kind.claimsOf(obj);
  return defaultClaimsOf(kind, obj);
}

/**
 * The claim every kind has unless it declares its own: the id in the spec or recorded in
 * status, under claim type `kind` (recorded when the status holds it). A kind that adds claims
 * of its own starts from this.
 */
export function defaultClaimsOf(
  kind: Pick<ManagedKind, 'kind' | 'idStatusField' | 'specExternalId'>,
  obj: ManagedObject,
): ClaimRef[] {
  const id = recordedExternalId(kind, obj);
  if (id === undefined) return [];
  const stored = obj.status?.[kind.idStatusField];
  const recorded =
    (typeof stored === 'string' || typeof stored === 'number') && String(stored) === id;
  return [{ type: kind.kind, id, recorded }];
}

/** True when the object adopted its resource: an id in the spec, or recorded as adopted. */
export function isAdopted(kind: ManagedKind, obj: ManagedObject): boolean {
  if (isObserveOnly(obj)) return true;
  return kind.specExternalId?.(obj) !== undefined || ownershipOf(obj).adopted === true;
}

/**
 * The deletion policy in force. There is deliberately no schema default for
 * `spec.deletionPolicy`: an adopted resource is left in place unless the spec asks for
 * Delete explicitly.
 */
export function effectiveDeletionPolicy(kind: ManagedKind, obj: ManagedObject): string {
  // An observe-only object never deletes, whatever its spec says.
  if (isObserveOnly(obj)) return 'Orphan';
  const explicit = obj.spec?.deletionPolicy;
  if (typeof explicit === 'string' && explicit !== '') return explicit;
  return isAdopted(kind, obj) ? 'Orphan' : 'Delete';
}

/** A claim held by another object, with that object. */
export interface Refusal {
  claim: ClaimRef;
  owner: Claimant;
}

/**
 * The first claim of `obj` that another object holds, or undefined when every claim is free.
 * A claim only asked for in the spec of another namespace does not count against `obj` when
 * it names a resource `obj` references by id and that is managed in `obj`'s namespace: that
 * namespace may not use the resource at all (ReferenceNotAllowed), so its older claim must not
 * keep the owner's namespace from it (e.g. team-b's ShieldPolicy naming team-a's zone by id
 * before team-a puts its own policy on it).
 */
export function findRefusal(
  index: ClaimIndex | undefined,
  kind: ManagedKind,
  obj: ManagedObject,
  claims: readonly ClaimRef[],
  account: string | undefined,
): Refusal | undefined {
  if (!index) return undefined;
  const home = homeIds(index, kind, obj, account);
  const ns = obj.metadata.namespace;
  for (const claim of claims) {
    // A shared claim is information for other kinds, never a hold on the resource.
    if (claim.shared === true) continue;
    // Another namespace's spec-only claim on a resource managed here does not count.
    const counts = (other: Claimant): boolean =>
      other.recorded || other.namespace === ns || !home.has(claim.id);
    const owner = index.rivalOf(claimantOf(kind.kind, obj, claim, account), claim, counts);
    if (owner) return { claim, owner };
  }
  return undefined;
}

/** Ids `obj` references by id (idReferences) whose resource is managed in its own namespace. */
function homeIds(
  index: ClaimIndex,
  kind: ManagedKind,
  obj: ManagedObject,
  account: string | undefined,
): Set<string> {
  const ids = new Set<string>();
  for (const ref of kind.idReferences?.(obj) ?? []) {
    if (index.ownerOf(ref, account)?.namespace === obj.metadata.namespace) ids.add(ref.id);
  }
  return ids;
}

/** The terminal error of a refused claimant; names the owner, never a secret. */
export function alreadyManagedError(r: Refusal): TerminalError {
  const { claim, owner } = r;
  return new TerminalError(
    AlreadyManaged,
    `cannot manage ${claim.type} ${claim.id}: it is already managed by ${owner.kind} ${owner.namespace}/${owner.name}; nothing is written to it from this object (use another resource, or delete the other object first)`,
  );
}

/** Builds `ctx.claimedByOther` for one object and account. */
export function claimedByOtherFn(
  index: ClaimIndex | undefined,
  kind: ManagedKind,
  obj: ManagedObject,
  account: string | undefined,
): ((type: string, id: string) => boolean) | undefined {
  if (!index) return undefined;
  return (type, id) =>
    index.rivalOf(claimantOf(kind.kind, obj, { type, id, recorded: false }, account), {
      type,
      id,
    }) !== undefined;
}

/**
 * Builds `ctx.claimantsOf` for one object: every other claimant, winner or not, of any account
 * (an account unknown to the lookup overlaps all of them; see `ExternalContext.claimantsOf`).
 */
export function claimantsOfFn(
  index: ClaimIndex | undefined,
  kind: ManagedKind,
  obj: ManagedObject,
): ((type: string, id: string) => readonly ClaimHolder[]) | undefined {
  if (!index) return undefined;
  const { namespace, name } = obj.metadata;
  return (type, id) =>
    index
      .claimantsOf({ type, id }, undefined)
      .filter((c) => !(c.kind === kind.kind && c.namespace === namespace && c.name === name))
      .map((c) => ({ kind: c.kind, namespace: c.namespace, name: c.name, recorded: c.recorded }));
}

/** The claims `obj` would make once `id` is recorded as its external id. */
export function claimsWithId(kind: ManagedKind, obj: ManagedObject, id: string): ClaimRef[] {
  const withId: ManagedObject = {
    ...obj,
    status: { ...obj.status, [kind.idStatusField]: id },
  };
  return claimsOfObject(kind, withId).map((c) => ({ ...c, recorded: false }));
}

/** A reference by id to a resource that an object in another namespace manages. */
export interface ForeignReference {
  ref: IdReference;
  owner: Claimant;
}

/**
 * The first of `refs` that names a resource managed from another namespace than `obj`'s, or
 * undefined when each is unclaimed or managed in the same namespace. A raw id is a reference:
 * it may not reach what a `*Ref` (always resolved in the object's own namespace) cannot. There
 * is no admin-granted exception: an id another namespace manages is refused for every tenant.
 */
export function findForeignReference(
  index: ClaimIndex | undefined,
  obj: ManagedObject,
  refs: readonly IdReference[],
  account: string | undefined,
): ForeignReference | undefined {
  if (!index) return undefined;
  for (const ref of refs) {
    const owner = index.ownerOf(ref, account);
    if (owner && owner.namespace !== obj.metadata.namespace) return { ref, owner };
  }
  return undefined;
}

/** The terminal error of a reference by id into another namespace; names field, id and namespace. */
export function referenceNotAllowedError(f: ForeignReference, namespace: string): TerminalError {
  const { ref, owner } = f;
  return new TerminalError(
    ReferenceNotAllowed,
    `cannot use ${ref.field} ${ref.id}: ${ref.type} ${ref.id} is managed by an object in namespace ${owner.namespace}, and an id in the spec may only name a resource that no object manages or one managed in this namespace (${namespace}); nothing is sent to the platform for this object (use a resource of this namespace, by reference where the spec offers one)`,
  );
}
