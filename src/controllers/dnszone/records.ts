/**
 * A zone's inline records (`spec.records`, `spec.recordPolicy`) as a keyed child list of the
 * zone (kit/child-list.ts: planned by kit/child-plan.ts, applied by kit/child-external.ts):
 *
 * - A listed record is the live record of the same type, name (case-insensitive, `@` = apex)
 *   and value: a record created earlier, one whose create answer was lost, or one that was
 *   already there are all adopted by content, never duplicated. Its TTL, priority, weight,
 *   port, flags and tag are compared when listed, and updated in place.
 * - A listed record that is not live is created, unless `status.records` shows this object
 *   adopted it (an entry without `created`); an adopted record that is gone is reported
 *   NotFound, never created again.
 * - A listed record whose content or id a DnsRecord object claims is a conflict
 *   (RecordManagedElsewhere): neither created nor changed.
 * - `Additive` (default): records not listed are left alone, except records this object
 *   created that were dropped from the list, which are deleted. `Exact`: every record neither
 *   listed nor managed by another object is deleted. A record another object manages
 *   (record-sweep.ts: claimed by id, or declared by a DnsRecord of the zone's namespace that
 *   may be creating it) is never deleted.
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
