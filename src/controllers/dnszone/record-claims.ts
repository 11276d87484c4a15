/**
 * How DNS records are claimed in the runtime's claim index, shared by the DnsZone kind (which
 * must never delete or take over a record another object manages) and the DnsRecord kind
 * (which claims its record).
 *
 * A DnsRecord object claims its record by platform id (`DnsRecord`, id = the record id as a
 * string) once it is known, and, before it creates one, by content (`DnsRecordContent`, id =
 * {@link dnsRecordContentKey}): a record being created, whose id nobody knows yet, is then
 * never taken for an unmanaged record by a zone with `recordPolicy: Exact`.
 */

/** Claim type of a DNS record by platform id (id = the record id, a decimal string). */
export const DNS_RECORD_CLAIM = 'DnsRecord';
/** Claim type of a DNS record by content (id = {@link dnsRecordContentKey}). */
export const DNS_RECORD_CONTENT_CLAIM = 'DnsRecordContent';

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
  const relative = name === '@' ? '' : name.toLowerCase();
  return `${zoneId}/${type}/${relative}/${value}`;
}
