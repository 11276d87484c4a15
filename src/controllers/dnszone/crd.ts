/**
 * The DnsZone CRD schema: the field table's properties (fields.ts), the inline records (their
 * list: records.ts, their members: record-fields.ts), the DS record (status.ts) and the rules
 * across fields; account, adoption and status fragments are shared with the other kinds.
 * Rendered by hack/generate-crds.ts.
 */
import { childListSchema, childStatusSchema } from '../kit/child-list.js';
import { schemaOf } from '../kit/fields.js';
import type { DocumentBounds, KindSchema, Schema } from '../shared/crd-schema.js';
import { managedKindSchema } from '../shared/managed-spec.js';
import {
  booleanSchema,
  int64Schema,
  objectSchema,
  statusColumn,
  stringSchema,
} from '../shared/schema-nodes.js';
import { DNS_ZONE_FIELDS } from './fields.js';
import { ZONE_RECORDS } from './records.js';
import { DS_FIELDS } from './status.js';
import type { KindPart } from '../kit/kind-parts.js';

/** At most this many inline records: bigger zones use DnsRecord objects. */
export const MAX_INLINE_RECORDS = 50;

function ownSpec(docs: DocumentBounds): Schema {
  const { properties } = schemaOf(DNS_ZONE_FIELDS, docs);
  return {
    type: 'object',
    description:
      'Desired state of one DNS zone: its settings, DNSSEC and (for small static zones) its records. The domain is fixed when the zone is created. Settings left unset are left as they are on the platform.',
    properties: {
      ...properties,
      records: childListSchema(ZONE_RECORDS, docs, {
        maxItems: MAX_INLINE_RECORDS,
        description:
          'Records of a small static zone, listed here. Records teams own are better declared as DnsRecord objects (one per record); a record a DnsRecord object manages is never listed, changed or deleted through the zone.',
        entry:
          'One record of the zone. It is the live record of the same type, name and value (created when there is none; adopted when there is one).',
      }),
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

function statusProperties(docs: DocumentBounds): Record<string, Schema> {
  return {
    dnsZoneId: int64Schema('Id of the managed DNS zone.'),
    domain: stringSchema('Domain of the zone on the platform.'),
    nameservers: {
      type: 'array',
      items: { type: 'string' },
      description: 'Nameservers the zone announces (delegate the domain to them).',
    },
    nameserversDetected: booleanSchema(
      "The platform sees the domain delegated to the zone's nameservers.",
    ),
    dnssec: objectSchema(schemaOf(DS_FIELDS, docs).properties, {
      description: 'DNSSEC state and, while on, the DS record for the registrar.',
    }),
    records: childStatusSchema(
      ZONE_RECORDS,
      'The platform record of each entry of spec.records found live.',
    ),
    recordCount: {
      type: 'integer',
      description: 'Number of records the zone has on the platform.',
    },
  };
}

/** The DnsZone schema (dnszones). */
export function dnsZoneSchema(docs: DocumentBounds): KindSchema {
  return managedKindSchema({
    description: 'A bunny.net DNS zone managed by cdn-operator.',
    spec: ownSpec(docs),
    idDescription:
      'Adopt the existing DNS zone with this id (refused when another object manages it). The operator never creates a zone when this is set. Immutable.',
    what: 'DNS zone',
    nameField: 'spec.domain',
    status: {
      description: 'Observed state of the DNS zone.',
      conditions: 'Ready (the zone matches the spec) and Synced (the last reconcile succeeded).',
      properties: statusProperties(docs),
    },
    columns: [
      statusColumn('ID', 'integer', 'Id of the DNS zone.', 'dnsZoneId'),
      statusColumn('DOMAIN', 'string', 'Domain.', 'domain'),
      statusColumn('DNSSEC', 'boolean', 'DNSSEC is on.', 'dnssec.enabled'),
      statusColumn('RECORDS', 'integer', 'Number of records.', 'recordCount'),
    ],
  });
}

/** The kind's CRD schema, under its part's name (kit/kind-parts.ts). */
export const schema: KindPart<'schema'> = dnsZoneSchema;
