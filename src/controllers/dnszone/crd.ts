/**
 * The DnsZone CRD schema: the field table's properties (fields.ts), the inline records (their
 * members: record-fields.ts) and the rules across fields; account, adoption and status
 * fragments are shared with the other kinds. Rendered by hack/generate-crds.ts.
 */
import { schemaOf } from '../kit/fields.js';
import { accountFragment } from '../shared/account-schema.js';
import {
  managedColumns,
  withFragments,
  type DocumentBounds,
  type KindSchema,
  type Schema,
} from '../shared/crd-schema.js';
import { adoptionFragment } from '../shared/ownership-schema.js';
import { managedStatusSchema } from '../shared/status-schema.js';
import { DNS_ZONE_FIELDS } from './fields.js';
import { INLINE_RECORD_FIELDS } from './record-fields.js';

/** At most this many inline records: bigger zones use DnsRecord objects. */
export const MAX_INLINE_RECORDS = 50;

function ownSpec(docs: DocumentBounds): Schema {
  const { properties } = schemaOf(DNS_ZONE_FIELDS, docs);
  const record = schemaOf(INLINE_RECORD_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one DNS zone: its settings, DNSSEC and (for small static zones) its records. The domain is fixed when the zone is created. Settings left unset are left as they are on the platform.',
    properties: {
      ...properties,
      records: {
        type: 'array',
        maxItems: MAX_INLINE_RECORDS,
        // No member names a record (type, name and value do together): replaced whole.
        'x-kubernetes-list-type': 'atomic',
        description:
          'Records of a small static zone, listed here. Records teams own are better declared as DnsRecord objects (one per record); a record a DnsRecord object manages is never listed, changed or deleted through the zone.',
        items: {
          type: 'object',
          description:
            'One record of the zone. It is the live record of the same type, name and value (created when there is none; adopted when there is one).',
          ...record,
        },
      },
    },
    'x-kubernetes-validations': [
      {
        rule: 'has(self.domain) || (has(self.adoption) && has(self.adoption.id))',
        message: 'domain is required unless the zone is adopted by id (adoption.id)',
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
      adoptionFragment('DNS zone', 'spec.domain', {
        schema: { type: 'integer', format: 'int64', minimum: 1 },
        description:
          'Adopt the existing DNS zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
      }),
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
