/**
 * The claim check of a `cdnctl diff` of a DnsZone. The operator never deletes, under
 * `recordPolicy: Exact`, a record a DnsRecord object claims (record-claims.ts); cdnctl has no
 * claim index, so it reads the claims from the DnsRecord manifests compared in the same run:
 * a record they name by `recordId`, or whose content one of them declares in this zone (by
 * `zoneRef` to this DnsZone or by its `dnsZoneId`), counts as claimed and is not planned as
 * deleted.
 */
import type { PlanContext } from '../shared/manifest-plan.js';
import { specContentKey } from '../dnsrecord/external.js';
import type { DnsRecord, DnsRecordSpec } from '../dnsrecord/types.js';
import { DNS_RECORD_CLAIM, DNS_RECORD_CONTENT_CLAIM } from './record-claims.js';
import type { DnsZone } from './types.js';

function refersTo(spec: DnsRecordSpec, zone: DnsZone, zoneId: number): boolean {
  return spec.zoneRef?.name === zone.metadata.name || spec.dnsZoneId === zoneId;
}

/** The claim check (`ExternalContext.claimedByOther`) a diff of `zone` runs with. */
export function manifestRecordClaims(
  zone: DnsZone,
  ctx: PlanContext,
): (type: string, id: string) => boolean {
  const records = ctx.objectsOf('DnsRecord') as readonly DnsRecord[];
  const ids = new Set<string>();
  for (const r of records)
    if (typeof r.spec?.recordId === 'number') ids.add(String(r.spec.recordId));
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
