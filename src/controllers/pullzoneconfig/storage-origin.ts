/**
 * `spec.storageZoneRef`: a PullZoneConfig that serves the files of a StorageZone in its
 * namespace. The reference becomes two managed settings, `OriginType: StorageZone` and
 * `StorageZoneId: <the StorageZone's status.storageZoneId>`, added to the spec's settings before
 * the external client sees the object, so the diff, the create body and the plan treat them like
 * any other setting. While the StorageZone is missing or has no id yet the object waits
 * (ReferenceNotReady); the runtime's reference watch re-enqueues it when the StorageZone changes.
 */
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type { ConnectContext, ExternalClient, ObjectReference } from '../../runtime/types.js';
import { namedRefOf, resolveNamedRef } from '../kit/ref-or-id.js';
import { withMappedObject } from './mapped-external.js';
import { STORAGE_ZONE_NAMES } from '../storagezone/types.js';
import type { PullZoneConfig } from './types.js';

/** The origin settings a StorageZone reference stands for. */
export interface StorageOrigin {
  storageZoneId: number;
}

/** The StorageZone a PullZoneConfig refers to, if it uses `spec.storageZoneRef`. */
export function storageZoneReference(obj: PullZoneConfig): ObjectReference | undefined {
  return namedRefOf(obj, 'storageZoneRef', STORAGE_ZONE_NAMES);
}

/** Settings that the reference sets and the spec must therefore leave out. */
function conflictingSettings(obj: PullZoneConfig): string[] {
  const settings = obj.spec?.settings ?? {};
  return ['originType', 'storageZoneId'].filter(
    (k) => settings[k] !== undefined && settings[k] !== null,
  );
}

/**
 * The origin of a PullZoneConfig with `spec.storageZoneRef`, or undefined without one (or
 * while the object is being deleted: deletion never depends on the StorageZone).
 * Throws a TerminalError for a conflicting spec or a StorageZone of another account, and a
 * WaitingError while the StorageZone is missing or has no id.
 */
export function resolveStorageOrigin(
  obj: PullZoneConfig,
  getObject: ConnectContext['getObject'],
  account: string,
): StorageOrigin | undefined {
  const ref = storageZoneReference(obj);
  if (!ref || obj.metadata.deletionTimestamp !== undefined) return undefined;
  const conflicts = conflictingSettings(obj);
  if (conflicts.length > 0) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot use spec.storageZoneRef together with ${conflicts.map((c) => `spec.settings.${c}`).join(' and ')}: the reference sets the origin; remove one of them`,
    );
  }
  const named = { ref: 'storageZoneRef', statusId: 'storageZoneId' };
  return { storageZoneId: resolveNamedRef(obj, named, ref, getObject, account).id };
}

/** `obj` with the origin settings of `origin` added to `spec.settings`. */
export function withOriginSettings(obj: PullZoneConfig, origin: StorageOrigin): PullZoneConfig {
  const spec = obj.spec ?? {};
  return {
    ...obj,
    spec: {
      ...spec,
      settings: {
        ...spec.settings,
        originType: 'StorageZone',
        storageZoneId: origin.storageZoneId,
      },
    },
  };
}

/** An external client that sees every object with the origin settings added (mapped-external.ts). */
export function withStorageOrigin<S>(
  inner: ExternalClient<PullZoneConfig, S>,
  origin: StorageOrigin | undefined,
): ExternalClient<PullZoneConfig, S> {
  return withMappedObject(inner, origin && ((obj) => withOriginSettings(obj, origin)));
}
