/**
 * The members of an inline record (an entry of `spec.records`): every DNS record's members
 * (shared/dns-record-fields.ts, the DnsRecord kind's too), which are the same platform members, sent, compared and named in
 * errors the same way (a member that does not apply to the entry's type is neither sent nor
 * compared), described for an entry of the zone's list with its own words and bounds.
 */
import type { DnsRecord, DnsRecordAddRequest } from '../../cdn/dns-types.js';
import type { ManagedObject } from '../../runtime/types.js';
import { RECORD_MEMBERS } from '../shared/dns-record-fields.js';
import {
  compareFields,
  createBody,
  fieldOf,
  type AnyField,
  type FieldsDiff,
} from '../kit/fields.js';
import type { DocumentBounds, Schema } from '../shared/crd-schema.js';
import type { DnsZoneRecordSpec } from './types.js';

type Member = 'type' | 'name' | 'value' | 'ttl' | 'priority' | 'weight' | 'port' | 'flags' | 'tag';
type Listed<S extends Member> = Omit<
  Extract<(typeof RECORD_MEMBERS)[number], { spec: S }>,
  'write' | 'status' | 'required' | 'bounds' | 'schema' | 'description'
> & { readonly description: string };

/** What a listed record's member does not take from the DnsRecord field. */
const DROPPED = new Set(['write', 'status', 'required', 'bounds', 'schema', 'description']);

/** The DnsRecord field `spec` as a member of a listed record: CRD type `schema`, own words. */
function member<S extends Member>(spec: S, schema: Schema, description: string): Listed<S> {
  const entries = Object.entries(fieldOf(RECORD_MEMBERS, spec));
  const shared = Object.fromEntries(entries.filter(([k]) => !DROPPED.has(k))) as AnyField;
  return { ...shared, codec: { ...shared.codec, schema }, description } as unknown as Listed<S>;
}

const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });

/** Record types of the document an inline record may have (never PullZone or Script). */
function inlineTypes(docs: DocumentBounds): Schema {
  const all = docs.xEnumNames('core', 'DnsRecordTypes');
  return { enum: all.filter((t) => t !== 'PullZone' && t !== 'Script') };
}

export const INLINE_RECORD_FIELDS = [
  {
    ...member(
      'type',
      { type: 'string' },
      'Record type. PullZone and Script records link another resource: declare them as DnsRecord objects.',
    ),
    required: true,
    bounds: inlineTypes,
  },
  {
    ...member(
      'name',
      { type: 'string', maxLength: 253 },
      'Name relative to the zone (www, _dmarc); empty or @ is the apex. Case-insensitive.',
    ),
    defaultOf: () => '',
  },
  {
    ...member(
      'value',
      { type: 'string', minLength: 1, maxLength: 4096 },
      'Value: an address (A, AAAA), a host name without trailing dot (CNAME, MX, NS, PTR, Flatten, SRV target), text (TXT), a URL (Redirect), the CA value (CAA) or the RDATA (SVCB, HTTPS, TLSA).',
    ),
    required: true,
  },
  member(
    'ttl',
    int(0, 2147483647),
    'TTL in seconds. Unset: the platform default (300) on create, then left as it is.',
  ),
  member('priority', int(0, 65535), 'Priority of an MX or SRV record.'),
  member(
    'weight',
    int(0, 65535),
    'Weight of an SRV record, or of an A/AAAA record for load balancing (0..100).',
  ),
  member('port', int(0, 65535), 'Port of an SRV record.'),
  member('flags', int(0, 255), 'Flags of a CAA record.'),
  member(
    'tag',
    { type: 'string', maxLength: 255 },
    'Tag of a CAA record (issue, issuewild, iodef).',
  ),
] as const;

/** An entry as the object the kit's field functions read. */
function entryObject(spec: DnsZoneRecordSpec): ManagedObject {
  return { apiVersion: '', kind: '', metadata: { name: '', namespace: '' }, spec };
}

/** The add body of an entry (`PUT /dnszone/{id}/records`). */
export function addBodyOf(spec: DnsZoneRecordSpec): DnsRecordAddRequest {
  return createBody(INLINE_RECORD_FIELDS, entryObject(spec));
}

/** The members of an entry that differ from its live record, and the update that fixes them. */
export function compareEntry(spec: DnsZoneRecordSpec, live: DnsRecord): FieldsDiff {
  return compareFields(INLINE_RECORD_FIELDS, entryObject(spec), live, 'DNS record');
}
