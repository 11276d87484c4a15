/**
 * Ownership, behind one collaborator of the reconciler: who may read, write and delete which
 * platform resource. The reconciler asks it at a few named points of a pass and nowhere else:
 *
 * - {@link Ownership.admit} after connect, before anything is read: the references by id the
 *   spec makes (a raw id is a reference, checked like a `*Ref`), then the claims (one owner per
 *   platform resource);
 * - {@link Ownership.admitFound} when observe found a resource by name, before any of its
 *   fields reach this object;
 * - {@link Ownership.lookups} for the kind's own lookups (a recovery skips claimed resources);
 * - {@link Ownership.record} for `status.ownership` after a successful pass;
 * - {@link Ownership.deletion} before a deletion touches the platform: only what this object
 *   provably owned is ever deleted (see {@link DeletionVerdict}).
 *
 * The rules themselves live in claims.ts (the index and who wins) and claims-policy.ts.
 */
import { ownershipOf, OWNERSHIP_FIELD, type OwnershipStatus } from './claims-status.js';
import type { ClaimIndex } from './claims.js';
import {
  alreadyManagedError,
  claimantsOfFn,
  claimedByOtherFn,
  claimsOfObject,
  claimsWithId,
  effectiveDeletionPolicy,
  findForeignReference,
  findRefusal,
  isAdopted,
  referenceNotAllowedError,
} from './claims-policy.js';
import { isObserveOnly, observedReferences } from './management-policy.js';
import { statusRecordedId } from './create-guard.js';
import { WaitingError } from './errors.js';
import { isDeleting } from './finalizer.js';
import { Annotation, ReadyReason } from './reasons.js';
import type { ClaimantRef } from './claims.js';
import type { ClaimRef, ExternalContext, ManagedKind, ManagedObject } from './types.js';

/** How soon an object waiting for another's create on the same resource looks again. */
const CREATE_WAIT_MS = 2_000;

function refOf(kind: ManagedKind, obj: ManagedObject): ClaimantRef {
  return { kind: kind.kind, namespace: obj.metadata.namespace, name: obj.metadata.name };
}

/**
 * What a deletion may do before it touches the platform:
 * - `orphan`: the policy (or dry-run) leaves the resource in place;
 * - `release`: let go without any platform call (`why` says so in an Event): the object was
 *   never accepted (no resource recorded in its status, no create of its own pending), or it
 *   is refused (a reference into another namespace, a resource another object manages);
 * - `proceed`: connect, observe and delete the resource its status records (or its own lost
 *   create, found with proof).
 */
export type DeletionVerdict =
  | { action: 'orphan' }
  | { action: 'release'; why: string; reason: 'Unaccepted' | 'Refused' }
  | { action: 'proceed' };

/** See the module comment. */
export class Ownership {
  constructor(
    private readonly kind: ManagedKind,
    private readonly index: ClaimIndex | undefined,
  ) {}

  /**
   * Refuses the object (a terminal error, nothing read or written on the platform) when its
   * spec names by id a resource managed from another namespace, or when another object holds
   * one of its claims (`connectClaims`: claims known only once connected). References come
   * first: a refused reference is reported as such, whatever else it collides with.
   */
  admit(obj: ManagedObject, connectClaims: readonly ClaimRef[], account: string | undefined): void {
    this.checkReferences(obj, account);
    if (isObserveOnly(obj)) return this.admitObserver(obj, claimsOfObject(this.kind, obj), account);
    const own = claimsOfObject(this.kind, obj);
    this.checkClaims(obj, [...own, ...connectClaims], account);
    // Admitted: what it claims once connected is entered in the index (not while deleting).
    if (this.index && !isDeleting(obj))
      this.index.setConnected(this.kind.kind, obj, own, connectClaims, account);
  }

  /**
   * Marks this object's create as acting on `claims` (those known once connected: a DNS
   * record's content); waits (WaitingError) while another object's create acts on one of
   * them, so two objects never both create one resource.
   */
  beginCreate(obj: ManagedObject, claims: readonly ClaimRef[]): void {
    if (!this.index || claims.length === 0) return;
    const holder = this.index.beginCreate(refOf(this.kind, obj), claims);
    if (!holder) return;
    throw new WaitingError(
      ReadyReason.CreatePending,
      `waiting: ${holder.kind} ${holder.namespace}/${holder.name} is creating the same platform resource; this object is checked again once that create is recorded`,
      CREATE_WAIT_MS,
    );
  }

  /** Drops this object's create marks (its create made nothing). */
  endCreate(obj: ManagedObject): void {
    this.index?.endCreate(refOf(this.kind, obj));
  }

  /** Refuses a resource found by name (`id`) that another object manages. */
  admitFound(obj: ManagedObject, id: string, account: string | undefined): void {
    if (isObserveOnly(obj))
      return this.admitObserver(obj, claimsWithId(this.kind, obj, id), account);
    this.checkClaims(obj, claimsWithId(this.kind, obj, id), account);
  }

  /**
   * An observe-only object holds no claim (the index keeps it as an observer: told when an
   * owner of its resource comes or goes, never a rival nor an owner; claims.ts), and what it
   * reads is checked like a raw id: a resource another namespace manages is refused.
   */
  private admitObserver(
    obj: ManagedObject,
    claims: readonly ClaimRef[],
    account: string | undefined,
  ): void {
    if (this.index && !isDeleting(obj))
      this.index.setConnected(this.kind.kind, obj, claims, [], account);
    const refs = observedReferences(
      this.kind,
      claims.filter((c) => c.shared !== true),
    );
    const foreign = findForeignReference(this.index, obj, refs, account);
    if (foreign) throw referenceNotAllowedError(foreign, obj.metadata.namespace);
  }

  /** `ctx.claimedByOther` and `ctx.claimantsOf` of this object. */
  lookups(
    obj: ManagedObject,
    account: string | undefined,
  ): Pick<ExternalContext, 'claimedByOther' | 'claimantsOf'> {
    // An observe-only object may find a resource another object manages (admitFound then
    // checks its namespace); it never creates, so it needs no view of other creates.
    if (isObserveOnly(obj)) return {};
    const claimedByOther = claimedByOtherFn(this.index, this.kind, obj, account);
    const claimantsOf = claimantsOfFn(this.index, this.kind, obj);
    return {
      ...(claimedByOther ? { claimedByOther } : {}),
      ...(claimantsOf ? { claimantsOf } : {}),
    };
  }

  /** True when the object adopted its resource (by spec id, or recorded as adopted). */
  isAdopted(obj: ManagedObject): boolean {
    return isAdopted(this.kind, obj);
  }

  /** `status.ownership` after a pass that succeeded (`adoptedByName`: this pass adopted). */
  record(obj: ManagedObject, account: string | undefined, adoptedByName: boolean): OwnershipStatus {
    const previous = ownershipOf(obj);
    const adopted = adoptedByName || this.isAdopted(obj);
    const known = account ?? previous.account;
    return {
      ...(known !== undefined ? { account: known } : {}),
      ...(previous.createRefusedTime !== undefined
        ? { createRefusedTime: previous.createRefusedTime }
        : {}),
      adopted,
      deletionPolicy: effectiveDeletionPolicy(this.kind, {
        ...obj,
        status: { ...obj.status, [OWNERSHIP_FIELD]: { adopted } },
      }),
    };
  }

  /**
   * What a deletion may do (see {@link DeletionVerdict}); `dryRun` deletes nothing. Decided
   * from the object alone (its status is the operator's own record), before any connect.
   */
  deletion(obj: ManagedObject, dryRun: boolean): DeletionVerdict {
    if (dryRun || effectiveDeletionPolicy(this.kind, obj) === 'Orphan') return { action: 'orphan' };
    if (!this.wasAccepted(obj)) {
      return {
        action: 'release',
        reason: 'Unaccepted',
        why: 'the operator never accepted this object (its status records no platform resource and no create of its own), so nothing on the platform is touched',
      };
    }
    const account = ownershipOf(obj).account;
    const refused = this.refusalOf(obj, account);
    return refused ? { action: 'release', reason: 'Refused', why: refused } : { action: 'proceed' };
  }

  /**
   * True when the object's status records its platform resource, or a create of its own may
   * have made one (a create-pending record, or a marker whose signature connect verifies).
   * A finalizer and a spec id alone prove nothing: a tenant can write both.
   */
  private wasAccepted(obj: ManagedObject): boolean {
    if (statusRecordedId(this.kind, obj) !== undefined) return true;
    if (ownershipOf(obj).createPendingTime !== undefined) return true;
    return typeof obj.metadata.annotations?.[Annotation.CreatePendingSigned] === 'string';
  }

  /** Why the object may not act on its resources now, or undefined when it may. */
  private refusalOf(obj: ManagedObject, account: string | undefined): string | undefined {
    try {
      this.checkReferences(obj, account);
      this.checkClaims(obj, claimsOfObject(this.kind, obj), account);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }

  private checkReferences(obj: ManagedObject, account: string | undefined): void {
    const refs = this.kind.idReferences?.(obj) ?? [];
    const foreign = findForeignReference(this.index, obj, refs, account);
    if (foreign) throw referenceNotAllowedError(foreign, obj.metadata.namespace);
  }

  private checkClaims(
    obj: ManagedObject,
    claims: readonly ClaimRef[],
    account: string | undefined,
  ): void {
    const refusal = findRefusal(this.index, this.kind, obj, claims, account);
    if (refusal) throw alreadyManagedError(refusal);
  }
}
