/**
 * `cdnctl export` of DNS records: every record of every DNS zone of the account, one DnsRecord
 * per record, adopting it by id (`spec.adoption.id`) and naming its zone through the exported
 * DnsZone (`dnsZoneRef`) when zones are exported too, else by `dnsZoneId`. Every member of the
 * field table (fields.ts) that applies to the record's type and differs from what the platform
 * reads back for an unset member is written, so applying the export changes nothing. A
 * PullZone record names its pull zone through the exported PullZoneConfig (`pullZoneRef`) or by
 * `pullZoneId`.
 */
import type { DnsRecord as DnsRecordModel } from '../../cdn/dns-types.js';
import { typeMetaOf } from '../kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
} from '../shared/manifest-export.js';
import { specOfRecord } from '../kit/fields.js';
import { RECORD_TYPES } from '../shared/dns-record-fields.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { RECORD_FIELDS } from './fields.js';
import { DNS_ZONE_NAMES } from '../dnszone/types.js';
import { DNS_RECORD_NAMES } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

const PULL_ZONE_TYPE = RECORD_TYPES.indexOf('PullZone');

/** Where the exported record's zone and pull zone come from. */
export interface RecordLinks {
  zoneId: number;
  /** The exported DnsZone's name, when zones are exported. */
  zoneName?: string;
  /** The exported PullZoneConfig's name by pull zone id, when pull zones are exported. */
  pullZoneNames?: Map<string, string>;
}

/** The pull zone a PullZone record links (the platform keeps its id in `LinkName`). */
function linkOf(record: DnsRecordModel, links: RecordLinks): object {
  const linked = Number(record.LinkName ?? 0);
  if (record.Type !== PULL_ZONE_TYPE || !Number.isSafeInteger(linked) || linked <= 0) return {};
  const ref = links.pullZoneNames?.get(String(linked));
  return ref ? { pullZoneRef: { name: ref } } : { pullZoneId: linked };
}

/** One live record as a DnsRecord named `name`. */
export function exportDnsRecord(
  record: DnsRecordModel,
  name: string,
  links: RecordLinks,
  opts: ExportOptions,
): ExportedObject {
  const zone = links.zoneName
    ? { dnsZoneRef: { name: links.zoneName } }
    : { dnsZoneId: links.zoneId };
  const spec = {
    ...adoptionById(Number(record.Id)),
    ...zone,
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    ...specOfRecord(RECORD_FIELDS, record, { omitUnset: true }),
    // The apex is `""`, the value a never-set name reads: written all the same (required).
    name: record.Name ?? '',
    ...linkOf(record, links),
  };
  return {
    kind: DNS_RECORD_NAMES.kind,
    name,
    manifest: { ...typeMetaOf(DNS_RECORD_NAMES), metadata: metadataOf(name, opts.namespace), spec },
  };
}

/** Every record of every zone of the account, zones and records in ascending id order. */
export async function exportDnsRecords(c: ExportContext): Promise<void> {
  const byId = (a: { Id?: number | null }, b: { Id?: number | null }): number =>
    Number(a.Id) - Number(b.Id);
  const exported = (kind: string): Map<string, string> | undefined =>
    c.wants(kind) ? c.names(kind) : undefined;
  const pullZoneNames = exported(PULL_ZONE_CONFIG_NAMES.kind);
  const names = new NameAllocator();
  for (const zone of [...(await c.client.listDnsZones())].sort(byId)) {
    const zoneId = Number(zone.Id);
    const zoneName = exported(DNS_ZONE_NAMES.kind)?.get(String(zoneId));
    const links = {
      zoneId,
      ...(zoneName ? { zoneName } : {}),
      ...(pullZoneNames ? { pullZoneNames } : {}),
    };
    for (const record of [...(await c.client.listDnsRecords(zoneId))].sort(byId)) {
      const type = RECORD_TYPES[Number(record.Type)] ?? String(record.Type);
      const label = `${String(record.Name ?? '') || 'apex'}.${String(zone.Domain ?? '')}`;
      const name = names.allocate(`${type.toLowerCase()}-${label}`, Number(record.Id), 'dnsrecord');
      c.result.objects.push(exportDnsRecord(record, name, links, c.opts));
    }
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportDnsRecords;
