/**
 * The DnsZone CRD schema: our own field descriptions, with the enum names (record types, log
 * anonymization types, certificate key types) read from the official core document at
 * generation time, so the CRD cannot drift from what the platform accepts. Account, adoption
 * and status fragments are shared with the other kinds. Rendered by hack/generate-crds.ts.
 */
import { accountFragment } from '../shared/account-schema.js';
import {
  managedColumns,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment, adoptionIdFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { INLINE_RECORD_TYPES } from './types.js';

/** At most this many inline records: bigger zones use DnsRecord objects. */
export const MAX_INLINE_RECORDS = 50;

const HOST_PATTERN = '^([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9-]{2,63}\\.?$';

/** The record types of the document an inline record may have (never PullZone or Script). */
function inlineTypes(docs: DocumentBounds): string[] {
  const all = docs.xEnumNames('core', 'DnsRecordTypes');
  const missing = INLINE_RECORD_TYPES.filter((t) => !all.includes(t));
  if (missing.length > 0)
    throw new Error(
      `cannot build DnsZone CRD: record types ${missing.join(', ')} not in the document`,
    );
  return all.filter((t) => (INLINE_RECORD_TYPES as readonly string[]).includes(t));
}

function recordSchema(docs: DocumentBounds): Schema {
  const int = (min: number, max: number, description: string): Schema => ({
    type: 'integer',
    minimum: min,
    maximum: max,
    description,
  });
  return {
    type: 'object',
    description:
      'One record of the zone. It is the live record of the same type, name and value (created when there is none; adopted when there is one).',
    required: ['type', 'value'],
    properties: {
      type: {
        type: 'string',
        enum: inlineTypes(docs),
        description:
          'Record type. PullZone and Script records link another resource: declare them as DnsRecord objects.',
      },
      name: {
        type: 'string',
        maxLength: 253,
        description:
          'Name relative to the zone (www, _dmarc); empty or @ is the apex. Case-insensitive.',
      },
      value: {
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        description:
          'Value: an address (A, AAAA), a host name without trailing dot (CNAME, MX, NS, PTR, Flatten, SRV target), text (TXT), a URL (Redirect), the CA value (CAA) or the RDATA (SVCB, HTTPS, TLSA).',
      },
      ttl: int(
        0,
        2147483647,
        'TTL in seconds. Unset: the platform default (300) on create, then left as it is.',
      ),
      priority: int(0, 65535, 'Priority of an MX or SRV record.'),
      weight: int(
        0,
        65535,
        'Weight of an SRV record, or of an A/AAAA record for load balancing (0..100).',
      ),
      port: int(0, 65535, 'Port of an SRV record.'),
      flags: int(0, 255, 'Flags of a CAA record.'),
      tag: {
        type: 'string',
        maxLength: 255,
        description: 'Tag of a CAA record (issue, issuewild, iodef).',
      },
    },
  };
}

function ownSpec(docs: DocumentBounds): Schema {
  return {
    type: 'object',
    description:
      'Desired state of one DNS zone: its settings, DNSSEC and (for small static zones) its records. The domain is fixed when the zone is created. Settings left unset are left as they are on the platform.',
    properties: {
      domain: {
        type: 'string',
        minLength: 3,
        maxLength: 253,
        pattern: HOST_PATTERN,
        description:
          'The domain of the zone (example.com), compared case-insensitively like the platform does. Required to create a zone; a domain that already has a zone is reported as Synced=False NameTaken unless spec.adoption asks to adopt it. Immutable.',
        'x-kubernetes-validations': [
          {
            rule: 'self.lowerAscii() == oldSelf.lowerAscii()',
            message: 'domain is immutable: a zone cannot change its domain; create a new DnsZone',
          },
        ],
      },
      soaEmail: {
        type: 'string',
        maxLength: 254,
        pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
        description:
          'Contact e-mail address of the SOA record. The platform keeps its own (hostmaster@bunny.net) unless custom nameservers are on, so this needs customNameservers.enabled: true.',
      },
      customNameservers: {
        type: 'object',
        description:
          "Nameservers the zone announces. Off: the platform's (kiki.bunny.net, coco.bunny.net).",
        required: ['enabled'],
        properties: {
          enabled: {
            type: 'boolean',
            description: 'Announce ns1 and ns2 instead of the platform nameservers.',
          },
          ns1: {
            type: 'string',
            maxLength: 253,
            pattern: HOST_PATTERN,
            description: 'First nameserver (a host name).',
          },
          ns2: {
            type: 'string',
            maxLength: 253,
            pattern: HOST_PATTERN,
            description: 'Second nameserver (a host name).',
          },
        },
      },
      logging: {
        type: 'object',
        description: 'Query logging of the zone.',
        required: ['enabled'],
        properties: {
          enabled: { type: 'boolean', description: 'Log the queries the zone answers.' },
          ipAnonymization: {
            type: 'boolean',
            description:
              'Anonymize the client IP addresses in the logs (only while logging is enabled).',
          },
          anonymizationType: {
            type: 'string',
            enum: docs.xEnumNames('core', 'LogAnonymizationType'),
            description:
              'How addresses are anonymized: OneDigit drops the last digit group, Drop removes the address.',
          },
        },
      },
      certificateKeyType: {
        type: 'string',
        enum: docs.xEnumNames('core', 'PrivateKeyType'),
        description: "Key type of the zone's wildcard certificate.",
      },
      dnssec: {
        type: 'boolean',
        description:
          'Sign the zone with DNSSEC (true) or not (false); unset leaves it as it is. While on, status.dnssec holds the DS record to give the registrar. Turning it off and on again creates a new key: update the registrar.',
      },
      records: {
        type: 'array',
        maxItems: MAX_INLINE_RECORDS,
        description:
          'Records of a small static zone, listed here. Records teams own are better declared as DnsRecord objects (one per record); a record a DnsRecord object manages is never listed, changed or deleted through the zone.',
        items: recordSchema(docs),
      },
      recordPolicy: {
        type: 'string',
        enum: ['Additive', 'Exact'],
        default: 'Additive',
        description:
          'Additive: records not in spec.records are left alone (records this resource created are deleted when dropped from the list). Exact: every record neither in spec.records nor managed by a DnsRecord object is deleted.',
      },
    },
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.dnsZoneId) && has(self.adoption))',
        message: 'set either dnsZoneId (adopt by id) or adoption (adopt by domain), not both',
      },
      {
        rule: 'has(self.domain) || has(self.dnsZoneId)',
        message: 'domain is required unless the zone is adopted by dnsZoneId',
      },
      {
        rule: '!has(self.soaEmail) || (has(self.customNameservers) && self.customNameservers.enabled)',
        message:
          'soaEmail needs customNameservers.enabled: true (the platform keeps its own SOA contact otherwise)',
      },
    ],
  };
}

const DS_FIELDS: Record<string, Schema> = {
  enabled: { type: 'boolean', description: 'DNSSEC is on.' },
  dsRecord: { type: 'string', description: 'The whole DS record, as a registrar takes it.' },
  algorithm: { type: 'integer', description: 'DNSSEC algorithm number (13: ECDSA P-256 SHA-256).' },
  digest: { type: 'string', description: 'Digest of the key signing key (hex).' },
  digestType: { type: 'string', description: 'Digest type, e.g. SHA256 (2).' },
  keyTag: { type: 'integer', description: 'Key tag of the key signing key.' },
  flags: { type: 'integer', description: 'Flags of the key signing key (257).' },
  publicKey: { type: 'string', description: 'Public key of the key signing key (base64).' },
};

function statusProperties(): Record<string, Schema> {
  return {
    dnsZoneId: { type: 'integer', format: 'int64', description: 'Id of the managed DNS zone.' },
    domain: { type: 'string', description: 'Domain of the zone on the platform.' },
    nameservers: {
      type: 'array',
      items: { type: 'string' },
      description: 'Nameservers the zone announces (delegate the domain to them).',
    },
    nameserversDetected: {
      type: 'boolean',
      description: "The platform sees the domain delegated to the zone's nameservers.",
    },
    dnssec: {
      type: 'object',
      description: 'DNSSEC state and, while on, the DS record for the registrar.',
      properties: DS_FIELDS,
    },
    records: {
      type: 'array',
      description: 'The platform record of each entry of spec.records found live.',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', description: 'Record type.' },
          name: { type: 'string', description: 'Relative name (empty: the apex).' },
          value: { type: 'string', description: 'Value.' },
          id: { type: 'integer', format: 'int64', description: 'Platform id of the record.' },
          created: {
            type: 'boolean',
            description:
              'This resource created the record (deleted when dropped from spec.records).',
          },
        },
      },
    },
    recordCount: {
      type: 'integer',
      description: 'Number of records the zone has on the platform.',
    },
  };
}

/** The DnsZone schema (dnszones). */
export function dnsZoneSchema(docs: DocumentBounds): KindSchema {
  return {
    description: 'A bunny.net DNS zone managed by cdn-operator.',
    requireSpec: true,
    categories: ['cdn'],
    spec: withFragments(ownSpec(docs), [
      accountFragment(),
      adoptionIdFragment(
        'dnsZoneId',
        { type: 'integer', format: 'int64', minimum: 1 },
        'Adopt the existing DNS zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
      ),
      adoptionFragment('DNS zone', 'spec.domain'),
    ]),
    status: managedStatusSchema({
      description: 'Observed state of the DNS zone.',
      resource: 'DNS zone',
      conditions: 'Ready (the zone matches the spec) and Synced (the last reconcile succeeded).',
      properties: statusProperties(),
    }),
    columns: managedColumns(
      {
        name: 'ID',
        type: 'integer',
        description: 'Id of the DNS zone.',
        jsonPath: '.status.dnsZoneId',
      },
      { name: 'DOMAIN', type: 'string', description: 'Domain.', jsonPath: '.status.domain' },
      {
        name: 'DNSSEC',
        type: 'boolean',
        description: 'DNSSEC is on.',
        jsonPath: '.status.dnssec.enabled',
      },
      {
        name: 'RECORDS',
        type: 'integer',
        description: 'Number of records.',
        jsonPath: '.status.recordCount',
      },
    ),
  };
}
