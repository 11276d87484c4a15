/**
 * One storage zone as a StorageZone that adopts it by id (`spec.storageZoneId`). The shape
 * follows the StorageZone kind (docs/storagezone.md): name, region, replicationRegions,
 * zoneTier, deletionPolicy and the Secret the operator writes the zone's passwords into
 * (`passwordSecretRef`). The passwords the API returns are never copied.
 */
import type { StorageZone } from '../../cdn/feature-types.js';
import type { NameAllocator } from './names.js';
import {
  API_VERSION,
  metadataOf,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from './types.js';

/** Zone tier names in wire order. */
export const ZONE_TIERS = ['Standard', 'Edge'] as const;

/** What one storage zone export produced. */
export interface StorageZoneExport {
  object: ExportedObject;
  secrets: RequiredSecret[];
}

/** See the module comment. `name` is the object's (already unique) name. */
export function exportStorageZone(
  zone: StorageZone,
  name: string,
  opts: ExportOptions,
  secretNames: NameAllocator,
): StorageZoneExport {
  const secretName = secretNames.allocate(`${name}-storage-password`, String(zone.Id), 'storage');
  const tier = typeof zone.ZoneTier === 'number' ? ZONE_TIERS[zone.ZoneTier] : undefined;
  const replication = zone.ReplicationRegions ?? [];
  const spec = {
    storageZoneId: zone.Id,
    name: zone.Name,
    region: zone.Region,
    ...(replication.length > 0 ? { replicationRegions: [...replication] } : {}),
    ...(tier ? { zoneTier: tier } : {}),
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    passwordSecretRef: { name: secretName },
  };
  return {
    object: {
      kind: 'StorageZone',
      name,
      manifest: {
        apiVersion: API_VERSION,
        kind: 'StorageZone',
        metadata: metadataOf(name, opts.namespace),
        spec,
      },
    },
    secrets: [
      {
        name: secretName,
        type: 'Opaque',
        keys: ['password', 'readOnlyPassword'],
        purpose: `StorageZone ${name}: the zone's passwords`,
        filledBy: 'operator',
      },
    ],
  };
}
