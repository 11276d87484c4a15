/**
 * `cdnctl export` of DNS records: every record of every DNS zone of the account, one DnsRecord
 * per record, adopting it by id (`spec.recordId`) and naming its zone through the exported
 * DnsZone (`zoneRef`) when zones are exported too, else by `dnsZoneId`. Every managed member
 * that differs from what the platform reads back for an unset member is written (the field
 * table, fields.ts), so applying the export changes nothing. A PullZone record names its pull
 * zone through the exported PullZoneConfig (`pullZoneRef`) or by `pullZoneId`.
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
import { appliesTo, LINKED_TYPES, RECORD_FIELDS } from './fields.js';
import { nameOf } from './mapping.js';
import { DNS_ZONE_KIND } from './references.js';
import {
  DNS_RECORD_NAMES,
  RECORD_TYPES,
  type DnsRecordSpec,
  type RecordTypeName,
} from './types.js';

/** Where the exported record's zone and pull zone come from. */
export interface RecordLinks {
  zoneId: number;
  /** The exported DnsZone's name, when zones are exported. */
  zoneName?: string;
  /** The exported PullZoneConfig's name by pull zone id, when pull zones are exported. */
  pullZoneNames?: Map<string, string>;
}

/** The managed members the record holds (those not at their unset value). */
function membersOf(record: DnsRecordModel, type: RecordTypeName): Partial<DnsRecordSpec> {
  const live = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of RECORD_FIELDS) {
    if (!appliesTo(field, type)) continue;
    const have = live[field.api] ?? field.unset;
    if (have === field.unset && field.spec !== 'value') continue;
    out[field.spec] = field.kind === 'enum' ? nameOf(field.names ?? [], have) : have;
  }
  return out;
}

/** The link of a PullZone or Script record (the platform keeps the id in `LinkName`). */
function linkOf(record: DnsRecordModel, type: RecordTypeName, links: RecordLinks): object {
  const linked = Number(record.LinkName ?? 0);
  if (!LINKED_TYPES.includes(type) || !Number.isSafeInteger(linked) || linked <= 0) return {};
  if (type === 'Script') {
    const vars = (record.EnviromentalVariables ?? []).map((v) => ({
      name: String(v.Name ?? ''),
      value: String(v.Value ?? ''),
    }));
    return { scriptId: linked, ...(vars.length > 0 ? { environmentVariables: vars } : {}) };
  }
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
  const type = nameOf(RECORD_TYPES, record.Type) as RecordTypeName;
  const zone = links.zoneName ? { zoneRef: { name: links.zoneName } } : { dnsZoneId: links.zoneId };
  const spec = {
    recordId: Number(record.Id),
    ...zone,
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    type,
    name: record.Name ?? '',
    ...membersOf(record, type),
    ...linkOf(record, type, links),
  };
  return {
    kind: DNS_RECORD_NAMES.kind,
    name,
    manifest: { ...typeMetaOf(DNS_RECORD_NAMES), metadata: metadataOf(name, opts.namespace), spec },
  };
}

/** Every record of every zone of the account, zones and records in ascending id order. */
export async function exportDnsRecords(c: ExportContext): Promise<void> {
  const zones = [...(await c.client.listDnsZones())].sort((a, b) => Number(a.Id) - Number(b.Id));
  const zoneNames = c.wants(DNS_ZONE_KIND) ? c.names(DNS_ZONE_KIND) : new Map<string, string>();
  const pullZoneNames = c.wants(PULL_ZONE_CONFIG_NAMES.kind)
    ? c.names(PULL_ZONE_CONFIG_NAMES.kind)
    : undefined;
  const names = new NameAllocator();
  for (const zone of zones) {
    const zoneId = Number(zone.Id);
    const records = [...(await c.client.listDnsRecords(zoneId))].sort(
      (a, b) => Number(a.Id) - Number(b.Id),
    );
    const zoneName = zoneNames.get(String(zoneId));
    for (const record of records) {
      const label = `${String(record.Name ?? '') || 'apex'}.${String(zone.Domain ?? '')}`;
      const base = `${nameOf(RECORD_TYPES, record.Type).toLowerCase()}-${label}`;
      const name = names.allocate(base, Number(record.Id), 'dnsrecord');
      const links = {
        zoneId,
        ...(zoneName ? { zoneName } : {}),
        ...(pullZoneNames ? { pullZoneNames } : {}),
      };
      c.result.objects.push(exportDnsRecord(record, name, links, c.opts));
    }
  }
}
