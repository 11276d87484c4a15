/**
 * `spec.storageZoneRef`: a PullZoneConfig that serves the files of a StorageZone in its
 * namespace. The reference becomes two managed settings, `OriginType: StorageZone` and
 * `StorageZoneId: <the StorageZone's status.storageZoneId>`, added to the spec's settings before
 * the external client sees the object, so the diff, the create body and the plan treat them like
 * any other setting. While the StorageZone is missing or has no id yet the object waits
 * (ReferenceNotReady); the runtime's reference watch re-enqueues it when the StorageZone changes.
 */
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectContext,
  ExternalClient,
  ExternalContext,
  ManagedObject,
  Observation,
  ObjectReference,
} from '../../runtime/types.js';
import { namedRefOf } from '../kit/ref-or-id.js';
import { parseIntegerId } from '../shared/platform-id.js';
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
  return { storageZoneId: referencedId(ref, getObject(ref), account) };
}

/** The id of the referenced StorageZone (see resolveStorageOrigin for the errors). */
function referencedId(
  ref: ObjectReference,
  zone: ManagedObject | undefined,
  account: string,
): number {
  const id = parseIntegerId(zone?.status?.storageZoneId);
  if (!zone || id === undefined) {
    throw new WaitingError(
      ReadyReason.ReferenceNotReady,
      `cannot resolve spec.storageZoneRef: StorageZone ${ref.namespace}/${ref.name} ${
        zone ? 'has no status.storageZoneId yet' : 'was not found'
      }`,
    );
  }
  const zoneAccount = (zone.status?.ownership as { account?: unknown } | undefined)?.account;
  if (typeof zoneAccount === 'string' && zoneAccount !== account) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot use spec.storageZoneRef: StorageZone ${ref.namespace}/${ref.name} lives in another account than this PullZoneConfig (use the same accountRef or credentialsRef on both)`,
    );
  }
  return id;
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

/**
 * An external client that sees every object with the origin settings added; everything else
 * (account, claims, observation bookkeeping) is the wrapped client's.
 */
export function withStorageOrigin<S>(
  inner: ExternalClient<PullZoneConfig, S>,
  origin: StorageOrigin | undefined,
): ExternalClient<PullZoneConfig, S> {
  if (!origin) return inner;
  const map = (obj: PullZoneConfig): PullZoneConfig => withOriginSettings(obj, origin);
  return {
    get account() {
      return inner.account;
    },
    get claims() {
      return inner.claims;
    },
    observe: (obj: PullZoneConfig, ctx: ExternalContext): Promise<Observation<S>> =>
      inner.observe(map(obj), ctx),
    create: (obj, ctx) => inner.create(map(obj), ctx),
    update: (obj, obs, ctx) => inner.update(map(obj), obs, ctx),
    delete: (obj, ctx, obs) => inner.delete(obj, ctx, obs),
  };
}
