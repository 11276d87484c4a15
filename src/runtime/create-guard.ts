/**
 * Duplicate-create guard. A create on the platform is not idempotent (two creates make two
 * pull zones), and the operator can crash between the create call and the status write that
 * records the new id. So before every create the runtime leaves a create-pending marker that
 * a later pass finds when no id was recorded: `ExternalContext.createPending` then tells the
 * kind's observe to look its own resource up by name before the runtime would ever create again.
 *
 * A marker makes the operator look a resource up by name and take it as its own (deletion
 * policy Delete), so a tenant must not be able to set one. Two forms, both unforgeable:
 *
 * - **Signed annotation** (the normal path, when the kind's client offers a `markerKey`):
 *   `<group>/create-pending: v1.<ms>.<account>.<mac>` where `mac` is an HMAC-SHA256 over
 *   (object uid, account fingerprint, time) keyed by a key derived from the account's API key
 *   (HKDF, see `markerKeyFor`). It goes into the same metadata write that adds the finalizer
 *   (resourceVersion precondition: a stale cache fails with 409 and nothing is created), so a
 *   create costs one metadata write and one status write (id, availability, conditions).
 *   Without the account's API key nobody can make a valid MAC; binding the uid makes a marker
 *   copied from another object (or from a deleted and re-created one) fail verification. A
 *   marker that fails verification is treated as absent and replaced by the next create's own.
 *   A create the platform refused records the marker's time in `status.ownership.createRefusedTime`
 *   (status, which tenants cannot write): a marker not newer than that is void, so a tenant
 *   who saved the value cannot replay it after the refusal. Once an id is recorded the marker is
 *   ignored; it stays on the object (removing it would cost a write) until a later create
 *   replaces it.
 * - **Status record** `status.ownership.createPendingTime` (kinds whose client has no `markerKey`,
 *   and objects marked by the previous version): written through the status subresource before
 *   the create, then the finalizer; three writes per create. The signed path writes it too,
 *   in the failure's status write, when a create got no answer (timeout, connection lost,
 *   cancelled): it needs no key, so a rotated API key cannot void it.
 *
 * Lifecycle: a marker covers one create. It is resolved by the create's answer (the id is
 * recorded), by a refusal (voided), by a later lookup that finds the resource (adopted), or —
 * only once the pending-create window has passed without a lookup finding it
 * (pending-create.ts) — presumed not to have happened and replaced by the next create's. While
 * it is pending no create is sent, so a late resource is never met by a second create (a
 * duplicate, or "name taken" by our own resource). A marker that names another account and
 * cannot be verified parks the object (`hasUnverifiableMarker`).
 *
 * The old annotation `<group>/external-create-pending` is ignored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ManagedKind, ManagedObject } from './types.js';
import { formatTime } from './conditions.js';
import { OWNERSHIP_FIELD, ownershipOf, type OwnershipStatus } from './claims-status.js';
import { withFinalizer } from './finalizer.js';
import { Annotation } from './reasons.js';

const MARKER_VERSION = 'v1';

/** The id recorded for the object: the spec's adoption id first, then the status field. */
export function recordedExternalId(
  kind: Pick<ManagedKind, 'idStatusField' | 'specExternalId'>,
  obj: ManagedObject,
): string | undefined {
  const fromSpec = kind.specExternalId?.(obj);
  if (fromSpec !== undefined && fromSpec !== '') return fromSpec;
  return statusRecordedId(kind, obj);
}

/**
 * The id the object's status records (what the operator created or adopted for it), never
 * the spec's: a deletion acts on this one only.
 */
export function statusRecordedId(
  kind: Pick<ManagedKind, 'idStatusField'>,
  obj: ManagedObject,
): string | undefined {
  const recorded = obj.status?.[kind.idStatusField];
  if (typeof recorded === 'string' && recorded !== '') return recorded;
  if (typeof recorded === 'number') return String(recorded);
  return undefined;
}

/** What verifies a signed marker: the account's marker key and fingerprint. */
export interface MarkerSigner {
  key: Uint8Array;
  account: string | undefined;
}

function macOf(signer: MarkerSigner, uid: string, ms: string): string {
  return createHmac('sha256', signer.key)
    .update(`cdn-operator/create-pending/${MARKER_VERSION}\n${uid}\n${signer.account ?? ''}\n${ms}`)
    .digest('base64url');
}

/**
 * The object's create token (see `ExternalContext.createToken`): 16 lowercase hex characters of
 * an HMAC-SHA256 over the object's uid and the account, under the marker key. Stable for the
 * object's life, unguessable without the account's API key, different for every object.
 */
export function createTokenFor(signer: MarkerSigner, uid: string): string {
  return createHmac('sha256', signer.key)
    .update(`cdn-operator/create-token/${MARKER_VERSION}\n${uid}\n${signer.account ?? ''}`)
    .digest('hex')
    .slice(0, 16);
}

/** A signed create-pending marker for `obj` (needs its uid) made at `now`. */
export function signMarker(signer: MarkerSigner, obj: ManagedObject, now: Date): string {
  const ms = String(now.getTime());
  const uid = obj.metadata.uid ?? '';
  return `${MARKER_VERSION}.${ms}.${signer.account ?? ''}.${macOf(signer, uid, ms)}`;
}

/**
 * The time (ms) of the object's signed marker when it verifies for this object (uid) and
 * account, and was not voided by a refused create; undefined otherwise.
 */
export function verifiedMarkerTime(
  obj: ManagedObject,
  signer: MarkerSigner | undefined,
): number | undefined {
  const value = obj.metadata.annotations?.[Annotation.CreatePendingSigned];
  const uid = obj.metadata.uid;
  if (!signer || typeof value !== 'string' || !uid) return undefined;
  const ms = signedTime(value, uid, signer);
  return ms === undefined || isVoided(ownershipOf(obj), ms) ? undefined : ms;
}

/** The time of a marker value made by `signer` for the object `uid`; undefined otherwise. */
function signedTime(value: string, uid: string, signer: MarkerSigner): number | undefined {
  const parsed = parseMarker(value);
  if (!parsed || parsed.account !== (signer.account ?? '')) return undefined;
  const want = Buffer.from(macOf(signer, uid, parsed.msText));
  const got = Buffer.from(parsed.mac);
  return want.length === got.length && timingSafeEqual(want, got) ? parsed.ms : undefined;
}

/**
 * The time (ms) of the latest create of the object whose outcome is not recorded: the status
 * record `status.ownership.createPendingTime` or a signed marker that verifies, whichever is newer;
 * undefined when neither is there.
 */
export function pendingCreateTime(
  obj: ManagedObject,
  signer: MarkerSigner | undefined,
): number | undefined {
  const record = Date.parse(ownershipOf(obj).createPendingTime ?? '');
  const marker = verifiedMarkerTime(obj, signer);
  const times = [Number.isNaN(record) ? undefined : record, marker].filter(
    (v): v is number => v !== undefined,
  );
  return times.length > 0 ? Math.max(...times) : undefined;
}

/**
 * True when the object carries a marker that names another account than `signer`'s and does
 * not verify, that no refused create voided and no status record covers: a create made with
 * the account's previous API key (rotated while the operator was down after sending it) may
 * have made the resource. Neither adopting by name (the marker cannot be told from a forged
 * one) nor creating again (a duplicate, or a name taken by our own resource) is safe, so the
 * runtime parks the object and says so. A forged marker can park only the forger's own object.
 */
export function hasUnverifiableMarker(
  obj: ManagedObject,
  signer: MarkerSigner | undefined,
): boolean {
  const value = obj.metadata.annotations?.[Annotation.CreatePendingSigned];
  if (!signer || typeof value !== 'string' || !obj.metadata.uid) return false;
  const ownership = ownershipOf(obj);
  if (ownership.createPendingTime !== undefined) return false;
  const parsed = parseMarker(value);
  if (!parsed || parsed.account === (signer.account ?? '')) return false;
  return !isVoided(ownership, parsed.ms);
}

/** True when a refused create recorded in `ownership` voids a marker made at `ms`. */
function isVoided(ownership: OwnershipStatus, ms: number): boolean {
  const refused = Date.parse(ownership.createRefusedTime ?? '');
  return !Number.isNaN(refused) && ms <= refused;
}

/** The parts of a well-formed marker value (not verified); undefined when malformed. */
function parseMarker(
  value: string,
): { ms: number; msText: string; account: string; mac: string } | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  const [version, msText, account, mac] = parts as [string, string, string, string];
  if (version !== MARKER_VERSION || !/^\d{1,15}$/.test(msText)) return undefined;
  return { ms: Number(msText), msText, account, mac };
}

/**
 * The status record written when a create's outcome is unknown (timeout, connection lost):
 * unlike the signed marker it needs no key, so the next pass honours it after an API key
 * rotation too.
 */
export function pendingRecord(ms: number): Record<string, unknown> {
  return { createPendingTime: new Date(ms).toISOString() };
}

/**
 * True when a create was started and its outcome (an id) was never recorded: a status record,
 * or a signed marker that verifies for this object.
 */
export function isCreatePending(
  obj: ManagedObject,
  externalId: string | undefined,
  signer?: MarkerSigner,
): boolean {
  if (externalId !== undefined) return false;
  return (
    ownershipOf(obj).createPendingTime !== undefined ||
    verifiedMarkerTime(obj, signer) !== undefined
  );
}

/**
 * The one metadata merge patch written before a create when the client can sign: the
 * finalizer and a fresh signed marker, with the cached resourceVersion as precondition.
 */
export function buildPendingMetadataPatch(
  obj: ManagedObject,
  signer: MarkerSigner,
  now: Date,
): Record<string, unknown> {
  return {
    metadata: {
      resourceVersion: obj.metadata.resourceVersion,
      finalizers: withFinalizer(obj.metadata.finalizers),
      annotations: { [Annotation.CreatePendingSigned]: signMarker(signer, obj, now) },
    },
  };
}

/**
 * The status merge patch written before a create by clients that cannot sign: a fresh
 * create-pending record (and the account it is made in), with the cached resourceVersion as
 * precondition (the apiserver answers 409 when stale).
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
        createPendingTime: formatTime(now),
        ...(account !== undefined ? { account } : {}),
      },
    },
  };
}

/** The status merge patch that clears the create-pending record. */
export function clearPendingPatch(): Record<string, unknown> {
  return { [OWNERSHIP_FIELD]: { createPendingTime: null } };
}
