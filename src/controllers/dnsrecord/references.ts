/**
 * What a DnsRecord refers to (kit/ref-or-id.ts): its zone (`spec.dnsZoneRef`, a DnsZone in the
 * same namespace, or a raw `spec.dnsZoneId`) and, for a PullZone record, the pull zone it links
 * (`spec.pullZoneRef`, a PullZoneConfig in the same namespace, or a raw `spec.pullZoneId`).
 * While the object is deleted, the zone its status recorded stands in: deletion never waits.
 */
import { isDeleting } from '../../runtime/finalizer.js';
import type { ConnectContext, IdReference, ObjectReference } from '../../runtime/types.js';
import { DNS_ZONE_NAMES } from '../dnszone/types.js';
import { idReferenceOf, objectRefOf, resolveRefOrId, type RefOrId } from '../kit/ref-or-id.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { parseIntegerId } from '../shared/platform-id.js';
import type { DnsRecord } from './types.js';

/** The zone that holds the record. */
export const ZONE: RefOrId = {
  ref: 'dnsZoneRef',
  id: 'dnsZoneId',
  kind: DNS_ZONE_NAMES,
  statusId: 'dnsZoneId',
  claimType: DNS_ZONE_NAMES.kind,
};
/** The pull zone a PullZone record links. */
export const PULL_ZONE: RefOrId = {
  ref: 'pullZoneRef',
  id: 'pullZoneId',
  kind: PULL_ZONE_CONFIG_NAMES,
  statusId: 'pullZoneId',
  claimType: PULL_ZONE_CONFIG_NAMES.kind,
};

/** The objects a DnsRecord depends on (a change re-enqueues it). */
export function objectReferences(obj: DnsRecord): ObjectReference[] {
  return [ZONE, PULL_ZONE].flatMap((r) => objectRefOf(obj, r) ?? []);
}

/** The raw ids the spec names (checked by the runtime like a `*Ref`). */
export function idReferencesOf(obj: DnsRecord): IdReference[] {
  return [ZONE, PULL_ZONE].flatMap((r) => idReferenceOf(obj, r) ?? []);
}

/** What a record's references resolve to. */
export interface ResolvedRefs {
  /** The zone id; undefined only while deleting a record whose zone is gone unrecorded. */
  zoneId?: number;
  /** The pull zone a PullZone record links. */
  pullZoneId?: number;
}

/** Resolves the zone and the linked pull zone (see the module comment). */
export function resolveReferences(
  obj: DnsRecord,
  getObject: ConnectContext['getObject'],
  account: string,
): ResolvedRefs {
  if (isDeleting(obj)) {
    const zoneId = parseIntegerId(obj.status?.dnsZoneId) ?? parseIntegerId(obj.spec?.dnsZoneId);
    return zoneId === undefined ? {} : { zoneId };
  }
  const zoneId = resolveRefOrId(obj, ZONE, getObject, account);
  if (obj.spec?.type !== 'PullZone') return { zoneId };
  return { zoneId, pullZoneId: resolveRefOrId(obj, PULL_ZONE, getObject, account) };
}
