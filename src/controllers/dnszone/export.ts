/**
 * One DNS zone as a DnsZone that adopts it by id (`spec.dnsZoneId`): domain, the settings
 * that differ from a new zone's (custom nameservers and SOA contact, logging, certificate key
 * type), DNSSEC, and `recordPolicy: Additive` without inline records: records are exported by
 * the DnsRecord kind (one object per record), and an Additive zone leaves them alone, so
 * applying the export changes nothing.
 */
import type { DnsZone as DnsZoneRecord } from '../../cdn/dns-types.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
} from '../shared/manifest-export.js';
import { enumName } from './mapping.js';
import {
  CERTIFICATE_KEY_TYPES,
  DNS_ZONE_NAMES,
  LOG_ANONYMIZATION_TYPES,
  type DnsZoneSpec,
} from './types.js';

function nameserversOf(zone: DnsZoneRecord): Pick<DnsZoneSpec, 'customNameservers' | 'soaEmail'> {
  if (zone.CustomNameserversEnabled !== true) return {};
  return {
    customNameservers: {
      enabled: true,
      ...(zone.Nameserver1 ? { ns1: zone.Nameserver1 } : {}),
      ...(zone.Nameserver2 ? { ns2: zone.Nameserver2 } : {}),
    },
    ...(zone.SoaEmail ? { soaEmail: zone.SoaEmail } : {}),
  };
}

function loggingOf(zone: DnsZoneRecord): Pick<DnsZoneSpec, 'logging'> {
  if (zone.LoggingEnabled !== true) return {};
  const type = enumName(LOG_ANONYMIZATION_TYPES, zone.LogAnonymizationType);
  return {
    logging: {
      enabled: true,
      ...(typeof zone.LoggingIPAnonymizationEnabled === 'boolean'
        ? { ipAnonymization: zone.LoggingIPAnonymizationEnabled }
        : {}),
      ...(type ? { anonymizationType: type as (typeof LOG_ANONYMIZATION_TYPES)[number] } : {}),
    },
  };
}

/** See the module comment. `name` is the object's (already unique) name. */
export function exportDnsZone(
  zone: DnsZoneRecord,
  name: string,
  opts: ExportOptions,
): ExportedObject {
  const keyType = enumName(CERTIFICATE_KEY_TYPES, zone.CertificateKeyType);
  const spec: DnsZoneSpec & Record<string, unknown> = {
    dnsZoneId: zone.Id,
    domain: String(zone.Domain),
    ...nameserversOf(zone),
    ...loggingOf(zone),
    ...(keyType ? { certificateKeyType: keyType as (typeof CERTIFICATE_KEY_TYPES)[number] } : {}),
    dnssec: zone.DnsSecEnabled === true,
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
    // Records exported after this name their zone's object (zoneRef).
    c.names(DNS_ZONE_NAMES.kind).set(String(zone.Id), name);
  }
}
