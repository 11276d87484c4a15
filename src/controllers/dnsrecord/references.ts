/**
 * What a DnsRecord refers to: its zone (`spec.zoneRef`, a DnsZone in the same namespace, whose
 * `status.dnsZoneId` is read from the informer cache, or a raw `spec.dnsZoneId`) and, for a
 * PullZone record, the pull zone it links (`spec.pullZoneRef`, a PullZoneConfig in the same
 * namespace, or a raw `spec.pullZoneId`). A raw id is a reference like a `*Ref`: the runtime
 * refuses it (ReferenceNotAllowed, nothing sent) when another namespace manages that resource.
 * While a referenced object is missing or has no id yet the record waits (ReferenceNotReady);
 * the runtime's reference watch re-enqueues it when that object changes.
 */
import { GROUP_VERSION } from '../../api-group.js';
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectContext,
  IdReference,
  ManagedObject,
  ObjectReference,
} from '../../runtime/types.js';
import { typeMetaOf } from '../kind-names.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import type { DnsRecord } from './types.js';

/** Kind of the DnsZone objects `spec.zoneRef` names (built in its own folder). */
export const DNS_ZONE_KIND = 'DnsZone';
/** Claim type of DNS zones (the DnsZone kind's). */
export const DNS_ZONE_CLAIM = 'DnsZone';
/** Claim type of pull zones (the PullZoneConfig kind's). */
export const PULL_ZONE_CLAIM = PULL_ZONE_CONFIG_NAMES.kind;

function refOf(obj: DnsRecord, kind: string, name: unknown): ObjectReference | undefined {
  if (typeof name !== 'string' || name === '') return undefined;
  return { apiVersion: GROUP_VERSION, kind, namespace: obj.metadata.namespace, name };
}

/** The DnsZone of `spec.zoneRef`, if any. */
export function zoneReference(obj: DnsRecord): ObjectReference | undefined {
  return refOf(obj, DNS_ZONE_KIND, obj.spec?.zoneRef?.name);
}

/** The PullZoneConfig of `spec.pullZoneRef`, if any. */
export function pullZoneReference(obj: DnsRecord): ObjectReference | undefined {
  const ref = refOf(obj, PULL_ZONE_CONFIG_NAMES.kind, obj.spec?.pullZoneRef?.name);
  return ref ? { ...ref, ...typeMetaOf(PULL_ZONE_CONFIG_NAMES) } : undefined;
}

/** The objects a DnsRecord depends on (a change re-enqueues it). */
export function objectReferences(obj: DnsRecord): ObjectReference[] {
  return [zoneReference(obj), pullZoneReference(obj)].filter(
    (r): r is ObjectReference => r !== undefined,
  );
}

/** The raw ids the spec names (checked by the runtime like a `*Ref`). */
export function idReferencesOf(obj: DnsRecord): IdReference[] {
  const out: IdReference[] = [];
  const zone = parseIntegerId(obj.spec?.dnsZoneId);
  if (zone !== undefined)
    out.push({ field: 'spec.dnsZoneId', type: DNS_ZONE_CLAIM, id: String(zone) });
  const pullZone = parseIntegerId(obj.spec?.pullZoneId);
  if (pullZone !== undefined)
    out.push({ field: 'spec.pullZoneId', type: PULL_ZONE_CLAIM, id: String(pullZone) });
  return out;
}

interface Target {
  refField: string;
  idField: string;
  ref: ObjectReference | undefined;
  direct: unknown;
  statusField: string;
}

function accountOf(o: ManagedObject): unknown {
  return (o.status?.ownership as { account?: unknown } | undefined)?.account;
}

function resolve(t: Target, getObject: ConnectContext['getObject'], account: string): number {
  const refField = t.refField;
  if (t.ref === undefined) {
    const id = parseIntegerId(t.direct);
    if (id !== undefined) return id;
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot resolve spec.${t.idField} ${JSON.stringify(t.direct)}: expected a positive integer`,
    );
  }
  const found = getObject(t.ref);
  const id = parseIntegerId(found?.status?.[t.statusField]);
  if (!found || id === undefined) {
    throw new WaitingError(
      ReadyReason.ReferenceNotReady,
      `cannot resolve spec.${refField}: ${t.ref.kind} ${t.ref.namespace}/${t.ref.name} ${
        found ? `has no status.${t.statusField} yet` : 'was not found'
      }`,
    );
  }
  const theirs = accountOf(found);
  if (typeof theirs === 'string' && theirs !== account) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot use spec.${refField}: ${t.ref.kind} ${t.ref.namespace}/${t.ref.name} lives in another account than this DnsRecord (use the same accountRef or credentialsRef on both)`,
    );
  }
  return id;
}

/** What a record's references resolve to. */
export interface ResolvedRefs {
  /** The zone id; undefined only while deleting a record whose zone is gone unrecorded. */
  zoneId?: number;
  /** The pull zone a PullZone record links. */
  pullZoneId?: number;
}

/** While deleting: the zone recorded in status (or given by id), never a lookup. */
function recordedRefs(obj: DnsRecord): ResolvedRefs {
  const zoneId = parseIntegerId(obj.status?.dnsZoneId) ?? parseIntegerId(obj.spec?.dnsZoneId);
  return zoneId === undefined ? {} : { zoneId };
}

/**
 * Resolves the zone and the linked pull zone (see the module comment). While the object is
 * being deleted, the ids recorded in its status stand in: deletion never waits for a reference.
 */
export function resolveReferences(
  obj: DnsRecord,
  getObject: ConnectContext['getObject'],
  account: string,
): ResolvedRefs {
  const spec = obj.spec;
  if (isDeleting(obj)) return recordedRefs(obj);
  const zone = zoneReference(obj);
  if ((zone === undefined) === (spec?.dnsZoneId === undefined)) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      'cannot resolve the zone: set exactly one of spec.zoneRef and spec.dnsZoneId',
    );
  }
  const zoneId = resolve(
    {
      refField: 'zoneRef',
      idField: 'dnsZoneId',
      ref: zone,
      direct: spec?.dnsZoneId,
      statusField: 'dnsZoneId',
    },
    getObject,
    account,
  );
  if (spec?.type !== 'PullZone') return { zoneId };
  return { zoneId, pullZoneId: resolveLinkedPullZone(obj, getObject, account) };
}

function resolveLinkedPullZone(
  obj: DnsRecord,
  getObject: ConnectContext['getObject'],
  account: string,
): number {
  const pz = pullZoneReference(obj);
  const direct = obj.spec?.pullZoneId;
  if ((pz === undefined) === (direct === undefined)) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      'cannot resolve the linked pull zone: a PullZone record needs exactly one of spec.pullZoneRef and spec.pullZoneId',
    );
  }
  return resolve(
    { refField: 'pullZoneRef', idField: 'pullZoneId', ref: pz, direct, statusField: 'pullZoneId' },
    getObject,
    account,
  );
}
