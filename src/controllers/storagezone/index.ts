/**
 * The StorageZone kind on the kit (kit/crud-kind.ts): its fields (fields.ts), its identity
 * (names are unique across the platform), and the hooks a storage zone needs beyond a plain
 * CRUD object:
 *
 * - create checks the name first (`POST /storagezone/checkavailability`), one create per name
 *   and account at a time; a taken name is reported (NameTaken) and never adopted;
 * - the passwords are registered for redaction the moment a record is read and published only
 *   as connection details (the password Secret, which the runtime writes after the claim check
 *   and the leader fence; the zone is not Ready without it);
 * - Ready=False `ReplicationInProgress` while the platform adds a replication region;
 * - delete keeps the pull zones serving from the zone (`deleteLinkedPullZones=false`).
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import { samePlatformName } from '../../cdn/platform-names.js';
import { secretValues } from '../../cdn/redact.js';
import type { StorageZone as ZoneRecord, StorageZoneAddRequest } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type { ConnectionSecret, ManagedKind } from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import type { IdentityRules } from '../kit/identity.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { STORAGE_ZONE_FIELDS } from './fields.js';
import { STORAGE_ZONE_NAMES, type StorageZone } from './types.js';
import { OUTPUTS_READY } from '../shared/output-secret.js';
import type { KindPart } from '../kit/kind-parts.js';
import { listSweep } from '../shared/list-sweep.js';

/** Reason when the zone name is taken on the platform and adoption was not asked for. */
export const NameTaken = 'NameTaken';
/** Reason of Ready=False while the platform adds a replication region. */
export const ReplicationInProgress = 'ReplicationInProgress';
/** Reason of Ready=False while the password Secret is not written (see OutputsReady). */
export const PasswordSecretNotReady = 'PasswordSecretNotReady';
/** Claim type of storage zones (the runtime's default: the kind). */
export const STORAGE_ZONE_CLAIM = 'StorageZone';
/** Condition type reporting the password Secret (the outputs Secret's, shared/output-secret.ts). */
export { OUTPUTS_READY };

/** The zone's platform name: `spec.name`, defaulting to `metadata.name`. */
export function zoneNameOf(obj: StorageZone): string {
  return obj.spec?.name ?? obj.metadata.name;
}

/** Registers a record's passwords for process-wide redaction; answers the record. */
function registered(record: ZoneRecord): ZoneRecord {
  const source = `storagezone/${record.Id}/`;
  if (record.Password) secretValues.set(`${source}password`, record.Password);
  if (record.ReadOnlyPassword)
    secretValues.set(`${source}readOnlyPassword`, record.ReadOnlyPassword);
  return record;
}

/** How storage zones are found: by id, else by name (unique across the platform). */
export function storageZoneIdentity(client: CdnClient): IdentityRules<ZoneRecord, StorageZone> {
  return {
    what: 'storage zone',
    claimType: STORAGE_ZONE_CLAIM,
    names: STORAGE_ZONE_NAMES.platformNames,
    nameOf: zoneNameOf,
    read: async (id, signal) => registered(await client.getStorageZone(Number(id), { signal })),
    search: async (name, signal) =>
      (await client.listStorageZones({ search: name }, { signal })).map(registered),
    idOf: (r) => String(r.Id),
    recordNameOf: (r) => r.Name,
    sameName: (live, wanted) => samePlatformName('storageZone', live, wanted),
    isGone: (r) => r.Deleted === true,
    sweep: listSweep(
      STORAGE_ZONE_CLAIM,
      client,
      (n, o) => client.storageZonePage(n, o),
      registered,
    ),
  };
}

/**
 * The password Secret's data. `password` and `readOnlyPassword` are left out when the
 * platform did not return them (they are never invented).
 */
export function passwordSecretData(record: ZoneRecord): Record<string, string> {
  const data: Record<string, string> = {
    storageZoneId: String(record.Id),
    storageZoneName: record.Name ?? '',
    hostname: record.StorageHostname ?? '',
  };
  if (record.Region) data.region = record.Region;
  if (record.Password) data.password = record.Password;
  if (record.ReadOnlyPassword) data.readOnlyPassword = record.ReadOnlyPassword;
  if (record.S3Hostname) data.s3Hostname = record.S3Hostname;
  return data;
}

/** Name of the password Secret: `spec.outputSecretRef.name`, default `<name>-storagezone`. */
export function passwordSecretNameOf(obj: StorageZone): string {
  const name = obj.spec?.outputSecretRef?.name;
  return name !== undefined && name !== '' ? name : `${obj.metadata.name}-storagezone`;
}

/**
 * The password Secret (default `<name>-storagezone`): the zone is of no use without it, so
 * it is not Ready until the Secret is written.
 */
export const PASSWORD_SECRET: ConnectionSecret<StorageZone> = {
  nameOf: passwordSecretNameOf,
  conditionType: OUTPUTS_READY,
  what: 'password Secret',
  field: 'spec.passwordSecretRef.name',
  requiredForReady: PasswordSecretNotReady,
};

function nameTaken(name: string, ours: boolean): TerminalError {
  const where = ours
    ? 'a storage zone with this name already exists in this account; adopt it explicitly with spec.adoption (policy ById or ByName), or set spec.name to another name'
    : 'storage zone names are unique across the whole platform and another account uses it; set spec.name to another name';
  return new TerminalError(
    NameTaken,
    `cannot create storage zone ${JSON.stringify(name)}: the name is not available (${where})`,
  );
}

/**
 * Checks the name, then adds the zone; a name that is not available is NameTaken, never
 * adopted (the zone may belong to another team or another account).
 */
async function addChecked(
  client: CdnClient,
  body: StorageZoneAddRequest,
  signal: AbortSignal,
): Promise<ZoneRecord> {
  const taken = async (): Promise<TerminalError> => {
    const ours = await client.listStorageZones({ search: body.Name }, { signal });
    return nameTaken(
      body.Name,
      ours.some((z) => samePlatformName('storageZone', z.Name, body.Name)),
    );
  };
  if (!(await client.checkStorageZoneAvailability(body.Name, { signal })).available)
    throw await taken();
  try {
    return registered(await client.addStorageZone(body, { signal }));
  } catch (err) {
    if (!isCdnApiError(err) || err.kind !== 'invalid') throw err;
    // Taken between the check and the add (another writer), or another refusal.
    if ((await client.checkStorageZoneAvailability(body.Name, { signal })).available) throw err;
    throw await taken();
  }
}

/** The storage zone of one connection. */
function resource(conn: Connection): CrudResource<StorageZone, ZoneRecord> {
  const { client, account } = conn;
  return {
    idField: 'storageZoneId',
    identity: storageZoneIdentity(client),
    fields: STORAGE_ZONE_FIELDS,
    nameApi: 'Name',
    account,
    readBack: true,
    api: {
      // Creates of one name in one account run one at a time (check, then add; the platform
      // compares names without regard to case).
      create: (body, signal) =>
        withKeyedLock(`create-storagezone:${account}:${String(body.Name).toLowerCase()}`, () =>
          addChecked(client, body as StorageZoneAddRequest, signal),
        ),
      update: (id, body, signal) => client.updateStorageZone(Number(id), body, { signal }),
      remove: (id, signal) => client.deleteStorageZone(Number(id), false, { signal }),
    },
    hooks: {
      createBody: (obj, body) => {
        if (obj.spec?.region) return Promise.resolve(body);
        throw new TerminalError(
          SyncedReason.InvalidSpec,
          'cannot create storage zone: spec.region is required to create a zone (it may be left out only when adopting one with spec.adoption)',
        );
      },
      status: (r) => ({
        replicationChangeInProgress: r.ReplicationChangeInProgress === true,
        ...(r.StorageHostname ? { hostname: r.StorageHostname } : {}),
        ...(r.S3Hostname ? { s3Hostname: r.S3Hostname } : {}),
      }),
      details: passwordSecretData,
      notReady: (r) =>
        r.ReplicationChangeInProgress === true
          ? {
              reason: ReplicationInProgress,
              message: 'The platform is still adding a replication region',
            }
          : undefined,
    },
  };
}

/** Builds the StorageZone ManagedKind. */
export function createStorageZoneKind(deps: ControllerDeps): ManagedKind<StorageZone> {
  return crudKind<StorageZone, ZoneRecord>(deps, {
    names: STORAGE_ZONE_NAMES,
    idField: 'storageZoneId',
    fields: STORAGE_ZONE_FIELDS,
    resource,
    connectionSecret: PASSWORD_SECRET,
  });
}

export { resource as storageZoneResource };
export type { StorageZone } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createStorageZoneKind;
