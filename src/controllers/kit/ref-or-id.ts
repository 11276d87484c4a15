/**
 * A spec naming another kind's platform resource, written once: either a `*Ref` to an object
 * of the same namespace, whose status holds the id (read from the informer cache), or the raw
 * id, which the runtime checks like a reference (`ReferenceNotAllowed` when another namespace
 * manages the resource: {@link idReferenceOf}). Exactly one of the two. While the referenced
 * object is missing or has no id yet the object waits (`ReferenceNotReady`; the runtime's
 * reference watch re-enqueues it when that object changes); an object of another account is
 * refused. A kind gives each of its references as data ({@link RefOrId}).
 */
import { lastPassSucceeded } from '../../runtime/conditions.js';
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isObserveOnly } from '../../runtime/management-policy.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectContext,
  IdReference,
  ManagedObject,
  ObjectReference,
} from '../../runtime/types.js';
import { typeMetaOf, type KindNames } from '../kind-names.js';
import type { PlanContext } from '../shared/manifest-plan.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { parseIntegerId } from '../shared/platform-id.js';

/** What {@link resolveNamedRef} reads: the spec field of the `*Ref` and the status id field. */
export interface NamedRef {
  /** Spec path of the `*Ref`, below `spec.` (`zoneRef`, `edgeRules[a].action.scriptRef`). */
  readonly ref: string;
  /** Status field of the referenced object that holds the id (`dnsZoneId`). */
  readonly statusId: string;
}

/** One reference of a kind. */
export interface RefOrId extends NamedRef {
  /** Spec field naming the object (`zoneRef`, holding `{name}`). */
  readonly ref: string;
  /** Spec field of the raw id (`dnsZoneId`). */
  readonly id: string;
  /** The referenced kind. */
  readonly kind: Pick<KindNames, 'kind' | 'family'>;
  /** Claim type of the referenced resource (the raw id is checked against it). */
  readonly claimType: string;
}

/**
 * The object of `kind` in `obj`'s namespace that the spec field `ref` (`{name}`) names, if the
 * spec sets it; also for a reference without a raw-id alternative (`storageZoneRef`).
 */
export function namedRefOf(
  obj: ManagedObject,
  ref: string,
  kind: Pick<KindNames, 'kind' | 'family'>,
): ObjectReference | undefined {
  const name = (obj.spec?.[ref] as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || name === '') return undefined;
  return { ...typeMetaOf(kind), namespace: obj.metadata.namespace, name };
}

/** The object the `*Ref` names, if the spec sets it. */
export function objectRefOf(obj: ManagedObject, r: RefOrId): ObjectReference | undefined {
  return namedRefOf(obj, r.ref, r.kind);
}

/** The raw id as the runtime checks it, if the spec sets one. */
export function idReferenceOf(obj: ManagedObject, r: RefOrId): IdReference | undefined {
  const id = parseIntegerId(obj.spec?.[r.id]);
  return id === undefined
    ? undefined
    : { field: `spec.${r.id}`, type: r.claimType, id: String(id) };
}

function accountOf(o: ManagedObject): unknown {
  return (o.status?.ownership as { account?: unknown } | undefined)?.account;
}

/**
 * The platform id in `field` of the status of a referenced object, or undefined while it has
 * none. An observe-only object whose last pass did not succeed (e.g. refused because its
 * resource is managed from another namespace) keeps the id it saw: that id is not used.
 */
export function statusIdOf(found: ManagedObject | undefined, field: string): number | undefined {
  if (!found) return undefined;
  if (isObserveOnly(found) && !lastPassSucceeded(found)) return undefined;
  return parseIntegerId(found.status?.[field]);
}

/**
 * The object a `*Ref` names and the id its status holds: a WaitingError (ReferenceNotReady)
 * while it is missing or has no id yet, InvalidSpec when it lives in another account than
 * `account` (the referring object's).
 */
export function resolveNamedRef(
  obj: ManagedObject,
  r: NamedRef,
  ref: ObjectReference,
  getObject: ConnectContext['getObject'],
  account: string,
): { id: number; object: ManagedObject } {
  const found = getObject(ref);
  const id = statusIdOf(found, r.statusId);
  const named = `${ref.kind} ${ref.namespace}/${ref.name}`;
  if (!found || id === undefined) {
    const why = found ? `has no status.${r.statusId} yet` : 'was not found';
    throw new WaitingError(
      ReadyReason.ReferenceNotReady,
      `cannot resolve spec.${r.ref}: ${named} ${why}`,
    );
  }
  assertSameAccount(obj, found, `spec.${r.ref}: ${named}`, account);
  return { id, object: found };
}

/**
 * Refuses (InvalidSpec) a referenced object `found` that lives in another account than
 * `account` (the referring object's); `what` names the spec field and the object
 * (`spec.zoneRef: DnsZone ns/name`).
 */
export function assertSameAccount(
  obj: ManagedObject,
  found: ManagedObject,
  what: string,
  account: string,
): void {
  const theirs = accountOf(found);
  if (typeof theirs !== 'string' || theirs === account) return;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot use ${what} lives in another account than this ${obj.kind} (use the same accountRef or credentialsRef on both)`,
  );
}

/** The platform id the spec names (see the module comment); `account`: the object's. */
export function resolveRefOrId(
  obj: ManagedObject,
  r: RefOrId,
  getObject: ConnectContext['getObject'],
  account: string,
): number {
  const ref = objectRefOf(obj, r);
  const raw = obj.spec?.[r.id];
  if ((ref === undefined) === (raw === undefined)) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot resolve spec.${r.ref}: set exactly one of spec.${r.ref} and spec.${r.id}`,
    );
  }
  if (ref) return resolveNamedRef(obj, r, ref, getObject, account).id;
  const id = parseIntegerId(raw);
  if (id !== undefined) return id;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot resolve spec.${r.id} ${JSON.stringify(raw)}: expected a positive integer`,
  );
}

/**
 * The informer cache as `cdnctl diff` sees it (no cluster): the manifests compared in the same
 * run, each with the id its spec adopts (`spec.adoption.id`) standing in for the status id the operator reads.
 */
export function manifestObjects(
  ctx: PlanContext,
  refs: readonly RefOrId[],
): ConnectContext['getObject'] {
  return (ref) => {
    const r = refs.find((x) => x.kind.kind === ref.kind);
    const found = ctx.objectsOf(ref.kind).find((o) => o.metadata.name === ref.name);
    if (r === undefined || found === undefined) return undefined;
    const id = parseIntegerId(adoptionIdOf(found.spec));
    return { ...found, status: id === undefined ? {} : { [r.statusId]: id } };
  };
}
