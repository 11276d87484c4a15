/** The StorageZone custom resource as the controller reads it (its fields: fields.ts). */
import type { ManagedObject } from '../../runtime/types.js';
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';
import type { AdoptionSpec } from '../shared/ownership-schema.js';
import type { KindStatus } from '../shared/status-schema.js';
import type { STORAGE_ZONE_FIELDS } from './fields.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const STORAGE_ZONE_NAMES: NamedResourceKind = {
  kind: 'StorageZone',
  plural: 'storagezones',
  shortNames: ['sz'],
  scope: 'Namespaced',
  family: 'storage',
  platformNames: 'unique',
};

/** `spec` of a StorageZone: the field table's members and the shared parts. */
export type StorageZoneSpec = SpecOf<typeof STORAGE_ZONE_FIELDS> &
  AccountSpec &
  AdoptionSpec & {
    /** The Secret this object creates and owns (default `<metadata.name>-storagezone`). */
    outputSecretRef?: { name: string };
  };

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
