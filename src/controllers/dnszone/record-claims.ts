/**
 * Claim types of DNS records, shared by the DnsZone and DnsRecord kinds: a record is claimed by
 * its id (`DnsRecord`) and by its content (`DnsRecordContent`: zone, type, name and value), so
 * a zone's `Exact` record policy leaves alone the records a DnsRecord manages, including one
 * whose id is not recorded yet.
 */

/** Claim type of a DNS record by its platform id. */
export const DNS_RECORD_CLAIM = 'DnsRecord';
/** Claim type of a DNS record by its content ({@link dnsRecordContentKey}). */
export const DNS_RECORD_CONTENT_CLAIM = 'DnsRecordContent';

/** The content claim id of a record: `<zoneId>/<TYPE>/<lowercased name>/<value>`. */
export function dnsRecordContentKey(
  zoneId: number,
  type: string,
  name: string,
  value: string,
): string {
  return `${zoneId}/${type}/${name.toLowerCase()}/${value}`;
}
