/**
 * The members of an inline record (an entry of `spec.records`): every DNS record's members
 * (shared/dns-record-fields.ts, the DnsRecord kind's too), restated for an entry of the zone's
 * list with its own words and bounds (kit/restated.ts): the same platform members, sent,
 * compared and named in errors the same way (a member that does not apply to the entry's type
 * is neither sent nor compared). The list itself: records.ts.
 */
import { restated } from '../kit/restated.js';
import type { DocumentBounds, Schema } from '../shared/crd-schema.js';
import { RECORD_MEMBERS } from '../shared/dns-record-fields.js';

const int = (minimum: number, maximum: number): Schema => ({ type: 'integer', minimum, maximum });

/** Record types of the document an inline record may have (never PullZone or Script). */
function inlineTypes(docs: DocumentBounds): Schema {
  const all = docs.xEnumNames('core', 'DnsRecordTypes');
  return { enum: all.filter((t) => t !== 'PullZone' && t !== 'Script') };
}

export const INLINE_RECORD_FIELDS = [
  {
    ...restated(
      RECORD_MEMBERS,
      'type',
      { type: 'string' },
      'Record type. PullZone and Script records link another resource: declare them as DnsRecord objects.',
    ),
    required: true,
    bounds: inlineTypes,
  },
  {
    ...restated(
      RECORD_MEMBERS,
      'name',
      { type: 'string', maxLength: 253 },
      'Name relative to the zone (www, _dmarc); empty or @ is the apex. Case-insensitive.',
    ),
    defaultOf: () => '',
  },
  {
    ...restated(
      RECORD_MEMBERS,
      'value',
      { type: 'string', minLength: 1, maxLength: 4096 },
      'Value: an address (A, AAAA), a host name without trailing dot (CNAME, MX, NS, PTR, Flatten, SRV target), text (TXT), a URL (Redirect), the CA value (CAA) or the RDATA (SVCB, HTTPS, TLSA).',
    ),
    required: true,
  },
  restated(
    RECORD_MEMBERS,
    'ttl',
    int(0, 2147483647),
    'TTL in seconds. Unset: the platform default (300) on create, then left as it is.',
  ),
  restated(RECORD_MEMBERS, 'priority', int(0, 65535), 'Priority of an MX or SRV record.'),
  restated(
    RECORD_MEMBERS,
    'weight',
    int(0, 65535),
    'Weight of an SRV record, or of an A/AAAA record for load balancing (0..100).',
  ),
  restated(RECORD_MEMBERS, 'port', int(0, 65535), 'Port of an SRV record.'),
  restated(RECORD_MEMBERS, 'flags', int(0, 255), 'Flags of a CAA record.'),
  restated(
    RECORD_MEMBERS,
    'tag',
    { type: 'string', maxLength: 255 },
    'Tag of a CAA record (issue, issuewild, iodef).',
  ),
] as const;
