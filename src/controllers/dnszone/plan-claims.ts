/**
 * The claim lookups of a `cdnctl diff` of a DnsZone. The operator never deletes, under
 * `recordPolicy: Exact`, a record a DnsRecord object manages (record-sweep.ts), nor creates or
 * changes a listed record one manages; cdnctl has no claim index, so the DnsRecord manifests
 * compared in the same run (the zone's namespace) stand in for it, each with the claims the
 * operator's index would hold for it right after it is applied (dnsrecord/claims.ts): the id it
 * adopts by id (`spec.adoption.id`), else the record it declares on its zone (by `dnsZoneRef` to this DnsZone
 * or by its `dnsZoneId`), not yet recorded. A live record one of them adopts by id, or whose
 * content one of them declares in this zone, is therefore not planned as deleted.
 */
import type { ClaimHolder, ManagedObject } from '../../runtime/types.js';
import { manifestClaimants } from '../shared/manifest-claimants.js';
import type { PlanContext } from '../shared/manifest-plan.js';
import { dnsRecordClaimsOf } from '../dnsrecord/claims.js';
import { specContentKey } from '../dnsrecord/claims.js';
import type { DnsRecord, DnsRecordSpec } from '../dnsrecord/types.js';
import { DNS_RECORD_CLAIM, DNS_RECORD_CONTENT_CLAIM } from '../shared/dns-record-claims.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import type { DnsZone } from './types.js';

function refersTo(spec: DnsRecordSpec, zone: DnsZone, zoneId: number): boolean {
  return spec.dnsZoneRef?.name === zone.metadata.name || spec.dnsZoneId === zoneId;
}

/**
 * The claim check of listed records (`ExternalContext.claimedByOther`) a diff of `zone` runs
 * with: a record a manifest adopts by id, or whose content one declares in this zone,
 * is managed by that DnsRecord (the zone reports the listed record as a conflict).
 */
export function manifestRecordClaims(
  zone: DnsZone,
  ctx: PlanContext,
): (type: string, id: string) => boolean {
  const records = ctx.objectsOf('DnsRecord') as readonly DnsRecord[];
  const ids = new Set<string>();
  for (const r of records) {
    const id = adoptionIdOf(r.spec);
    if (id !== undefined) ids.add(id);
  }
  return (type, id) => {
    if (type === DNS_RECORD_CLAIM) return ids.has(id);
    if (type !== DNS_RECORD_CONTENT_CLAIM) return false;
    const zoneId = Number(id.slice(0, id.indexOf('/')));
    return records.some((r) => {
      const spec = r.spec;
      return (
        spec !== undefined && refersTo(spec, zone, zoneId) && specContentKey(zoneId, spec) === id
      );
    });
  };
}

/** The claim lookup (`ExternalContext.claimantsOf`) a diff of `zone` runs with. */
export function manifestRecordClaimants(
  zone: DnsZone,
  ctx: PlanContext,
): (type: string, id: string) => readonly ClaimHolder[] {
  const source = {
    kind: 'DnsRecord',
    claimsOf: (obj: ManagedObject) => dnsRecordClaimsOf(obj as DnsRecord),
  };
  return manifestClaimants(zone.metadata.namespace, [source], ctx);
}
