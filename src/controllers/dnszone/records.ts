/**
 * A zone's inline records (`spec.records`, `spec.recordPolicy`) as a keyed child list of the
 * zone (kit/child-list.ts; its rules: kit/child-plan.ts). A listed record is the live record of
 * the same type, name (case-insensitive, `@` = apex) and value, adopted by content, never
 * duplicated; its TTL, priority, weight, port, flags and tag are compared when listed and
 * updated in place. A record a DnsRecord object claims, by id or by content, is never created,
 * changed (RecordManagedElsewhere) or deleted (record-sweep.ts: also a record a DnsRecord of the
 * zone's namespace declares and may be creating).
 */
import type { ChildList } from '../kit/child-list.js';
import {
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  dnsRecordContentKey,
} from '../shared/dns-record-claims.js';
import { INLINE_RECORD_FIELDS } from './record-fields.js';
import { managedRecordIds } from './record-sweep.js';
import type { RecordContent } from './types.js';

/** Reason of Synced=False while a listed record is managed by another object. */
export const RecordManagedElsewhere = 'RecordManagedElsewhere';

/** See the module comment. */
export const ZONE_RECORDS: ChildList<RecordContent> = {
  path: 'records',
  policyPath: 'recordPolicy',
  what: 'record',
  parentWhat: 'zone',
  fields: INLINE_RECORD_FIELDS,
  keyMembers: ['type', 'name', 'value'],
  liveApi: 'Records',
  idApi: 'Id',
  countStatus: 'recordCount',
  keyOf: (zoneId, r) => dnsRecordContentKey(zoneId, r.type, r.name, r.value),
  label: (r) => `${r.type} ${r.name === '' ? '@' : r.name} ${JSON.stringify(r.value)}`,
  claims: { id: DNS_RECORD_CLAIM, content: DNS_RECORD_CONTENT_CLAIM, holder: 'a DnsRecord' },
  managedElsewhere: ({ parentId, parent, claimantsOf, live }) =>
    managedRecordIds({ zoneId: parentId, zone: parent, claimantsOf }, live),
  conflictReason: RecordManagedElsewhere,
};
