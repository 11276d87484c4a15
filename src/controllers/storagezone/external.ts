/**
 * The StorageZone external client: observe / create / update / delete of one storage zone,
 * bound to one account's CdnClient.
 *
 * - Observe is read-only on the platform: one GET by id, found by the kit's identity rules
 *   (kit/identity.ts; names are unique on the platform, so a lost create is recovered by name,
 *   skipping zones another object manages). It returns the zone's passwords and endpoints as connection details; the
 *   runtime publishes them in the password Secret (index.ts declares it) after the claim
 *   check and the leader fence, never for a refused object.
 * - Create checks the name with `POST /storagezone/checkavailability` first (storage zone
 *   names are unique across the whole platform, not only the account), then sends one
 *   `POST /storagezone`, serialized per account. A taken name is reported (NameTaken) and never
 *   adopted.
 * - Update sends the differing settings in one `POST /storagezone/{id}`.
 * - Delete sends `DELETE /storagezone/{id}` with `deleteLinkedPullZones=false`: pull zones
 *   serving from the zone belong to their own objects and are never deleted with it.
 *
 * Passwords are registered for redaction (process-wide) the moment a record is read, and are
 * returned nowhere but in the connection details.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import type { StorageZone as StorageZoneRecord } from '../../cdn/types.js';
import { secretValues } from '../../cdn/redact.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { locate, type IdentityRules } from '../kit/identity.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound, isDeleting } from '../shared/not-found.js';
import { diffStorageZone, type StorageZoneDiff } from './diff.js';
import { passwordSecretData, statusOf, toAddRequest, zoneNameOf } from './mapping.js';
import type { StorageZone } from './types.js';
import { samePlatformName } from '../../cdn/platform-names.js';

/** Reason when the zone name is taken on the platform and adoption was not asked for. */
export const NameTaken = 'NameTaken';
/** Reason of Ready=False while the platform adds a replication region. */
export const ReplicationInProgress = 'ReplicationInProgress';
/** Reason of Ready=False while the password Secret is not written (see OutputsReady). */
export const PasswordSecretNotReady = 'PasswordSecretNotReady';
/** Claim type of storage zones (the runtime's default: the kind). */
export const STORAGE_ZONE_CLAIM = 'StorageZone';
/** Condition type reporting the password Secret (the same type as PullZoneConfig's outputs). */
export const OUTPUTS_READY = 'OutputsReady';

/** What an external client is bound to. */
export interface StorageZoneExternalOptions {
  client: CdnClient;
  /** Stable, non-secret account identifier (serializes creates per account). */
  accountId: string;
}

const zoneLock = (id: number): string => `storagezone:${id}`;

/**
 * Creates of one name in one account run one at a time (the availability check and the add are
 * two calls, and the platform compares names without regard to case); other names go ahead.
 */
const createLockOf = (accountId: string, name: string): string =>
  `create-storagezone:${accountId}:${name.toLowerCase()}`;

/** Registers the zone's passwords for process-wide redaction (errors, conditions, logs). */
function registerPasswords(record: StorageZoneRecord): void {
  const source = `storagezone/${record.Id}/`;
  if (record.Password) secretValues.set(`${source}password`, record.Password);
  if (record.ReadOnlyPassword)
    secretValues.set(`${source}readOnlyPassword`, record.ReadOnlyPassword);
}

/** What observe hands to update: the zone's id and the plan. */
export interface StorageZoneSeen {
  id: number;
  diff: StorageZoneDiff;
}

/** How storage zones are found: by id, else by name (unique across the platform). */
export function storageZoneIdentity(
  client: CdnClient,
): IdentityRules<StorageZoneRecord, StorageZone> {
  const registered = (record: StorageZoneRecord): StorageZoneRecord => {
    registerPasswords(record);
    return record;
  };
  return {
    what: 'storage zone',
    claimType: STORAGE_ZONE_CLAIM,
    names: 'unique',
    specIdField: 'storageZoneId',
    nameOf: (obj) => zoneNameOf(obj),
    read: async (id, signal) => registered(await client.getStorageZone(Number(id), { signal })),
    search: async (name, signal) =>
      (await client.listStorageZones({ search: name }, { signal })).map(registered),
    idOf: (r) => String(r.Id),
    recordNameOf: (r) => r.Name,
    sameName: (live, wanted) => samePlatformName('storageZone', live, wanted),
    isGone: (r) => r.Deleted === true,
  };
}

/** See the module comment. */
export class StorageZoneExternal implements ExternalClient<StorageZone, StorageZoneSeen> {
  private readonly identity: IdentityRules<StorageZoneRecord, StorageZone>;

  constructor(private readonly opts: StorageZoneExternalOptions) {
    this.identity = storageZoneIdentity(opts.client);
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  async observe(obj: StorageZone, ctx: ExternalContext): Promise<Observation<StorageZoneSeen>> {
    const record = (await locate(this.identity, obj, ctx))?.record;
    if (!record) return { exists: false, upToDate: false, diff: [] };
    const diff = diffStorageZone(obj, record);
    if (!isDeleting(obj) && diff.immutable.length > 0) {
      throw new TerminalError(
        SyncedReason.InvalidSpec,
        `cannot manage storage zone ${record.Id}: ${diff.immutable.join('; ')}; name, region and tier are fixed when a zone is created: restore the spec or create a new StorageZone`,
      );
    }
    const obs: Observation<StorageZoneSeen> = {
      exists: true,
      externalId: String(record.Id),
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...statusOf(record) },
      connectionDetails: passwordSecretData(record),
      seen: { id: Number(record.Id), diff },
    };
    if (record.ReplicationChangeInProgress === true) {
      obs.notReady = {
        reason: ReplicationInProgress,
        message: 'The platform is still adding a replication region',
      };
    }
    return obs;
  }

  async create(obj: StorageZone, ctx: ExternalContext): Promise<CreateResult> {
    const body = toAddRequest(obj);
    const record = await withKeyedLock(createLockOf(this.opts.accountId, body.Name), () =>
      this.add(body, ctx.signal),
    );
    registerPasswords(record);
    ctx.log.debug({ storageZoneId: record.Id, name: body.Name }, 'Created storage zone');
    // Not proven usable by the answer alone: the runtime observes it in the same pass and
    // publishes the password Secret, without which the zone is not Ready.
    return {
      externalId: String(record.Id),
      status: { ...statusOf(record) },
      available: false,
      connectionDetails: passwordSecretData(record),
    };
  }

  /**
   * Checks the name, then adds the zone. A name that is not available is reported as
   * NameTaken and never adopted (the zone may belong to another team or another account).
   */
  private async add(
    body: ReturnType<typeof toAddRequest>,
    signal: AbortSignal,
  ): Promise<StorageZoneRecord> {
    const { available } = await this.opts.client.checkStorageZoneAvailability(body.Name, {
      signal,
    });
    if (!available) throw await this.nameTaken(body.Name, signal);
    try {
      return await this.opts.client.addStorageZone(body, { signal });
    } catch (err) {
      if (!isCdnApiError(err) || err.kind !== 'invalid') throw err;
      // Taken between the check and the add (another writer), or another refusal.
      const again = await this.opts.client.checkStorageZoneAvailability(body.Name, { signal });
      if (again.available) throw err;
      throw await this.nameTaken(body.Name, signal);
    }
  }

  private async nameTaken(name: string, signal: AbortSignal): Promise<TerminalError> {
    const ours = await this.identity.search(name, signal);
    const where = ours.some((z) => samePlatformName('storageZone', z.Name, name))
      ? 'a storage zone with this name already exists in this account; adopt it explicitly with spec.storageZoneId or spec.adoption.policy ByName, or set spec.name to another name'
      : 'storage zone names are unique across the whole platform and another account uses it; set spec.name to another name';
    return new TerminalError(
      NameTaken,
      `cannot create storage zone ${JSON.stringify(name)}: the name is not available (${where})`,
    );
  }

  async update(
    obj: StorageZone,
    observation: Observation<StorageZoneSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error('cannot update storage zone: observation was not made by this client');
    if (Object.keys(seen.diff.update).length === 0) return;
    await withKeyedLock(zoneLock(seen.id), () =>
      this.opts.client.updateStorageZone(seen.id, seen.diff.update, { signal: ctx.signal }),
    );
    // Read back once: replication may still be in progress, and status shows the regions.
    const record = await this.opts.client.getStorageZone(seen.id, { signal: ctx.signal });
    registerPasswords(record);
    return { status: { ...statusOf(record) }, connectionDetails: passwordSecretData(record) };
  }

  async delete(obj: StorageZone, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    const deleted = await withKeyedLock(zoneLock(id), () =>
      deleteIgnoringNotFound(() =>
        this.opts.client.deleteStorageZone(id, false, { signal: ctx.signal }),
      ),
    );
    if (deleted) ctx.log.info({ storageZoneId: id }, 'Deleted storage zone');
  }
}
