/**
 * The storage zone record (shaped as the official StorageZoneModel): a new zone's defaults,
 * rendering a stored zone (seeded zones carry only Id and Name) and the region rules of the
 * official document (main region DE, NY, LA, SG; replication regions those plus SYD).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SimState, StoredStorageZone } from '../state.js';
import type { JsonObject } from '../types.js';
import { zoneUsage } from '../storage/storage-files.js';
import { storageHostnameOf } from '../storage/storage-host.js';

/** Main regions the document lists for StorageZoneModelAdd.Region. */
export const MAIN_REGIONS = ['DE', 'NY', 'LA', 'SG'] as const;
/** Regions the document lists for replication. */
export const REPLICATION_REGIONS = ['DE', 'NY', 'LA', 'SG', 'SYD'] as const;

const NAME_PATTERN = /^[a-z0-9-]{1,64}$/i;

/** Why a storage zone name is rejected, or undefined. */
export function nameProblem(name: string): string | undefined {
  return NAME_PATTERN.test(name)
    ? undefined
    : `Name "${name}" may only contain letters, digits and dashes (1 to 64 characters)`;
}

/** A fresh password, the shape the platform uses (uuid-like with a random tail). */
function newPassword(): string {
  return `${randomUUID()}-${randomBytes(6).toString('hex')}`;
}

/** Creates and stores a zone from a validated add body. */
export function createStorageZone(state: SimState, body: JsonObject): StoredStorageZone {
  const id = state.allocateId('storageZone');
  const region = body.Region as string;
  const s3 = body.StorageZoneType === 1;
  const zone: StoredStorageZone = {
    Id: id,
    Name: body.Name as string,
    Region: region,
    ReplicationRegions: [...((body.ReplicationRegions as string[] | null) ?? [])],
    ZoneTier: body.ZoneTier ?? 0,
    StorageZoneType: s3 ? 1 : 0,
    Password: newPassword(),
    ReadOnlyPassword: newPassword(),
    Rewrite404To200: false,
    Custom404FilePath: null,
    DateModified: new Date().toISOString(),
  };
  state.storageZones.set(id, zone);
  state.touch();
  return zone;
}

/**
 * Sets fresh passwords on a seeded zone that has none, so every zone has credentials; marks
 * the state changed so they are saved (a restart must not change them).
 */
export function ensurePasswords(state: SimState, zone: StoredStorageZone): void {
  if (zone.Password !== undefined && zone.ReadOnlyPassword !== undefined) return;
  zone.Password ??= newPassword();
  zone.ReadOnlyPassword ??= newPassword();
  state.touch();
}

/** Replaces one of the zone's passwords. */
export function resetPassword(
  zone: StoredStorageZone,
  field: 'Password' | 'ReadOnlyPassword',
): void {
  zone[field] = newPassword();
  zone.DateModified = new Date().toISOString();
}

/** Pull zones whose origin is this storage zone. */
function linkedPullZones(state: SimState, id: number): JsonObject[] {
  return [...state.pullZones.values()]
    .filter((z) => z.record.StorageZoneId === id)
    .map((z) => ({ ...z.record }));
}

/** The zone as the API returns it (every StorageZoneModel field). */
export function renderStorageZone(state: SimState, zone: StoredStorageZone): JsonObject {
  ensurePasswords(state, zone);
  const region = (zone.Region as string | undefined) ?? 'DE';
  const s3 = zone.StorageZoneType === 1;
  const usage = zoneUsage(state, zone.Id);
  return {
    Id: zone.Id,
    UserId: 'sim-user',
    Name: zone.Name,
    Password: zone.Password,
    DateModified: zone.DateModified ?? '2024-01-01T00:00:00Z',
    Deleted: false,
    StorageUsed: usage.bytes,
    FilesStored: usage.files,
    Region: region,
    ReplicationRegions: zone.ReplicationRegions ?? [],
    PullZones: linkedPullZones(state, zone.Id),
    ReadOnlyPassword: zone.ReadOnlyPassword,
    Rewrite404To200: zone.Rewrite404To200 ?? false,
    Custom404FilePath: zone.Custom404FilePath ?? null,
    StorageHostname: storageHostnameOf(state.storageHostname, region),
    S3Hostname: s3 ? `${region.toLowerCase()}-s3.storage.bunnycdn.com` : null,
    ZoneTier: zone.ZoneTier ?? 0,
    ReplicationChangeInProgress: false,
    PriceOverride: 0,
    Discount: 0,
    StorageZoneType: s3 ? 1 : 0,
  };
}
