/**
 * One DNS zone as a DnsZone that adopts it by id (`spec.adoption.id`): domain, DNSSEC and the
 * settings that differ from a new zone's (the field table, fields.ts: custom nameservers and
 * SOA contact only while on, logging, certificate key type), and `recordPolicy: Additive`
 * without inline records: records are exported by the DnsRecord kind (one object per record),
 * and an Additive zone leaves them alone, so applying the export changes nothing.
 */
import type { DnsZone as DnsZoneRecord } from '../../cdn/dns-types.js';
import { specOfRecord } from '../kit/fields.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
} from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { DNS_ZONE_FIELDS } from './fields.js';
import { DNS_ZONE_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. `name` is the object's (already unique) name. */
export function exportDnsZone(
  zone: DnsZoneRecord,
  name: string,
  opts: ExportOptions,
): ExportedObject {
  const spec = {
    ...adoptionById(zone.Id),
    ...specOfRecord(DNS_ZONE_FIELDS, zone, { omitUnset: true }),
    recordPolicy: 'Additive',
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
  };
  return {
    kind: DNS_ZONE_NAMES.kind,
    name,
    manifest: { ...typeMetaOf(DNS_ZONE_NAMES), metadata: metadataOf(name, opts.namespace), spec },
  };
}

/** Every DNS zone of the account, in ascending id order, named after its domain. */
export async function exportDnsZones(c: ExportContext): Promise<void> {
  const zones = [...(await c.client.listDnsZones())].sort((a, b) => Number(a.Id) - Number(b.Id));
  const names = new NameAllocator();
  for (const zone of zones) {
    const name = names.allocate(String(zone.Domain ?? ''), Number(zone.Id), 'dnszone');
    c.result.objects.push(exportDnsZone(zone, name, c.opts));
    // Records exported after this name their zone's object (dnsZoneRef).
    c.names(DNS_ZONE_NAMES.kind).set(String(zone.Id), name);
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportDnsZones;
