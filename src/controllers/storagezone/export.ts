/**
 * One storage zone as a StorageZone that adopts it by id (`spec.adoption.id`): every field of
 * the field table the platform returns (fields.ts), the deletion policy and the Secret the
 * operator writes the zone's passwords into (`outputSecretRef`). The passwords the API
 * returns are never copied.
 */
import type { StorageZone } from '../../cdn/types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type RequiredSecret,
} from '../shared/manifest-export.js';
import { specOfRecord } from '../kit/fields.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { STORAGE_ZONE_FIELDS } from './fields.js';
import { STORAGE_ZONE_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

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
  const spec = {
    ...adoptionById(zone.Id),
    ...specOfRecord(STORAGE_ZONE_FIELDS, zone),
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    outputSecretRef: { name: secretName },
  };
  return {
    object: {
      kind: STORAGE_ZONE_NAMES.kind,
      name,
      manifest: {
        ...typeMetaOf(STORAGE_ZONE_NAMES),
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

const byId = (a: { Id?: number | null }, b: { Id?: number | null }): number =>
  Number(a.Id) - Number(b.Id);

/** Every storage zone of the account (deleted ones left out), in ascending id order. */
export async function exportStorageZones(c: ExportContext): Promise<void> {
  const listed = (await c.client.listStorageZones()).filter((z) => z.Deleted !== true);
  const names = new NameAllocator();
  for (const zone of listed.sort(byId)) {
    const name = names.allocate(String(zone.Name ?? ''), Number(zone.Id), 'storagezone');
    const out = exportStorageZone(zone, name, c.opts, c.secretNames);
    c.result.objects.push(out.object);
    c.result.secrets.push(...out.secrets);
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportStorageZones;
