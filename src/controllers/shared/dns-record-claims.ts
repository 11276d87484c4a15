/**
 * How DNS records are claimed in the runtime's claim index, shared by the DnsZone kind (which
 * must never delete or take over a record another object manages) and the DnsRecord kind
 * (which claims its record; dnsrecord/claims.ts).
 *
 * A DnsRecord object claims its record:
 *
 * - by platform id (`DnsRecord`, id = the record id as a string), from `spec.adoption.id` or the id
 *   its status records: one owner per record;
 * - by content as its status records it (`DnsRecordContent`, id = {@link dnsRecordContentKey}),
 *   and, once connected, by the content its spec asks for in the resolved zone (checked by the
 *   runtime before anything is sent, not stored): two objects never manage one record;
 * - by the content its spec declares, before there is an id to claim (shared claim
 *   {@link DNS_RECORD_DECLARED_CLAIM}, id = {@link declaredKeyByZone} for a `spec.dnsZoneId`,
 *   {@link declaredKeyByRef} for a `spec.dnsZoneRef`). It comes from the spec alone, so the index
 *   holds it from the informer's first event about the object, before any pass on the object
 *   can send its create: a record being created, or whose id is not recorded yet, is then never
 *   taken for an unmanaged one by a zone with `recordPolicy: Exact` (dnszone/record-sweep.ts).
 *   Shared: it never refuses anyone. It cannot be exclusive: it is made before the runtime refuses an
 *   object whose `spec.dnsZoneId` names another namespace's zone, so an exclusive claim would let
 *   any tenant block the creation of a record on another team's zone by declaring it first.
 */

/** Claim type of a DNS record by platform id (id = the record id, a decimal string). */
export const DNS_RECORD_CLAIM = 'DnsRecord';
/** Claim type of a DNS record by content (id = {@link dnsRecordContentKey}). */
export const DNS_RECORD_CONTENT_CLAIM = 'DnsRecordContent';
/** Shared claim type of the record a DnsRecord's spec declares (see the module comment). */
export const DNS_RECORD_DECLARED_CLAIM = 'DnsRecordDeclared';

function relativeName(name: string): string {
  return name === '@' ? '' : name.toLowerCase();
}

/**
 * The content key of a record: `<zoneId>/<TYPE>/<name lowercased>/<value>`. `type` is the
 * record type's name as the document spells it (`A`, `CNAME`, `PullZone`); `name` is relative
 * to the zone, `@` and `""` both meaning the apex (written as `""`). The value is kept as is:
 * the platform stores and answers it exactly as written.
 */
export function dnsRecordContentKey(
  zoneId: number,
  type: string,
  name: string,
  value: string,
): string {
  return `${zoneId}/${type}/${relativeName(name)}/${value}`;
}

/**
 * `<TYPE>/<name lowercased>`, then `/<value>` when the value is known. Without a value (a
 * PullZone or Script record, whose value the platform fills in, or an adoption by name that
 * leaves the value out) the key stands for every record of that type and name. Record names
 * hold no `/` (neither the CRD nor the platform accepts one), so the two forms never meet.
 */
function contentPart(type: string, name: string, value: string | undefined): string {
  const base = `${type}/${relativeName(name)}`;
  return value === undefined ? base : `${base}/${value}`;
}

/** Declared-record claim id of a record in the zone with platform id `zoneId` (`spec.dnsZoneId`). */
export function declaredKeyByZone(
  zoneId: number,
  type: string,
  name: string,
  value: string | undefined,
): string {
  return `zone/${zoneId}/${contentPart(type, name, value)}`;
}

/**
 * Declared-record claim id of a record in the zone of the DnsZone object `namespace/zone` (a
 * `spec.dnsZoneRef`, always resolved in the record's own namespace): known from the object alone,
 * while the zone id is only known once the reference is resolved.
 */
export function declaredKeyByRef(
  namespace: string,
  zone: string,
  type: string,
  name: string,
  value: string | undefined,
): string {
  return `ref/${namespace}/${zone}/${contentPart(type, name, value)}`;
}
