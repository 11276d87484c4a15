/** The StorageZone custom resource as the controller reads it. */
import type { ManagedObject, ManagedStatus } from '../../runtime/types.js';

export const GROUP = 'cdn.operator.io';
export const VERSION = 'v1alpha1';
export const KIND = 'StorageZone';
export const PLURAL = 'storagezones';
export const API_VERSION = `${GROUP}/${VERSION}`;

/** Tier names in the order of the platform's integer enum (`StorageZoneTier`). */
export const ZONE_TIERS = ['Standard', 'Edge'] as const;
export type ZoneTier = (typeof ZONE_TIERS)[number];
/** S3 support names in the order of the platform's integer enum (`StorageZoneS3Type`). */
export const S3_TYPES = ['NotSupported', 'Supported'] as const;
export type S3Type = (typeof S3_TYPES)[number];

export interface StorageZoneSpec {
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
  adoption?: { policy: 'ByName' };
  deletionPolicy?: 'Delete' | 'Orphan';
  accountRef?: { name: string };
  credentialsRef?: { name: string; key?: string };
  /** The Secret this object creates and owns (default `<metadata.name>-storagezone`). */
  passwordSecretRef?: { name: string };
  /** Answer 200 instead of 404 for a missing file whose URL has no extension. */
  rewrite404To200?: boolean;
  /** Path of the file served when a file is missing. */
  custom404FilePath?: string;
}

export interface StorageZoneStatus extends ManagedStatus {
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
