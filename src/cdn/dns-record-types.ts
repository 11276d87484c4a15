/**
 * DNS record types by wire value (`DnsRecordTypes` of the core document: 0 = A ... 15 = TLSA).
 * Pure data without I/O, so the client, cdnctl and cdn-sim read the same table.
 */

/** Record type names by wire value. */
export const DNS_RECORD_TYPE_NAMES = [
  'A',
  'AAAA',
  'CNAME',
  'TXT',
  'MX',
  'Redirect',
  'Flatten',
  'PullZone',
  'SRV',
  'CAA',
  'PTR',
  'Script',
  'NS',
  'SVCB',
  'HTTPS',
  'TLSA',
] as const;

/** The wire value of a record type given by name (any case) or number; undefined if neither. */
export function recordTypeOf(value: string): number | undefined {
  const byName = DNS_RECORD_TYPE_NAMES.findIndex((n) => n.toLowerCase() === value.toLowerCase());
  if (byName >= 0) return byName;
  const n = /^\d+$/.test(value) ? Number(value) : -1;
  return n >= 0 && n < DNS_RECORD_TYPE_NAMES.length ? n : undefined;
}
