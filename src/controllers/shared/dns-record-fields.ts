/**
 * What a DNS record is, shared by the DnsRecord kind (one object per record, dnsrecord/fields.ts)
 * and the DnsZone's inline records (dnszone/record-fields.ts): the record types, how a name is
 * written and compared, and the members both send, compare and name in errors alike, written
 * once as kit fields (kit/fields.ts). The record types are read from the official core document
 * at generation time (`DnsRecordTypes`); the value bounds are DNS's own (the document states
 * none).
 */
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type { DnsRecord } from '../../cdn/dns-types.js';
import { enumByIndex, integer, text, type Codec } from '../kit/codecs.js';
import { field } from '../kit/fields.js';

/** Record type names in wire order (`DnsRecordTypes`: 0 = A ... 15 = TLSA). */
export const RECORD_TYPES = DNS_RECORD_TYPE_NAMES;
export type RecordTypeName = (typeof RECORD_TYPES)[number];
/** Types whose value the platform fills in from the linked pull zone or script. */
export const LINKED_TYPES: readonly RecordTypeName[] = ['PullZone', 'Script'];
const VALUE_TYPES = RECORD_TYPES.filter((t) => !LINKED_TYPES.includes(t));

/** The record name as the platform reads it back: `@` is the apex, `""`. */
export function normalizeName(name: string | undefined): string {
  return name === undefined || name === '@' ? '' : name;
}

/** A record name relative to the zone: `@` sent as the apex `""`, compared without case. */
function recordName(): Codec<string> {
  return {
    ...text({ maxLength: 253 }),
    toWire: normalizeName,
    same: (a, b) => normalizeName(a).toLowerCase() === normalizeName(b).toLowerCase(),
  };
}

const int32 = (minimum: number, maximum: number): Codec<number> =>
  integer({ format: 'int32', minimum, maximum });
/** A member only records of these types have (kit/fields.ts `appliesTo`). */
export const forTypes = (
  ...values: readonly RecordTypeName[]
): { field: 'type'; values: typeof values } => ({ field: 'type', values });

/** The members of a record both kinds manage, in the order the plan lists them. */
export const RECORD_MEMBERS = [
  field('type', enumByIndex(RECORD_TYPES), {
    api: 'Type',
    write: 'create',
    required: true,
    status: 'type',
    bounds: (docs) => ({ enum: docs.xEnumNames('core', 'DnsRecordTypes') }),
    description: 'Record type. Immutable.',
  }),
  field('name', recordName(), {
    api: 'Name',
    required: true,
    unset: '',
    status: 'name',
    schema: {
      pattern:
        '^(@|(\\*\\.)?([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*|\\*)?$',
    },
    description:
      'Name relative to the zone, without the domain and without trailing dot (`www`, `_sip._tcp`); `""` or `@` is the apex, a leading `*` a wildcard.',
  }),
  field('value', text({ minLength: 1, maxLength: 4096 }), {
    api: 'Value',
    appliesTo: forTypes(...VALUE_TYPES),
    unset: '',
    status: 'value',
    description:
      'The record data, required for every type but PullZone and Script (whose value the platform fills in) unless the record is adopted (then it also selects the record adopted ByName; unset, the live value is kept): an IPv4 (A) or IPv6 (AAAA) address, a host name without trailing dot (CNAME, MX, Flatten, SRV, PTR, NS), any text (TXT), an http(s) URL (Redirect), the CA value (CAA), the RDATA (SVCB, HTTPS: `1 . alpn=h2`) or `usage selector matching-type hex` (TLSA).',
  }),
  field('ttl', int32(0, 2147483647), {
    api: 'Ttl',
    unset: 300,
    description: 'Time to live in seconds (platform default 300).',
  }),
  field('weight', int32(0, 65535), {
    api: 'Weight',
    appliesTo: forTypes('A', 'AAAA', 'SRV'),
    unset: 0,
    description:
      'Weight for load balancing between records of the same name: 0..100 for A and AAAA, 0..65535 for SRV. Other types have none.',
  }),
  field('priority', int32(0, 65535), {
    api: 'Priority',
    appliesTo: forTypes('MX', 'SRV'),
    unset: 0,
    description: 'Priority (MX and SRV records): lower is preferred.',
  }),
  field('port', int32(0, 65535), {
    api: 'Port',
    appliesTo: forTypes('SRV'),
    unset: 0,
    description: 'Target port (SRV records).',
  }),
  field('flags', int32(0, 255), {
    api: 'Flags',
    appliesTo: forTypes('CAA'),
    unset: 0,
    description: 'Flags (CAA records; 128 marks the tag critical).',
  }),
  field('tag', text({ pattern: '^[A-Za-z0-9]{1,15}$' }), {
    api: 'Tag',
    appliesTo: forTypes('CAA'),
    unset: '',
    description: 'Property tag (CAA records, required there): issue, issuewild, iodef, ...',
  }),
] as const;

/** The type name of a live record (`A`, `CNAME`, ...). */
export function typeNameOf(record: DnsRecord): string {
  return RECORD_TYPES[Number(record.Type)] ?? 'unknown';
}
