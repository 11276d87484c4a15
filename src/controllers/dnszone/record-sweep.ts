/**
 * Pure decision of which live records of a zone another object manages, so that the zone never
 * deletes them (an unlisted record under `recordPolicy: Exact`, or a record the zone created and
 * dropped from its list). Claim types: shared/dns-record-claims.ts. A record is left alone when:
 *
 * 1. an object claims its id (`DnsRecord`) and that claim is recorded in the object's status
 *    (any namespace: its owner created or adopted it, perhaps before this zone object took the
 *    zone) or made from the zone object's own namespace (a DnsRecord adopting it by
 *    `spec.adoption.id`, whether older or newer than the zone); or
 * 2. a DnsRecord of the zone object's namespace declares its content on this zone (shared claim
 *    `DnsRecordDeclared`, by the zone's id or by a `dnsZoneRef` to this DnsZone object; type and
 *    name only for PullZone and Script records) and may be creating it: it has no record id
 *    recorded, or the record its status records is not live in this zone (it is being created
 *    again). This is what keeps a create in flight, or one whose id is not recorded yet, from
 *    being taken for an unmanaged record.
 *
 * A claim asked for only in the spec of an object of another namespace protects nothing: that
 * object is refused before it touches this zone (`ReferenceNotAllowed` for a `spec.dnsZoneId`
 * another namespace manages; a `dnsZoneRef` only names a DnsZone of its own namespace), so
 * counting it would let any tenant keep records alive on another team's zone.
 */
import type { DnsRecord } from '../../cdn/dns-types.js';
import { typeNameOf } from '../shared/dns-record-fields.js';
import type { ClaimHolder } from '../../runtime/types.js';
import {
  declaredKeyByRef,
  declaredKeyByZone,
  DNS_RECORD_CLAIM,
  DNS_RECORD_DECLARED_CLAIM,
} from '../shared/dns-record-claims.js';

/** Kind of the objects that declare records (the DnsRecord kind). */
const DNS_RECORD_KIND = 'DnsRecord';

/** Inputs of {@link managedRecordIds}. */
export interface RecordClaimsInput {
  zoneId: number;
  /** The DnsZone object planning. */
  zone: { namespace: string; name: string };
  /** Who claims what: the runtime's claim index (`ExternalContext.claimantsOf`). */
  claimantsOf: (type: string, id: string) => readonly ClaimHolder[];
}

const holderKey = (h: ClaimHolder): string => `${h.kind}/${h.namespace}/${h.name}`;

/** The objects whose claim by id protects record `id` (rule 1). */
function idOwners(c: RecordClaimsInput, id: number): ClaimHolder[] {
  return c
    .claimantsOf(DNS_RECORD_CLAIM, String(id))
    .filter((h) => h.recorded || h.namespace === c.zone.namespace);
}

/** The declared-record claim ids a live record answers to (by zone id and by dnsZoneRef). */
function declaredKeys(c: RecordClaimsInput, record: DnsRecord): string[] {
  const type = typeNameOf(record);
  const name = record.Name ?? '';
  const value = record.Value ?? '';
  const { namespace, name: zone } = c.zone;
  return [
    declaredKeyByZone(c.zoneId, type, name, value),
    declaredKeyByZone(c.zoneId, type, name, undefined),
    declaredKeyByRef(namespace, zone, type, name, value),
    declaredKeyByRef(namespace, zone, type, name, undefined),
  ];
}

/** True when a DnsRecord of the zone's namespace may be creating `record` (rule 2). */
function pendingByContent(
  c: RecordClaimsInput,
  record: DnsRecord,
  liveOwners: ReadonlySet<string>,
): boolean {
  return declaredKeys(c, record).some((key) =>
    c
      .claimantsOf(DNS_RECORD_DECLARED_CLAIM, key)
      .some(
        (h) =>
          h.kind === DNS_RECORD_KIND &&
          h.namespace === c.zone.namespace &&
          (!h.recorded || !liveOwners.has(holderKey(h))),
      ),
  );
}

/** Ids of the live records of the zone that another object manages (see the module comment). */
export function managedRecordIds(c: RecordClaimsInput, live: readonly DnsRecord[]): Set<number> {
  const managed = new Set<number>();
  const liveOwners = new Set<string>();
  for (const record of live) {
    if (record.Id === undefined) continue;
    const owners = idOwners(c, record.Id);
    for (const h of owners) liveOwners.add(holderKey(h));
    if (owners.length > 0) managed.add(record.Id);
  }
  for (const record of live) {
    if (record.Id === undefined || managed.has(record.Id)) continue;
    if (pendingByContent(c, record, liveOwners)) managed.add(record.Id);
  }
  return managed;
}
