/** The StorageZone custom resource as the controller reads it. */
import type { ManagedObject } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const STORAGE_ZONE_NAMES: KindNames = {
  kind: 'StorageZone',
  plural: 'storagezones',
  shortNames: ['sz'],
  scope: 'Namespaced',
};

/** Tier names in the order of the platform's integer enum (`StorageZoneTier`). */
export const ZONE_TIERS = ['Standard', 'Edge'] as const;
export type ZoneTier = (typeof ZONE_TIERS)[number];
/** S3 support names in the order of the platform's integer enum (`StorageZoneS3Type`). */
export const S3_TYPES = ['NotSupported', 'Supported'] as const;
export type S3Type = (typeof S3_TYPES)[number];

/** `spec` of a StorageZone (crd.ts describes every field). */
export interface StorageZoneSpec extends AccountSpec, AdoptionSpec {
  /** Platform zone name; defaults to metadata.name. */
  name?: string;
  /** Main region code (required to create). */
  region?: string;
  /** Replication regions; the platform only ever adds them. */
  replicationRegions?: string[];
  zoneTier?: ZoneTier;
  /** S3 support of the zone (`StorageZoneType` of the add model); set at create only. */
  storageZoneType?: S3Type;
  /** Adopt the zone with this id. */
  storageZoneId?: number;
  /** The Secret this object creates and owns (default `<metadata.name>-storagezone`). */
  passwordSecretRef?: { name: string };
  /** Answer 200 instead of 404 for a missing file whose URL has no extension. */
  rewrite404To200?: boolean;
  /** Path of the file served when a file is missing. */
  custom404FilePath?: string;
}

/** `status` of a StorageZone. */
export interface StorageZoneStatus extends KindStatus {
  /** Platform id (an integer in the CRD, like PullZoneConfig's pullZoneId). */
  storageZoneId?: number | string;
  name?: string;
  region?: string;
  replicationRegions?: string[];
  zoneTier?: string;
  /** Storage API / FTP endpoint of the zone. */
  hostname?: string;
  /** S3-compatible endpoint (zones with S3 support only). */
  s3Hostname?: string;
  /** A replication region is still being added. */
  replicationChangeInProgress?: boolean;
}

export interface StorageZone extends ManagedObject {
  spec?: StorageZoneSpec & Record<string, unknown>;
  status?: StorageZoneStatus;
}
