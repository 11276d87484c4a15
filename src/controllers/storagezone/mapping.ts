/**
 * Pure spec <-> API mapping of a storage zone: the add body, tier names to the platform's
 * integers and back, the status fields observed from a record, and the password Secret's data.
 */
import type { StorageZone as StorageZoneRecord, StorageZoneAddRequest } from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import {
  S3_TYPES,
  ZONE_TIERS,
  type S3Type,
  type StorageZone,
  type StorageZoneStatus,
  type ZoneTier,
} from './types.js';

/** The zone's platform name: `spec.name`, defaulting to `metadata.name`. */
export function zoneNameOf(obj: StorageZone): string {
  return obj.spec?.name ?? obj.metadata.name;
}

/** Name of the password Secret: `spec.passwordSecretRef.name`, default `<name>-storagezone`. */
export function passwordSecretNameOf(obj: StorageZone): string {
  const name = obj.spec?.passwordSecretRef?.name;
  return name !== undefined && name !== '' ? name : `${obj.metadata.name}-storagezone`;
}

/** The platform's integer of a tier name. */
export function tierNumber(tier: ZoneTier): number {
  const n = ZONE_TIERS.indexOf(tier);
  if (n < 0)
    throw new Error(
      `cannot map zoneTier: ${JSON.stringify(tier)} is not one of ${ZONE_TIERS.join(', ')}`,
    );
  return n;
}

/** The tier name of the platform's integer (`Standard` when absent, the platform default). */
export function tierName(value: unknown): string {
  if (value === undefined || value === null) return 'Standard';
  if (typeof value === 'number') return ZONE_TIERS[value] ?? String(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The platform's integer of an S3 support name. */
export function s3TypeNumber(type: S3Type): 0 | 1 {
  const n = S3_TYPES.indexOf(type);
  if (n < 0) {
    const allowed = S3_TYPES.join(', ');
    throw new Error(`cannot map storageZoneType: ${JSON.stringify(type)} is not one of ${allowed}`);
  }
  return n as 0 | 1;
}

/** The S3 support name of the platform's integer (`NotSupported` when absent). */
export function s3TypeName(value: unknown): string {
  if (value === undefined || value === null) return 'NotSupported';
  return typeof value === 'number' ? (S3_TYPES[value] ?? String(value)) : JSON.stringify(value);
}

/** The create body (`POST /storagezone`). Throws a TerminalError when the region is missing. */
export function toAddRequest(obj: StorageZone): StorageZoneAddRequest {
  const spec = obj.spec ?? {};
  if (!spec.region) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      'cannot create storage zone: spec.region is required to create a zone (it may be left out only when adopting one with spec.storageZoneId or spec.adoption)',
    );
  }
  const body: StorageZoneAddRequest = { Name: zoneNameOf(obj), Region: spec.region };
  if (spec.replicationRegions?.length) body.ReplicationRegions = [...spec.replicationRegions];
  if (spec.zoneTier !== undefined) body.ZoneTier = tierNumber(spec.zoneTier) as 0 | 1;
  if (spec.storageZoneType !== undefined) body.StorageZoneType = s3TypeNumber(spec.storageZoneType);
  return body;
}

/** The observed status fields of a record (never a password). */
export function statusOf(record: StorageZoneRecord): StorageZoneStatus {
  const status: StorageZoneStatus = {
    storageZoneId: record.Id,
    zoneTier: tierName(record.ZoneTier),
    replicationRegions: [...(record.ReplicationRegions ?? [])],
    replicationChangeInProgress: record.ReplicationChangeInProgress === true,
  };
  if (record.Name) status.name = record.Name;
  if (record.Region) status.region = record.Region;
  if (record.StorageHostname) status.hostname = record.StorageHostname;
  if (record.S3Hostname) status.s3Hostname = record.S3Hostname;
  return status;
}

/**
 * The password Secret's data. `password` and `readOnlyPassword` are left out when the
 * platform did not return them (they are never invented).
 */
export function passwordSecretData(record: StorageZoneRecord): Record<string, string> {
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
