/**
 * The claims of a DnsRecord in the runtime's claim index, from the object alone (no pass
 * needed; the claim types are described in shared/dns-record-claims.ts):
 *
 * - its record id (`DnsRecord`), from `spec.adoption.id` or the id its status records;
 * - the content its status records (`DnsRecordContent`: zone, type, name, value as read from
 *   the platform), recorded;
 * - unless it adopts by id or is being deleted, the record its spec declares on its zone
 *   (shared `DnsRecordDeclared`: by `spec.dnsZoneId`, or by the namespace and name of the
 *   DnsZone its `spec.dnsZoneRef` names), `recorded` once its status holds a record id. It is in
 *   the index from the informer's first event, before any pass can send the create, so a zone
 *   with `recordPolicy: Exact` never takes a record being created for an unmanaged one.
 *   PullZone and Script records, whose value the platform fills in, and an adoption by name
 *   without `spec.value` declare the type and name only (every value);
 * - the pull zone the platform created for it when accelerated (`PullZoneConfig`, recorded,
 *   against other namespaces only): no object of another namespace may adopt it by id, while a
 *   PullZoneConfig beside the record may manage its settings.
 *
 * Once connected, the content its spec asks for in its zone ({@link connectClaims}) is checked
 * before anything is sent (two objects never manage one record), not stored in the index.
 */
import { isDeleting } from '../../runtime/finalizer.js';
import type { ClaimRef } from '../../runtime/types.js';
import {
  declaredKeyByRef,
  declaredKeyByZone,
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  DNS_RECORD_DECLARED_CLAIM,
  dnsRecordContentKey,
} from '../shared/dns-record-claims.js';
import { PULL_ZONE_CLAIM } from '../shared/claim-types.js';
import { ADOPT_BY_NAME, adoptionIdOf, adoptionPolicyOf } from '../shared/ownership-schema.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { LINKED_TYPES, normalizeName } from '../shared/dns-record-fields.js';
import type { DnsRecord, DnsRecordSpec } from './types.js';

/**
 * The value a spec declares: undefined (every value) for a linked type or an adoption by name
 * without a value; null when the spec declares no record it could create or adopt (no value).
 */
function declaredValue(spec: DnsRecordSpec): string | undefined | null {
  if (LINKED_TYPES.includes(spec.type)) return undefined;
  if (typeof spec.value === 'string') return spec.value;
  return adoptionPolicyOf(spec) === ADOPT_BY_NAME ? undefined : null;
}

/**
 * The declared-record claim id of a DnsRecord, or undefined when it declares none: it adopts by
 * id (never creates), is being deleted, or its spec names no zone or no value it could create.
 */
export function declaredKeyOf(obj: DnsRecord): string | undefined {
  const spec = obj.spec;
  if (!spec || adoptionIdOf(spec) !== undefined || obj.metadata.deletionTimestamp) return undefined;
  if (typeof spec.type !== 'string') return undefined;
  const value = declaredValue(spec);
  if (value === null) return undefined;
  const name = normalizeName(spec.name);
  const zoneId = parseIntegerId(spec.dnsZoneId);
  if (zoneId !== undefined) return declaredKeyByZone(zoneId, spec.type, name, value);
  const zone = spec.dnsZoneRef?.name;
  if (typeof zone !== 'string' || zone === '') return undefined;
  return declaredKeyByRef(obj.metadata.namespace, zone, spec.type, name, value);
}

/** The content claim id of a spec in zone `zoneId`; undefined for linked types (value filled in). */
export function specContentKey(zoneId: number, spec: DnsRecordSpec): string | undefined {
  if (LINKED_TYPES.includes(spec.type) || spec.value === undefined) return undefined;
  return dnsRecordContentKey(zoneId, spec.type, normalizeName(spec.name), spec.value);
}

/** The content claim id of the record the status records, if it records one. */
function recordedContentKey(obj: DnsRecord): string | undefined {
  const status = obj.status ?? {};
  const zoneId = parseIntegerId(status.dnsZoneId);
  if (zoneId === undefined || status.type === undefined) return undefined;
  return dnsRecordContentKey(zoneId, status.type, status.name ?? '', status.value ?? '');
}

/** The content claim of the spec in its resolved zone (see the module comment). */
export function connectClaims(obj: DnsRecord, zoneId: number | undefined): ClaimRef[] {
  if (zoneId === undefined || !obj.spec || isDeleting(obj)) return [];
  const key = specContentKey(zoneId, obj.spec);
  if (key === undefined) return [];
  return [{ type: DNS_RECORD_CONTENT_CLAIM, id: key, recorded: recordedContentKey(obj) === key }];
}

/** See the module comment. */
export function dnsRecordClaimsOf(obj: DnsRecord): ClaimRef[] {
  const recordedId = parseIntegerId(obj.status?.recordId);
  const id = parseIntegerId(adoptionIdOf(obj.spec)) ?? recordedId;
  const out: ClaimRef[] = [];
  if (id !== undefined)
    out.push({ type: DNS_RECORD_CLAIM, id: String(id), recorded: recordedId === id });
  const content = recordedId !== undefined ? recordedContentKey(obj) : undefined;
  if (content !== undefined)
    out.push({ type: DNS_RECORD_CONTENT_CLAIM, id: content, recorded: true });
  const accelerated = parseIntegerId(obj.status?.acceleratedPullZoneId);
  const pullZone = { type: PULL_ZONE_CLAIM, recorded: true, scope: 'namespace' } as const;
  if (accelerated !== undefined) out.push({ ...pullZone, id: String(accelerated) });
  const declared = declaredKeyOf(obj);
  if (declared !== undefined) {
    const recorded = recordedId !== undefined;
    out.push({ type: DNS_RECORD_DECLARED_CLAIM, id: declared, recorded, shared: true });
  }
  return out;
}
