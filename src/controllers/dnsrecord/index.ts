/**
 * The DnsRecord kind on the kit (kit/crud-kind.ts): its fields (fields.ts), its identity and
 * what a record of a zone needs beyond a plain CRUD object (docs/dns.md):
 *
 * - the zone, resolved at connect (references.ts), is read whole (the API has no read of one
 *   record); a zone that does not exist is NotFound, never a create;
 * - record content is not unique: adoption by name takes the one record of the spec's type and
 *   name (and value when given); a create carries the provisional name in its comment, cleared
 *   or replaced by the update of the same pass;
 * - a PullZone record links the resolved pull zone (read back as `LinkName`); Ready=False
 *   `AccelerationPending` while the platform builds an accelerated record's pull zone;
 * - writes to one zone's records run one at a time in this process (also the DnsZone's);
 * - claims (claims.ts): the record id, the content, the declared record; once connected, the
 *   content the spec asks for in its zone.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { DnsRecord as RecordModel, DnsRecordAddRequest } from '../../cdn/dns-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason } from '../../runtime/reasons.js';
import type { ConnectContext, ManagedKind } from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import type { FieldsDiff } from '../kit/fields.js';
import { isProvisionalName, provisionalNameOf, type IdentityRules } from '../kit/identity.js';
import { DNS_RECORD_CLAIM } from '../shared/dns-record-claims.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { readUnlessGone } from '../shared/not-found.js';
import { renderValue } from '../shared/plan.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { checkSpec } from './checks.js';
import { connectClaims, dnsRecordClaimsOf } from './claims.js';
import { normalizeName, RECORD_TYPES } from '../shared/dns-record-fields.js';
import { RECORD_FIELDS } from './fields.js';
import {
  idReferencesOf,
  objectReferences,
  resolveReferences,
  type ResolvedRefs,
} from './references.js';
import { DNS_RECORD_NAMES, type DnsRecord, type DnsRecordStatus } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Reason of Ready=False while the platform builds an accelerated record's pull zone. */
export const AccelerationPending = 'AccelerationPending';
/** Status names in wire order: `DnsMonitoringStatus`, `AcceleratedStatus`. */
const MONITOR_STATUSES = ['Unknown', 'Online', 'Offline'] as const;
const ACCELERATION_STATUSES = ['None', 'Pending', 'Processing', 'Completed', 'Failed'] as const;

/** The name of a wire value in `names`, or the value as text when unknown. */
const nameOf = (names: readonly string[], value: unknown): string =>
  typeof value === 'number' ? (names[value] ?? String(value)) : (names[0] ?? '');

/** The spec's record in words, for messages (`A record "www" with value "192.0.2.1"`). */
function describeSpec(obj: DnsRecord): string {
  const spec = obj.spec!;
  const value = spec.value !== undefined ? ` with value ${JSON.stringify(spec.value)}` : '';
  return `${spec.type} record ${JSON.stringify(normalizeName(spec.name))}${value}`;
}

/** Adoption by name: the spec's type and name (any case), and value when given. */
function sameContent(obj: DnsRecord, record: RecordModel): boolean {
  const { type, name, value } = obj.spec!;
  if (RECORD_TYPES[Number(record.Type)] !== type) return false;
  if (normalizeName(name).toLowerCase() !== (record.Name ?? '').toLowerCase()) return false;
  return value === undefined || value === record.Value;
}

/** How the records of one zone (`read` answers them) are found. */
export function recordIdentity(
  read: (signal: AbortSignal) => Promise<readonly RecordModel[]>,
): IdentityRules<RecordModel, DnsRecord> {
  return {
    what: 'DNS record',
    claimType: DNS_RECORD_CLAIM,
    names: DNS_RECORD_NAMES.platformNames,
    nameOf: describeSpec,
    read: async (id, signal) => (await read(signal)).find((r) => String(r.Id) === id),
    search: (_name, signal) => read(signal),
    idOf: (r) => String(r.Id),
    recordNameOf: (r) => r.Name,
    matches: (r, obj) => sameContent(obj, r),
    proofOf: (r) => r.Comment,
  };
}

/** The records of zone `zoneId`; a zone that does not exist has none while deleting. */
async function readZone(
  client: CdnClient,
  obj: DnsRecord,
  zoneId: number | undefined,
  signal: AbortSignal,
): Promise<readonly RecordModel[]> {
  if (zoneId === undefined) return [];
  const zone = await readUnlessGone(() => client.getDnsZone(zoneId, { signal }));
  if (zone !== undefined) return zone.Records ?? [];
  if (isDeleting(obj)) return [];
  throw new TerminalError(
    ReadyReason.NotFound,
    `cannot observe DNS record: DNS zone ${zoneId} does not exist`,
  );
}

/** The pull zone the platform made for an accelerated record, and its state. */
function accelerationOf(r: RecordModel): DnsRecordStatus {
  const accelerated = parseIntegerId(r.AcceleratedPullZoneId);
  if (r.Accelerated !== true && accelerated === undefined) return {};
  const accelerationStatus = nameOf(ACCELERATION_STATUSES, r.AccelerationStatus ?? 0);
  return {
    ...(accelerated !== undefined ? { acceleratedPullZoneId: accelerated } : {}),
    accelerationStatus,
  };
}

/** What status shows beyond the table: the zone, acceleration, monitor and link. */
function statusOf(zoneId: number | undefined, r: RecordModel): DnsRecordStatus {
  const zone = zoneId !== undefined ? { dnsZoneId: zoneId } : {};
  const status: DnsRecordStatus = { ...zone, ...accelerationOf(r) };
  if ((r.MonitorType ?? 0) !== 0)
    status.monitorStatus = nameOf(MONITOR_STATUSES, r.MonitorStatus ?? 0);
  const linked = parseIntegerId(r.LinkName);
  if (linked !== undefined && r.Type === RECORD_TYPES.indexOf('PullZone'))
    status.linkedPullZoneId = linked;
  return status;
}

/** Adds one update member the table does not hold to `diff`. */
function add(diff: FieldsDiff, api: string, live: unknown, wire: unknown): void {
  diff.update[api] = wire;
  diff.diffs.push({ field: api, live: renderValue(live), desired: renderValue(wire) });
}

/** The record of one object in the zone its references resolved to. */
export function dnsRecordResource(
  conn: Connection,
  obj: DnsRecord,
  refs: ResolvedRefs,
): CrudResource<DnsRecord, RecordModel> {
  const { client } = conn;
  const zoneId = refs.zoneId;
  // The records the last read answered: an update's answer is that record and its changes.
  let last: readonly RecordModel[] = [];
  const records = async (signal: AbortSignal): Promise<readonly RecordModel[]> =>
    (last = await readZone(client, obj, zoneId, signal));
  const locked = <X>(call: (zone: number) => Promise<X>): Promise<X> =>
    zoneId === undefined
      ? Promise.reject(new Error('cannot write DNS record: the zone is not resolved'))
      : withKeyedLock(`dnszone-records:${zoneId}`, () => call(zoneId));
  return {
    idField: 'recordId',
    identity: recordIdentity(records),
    fields: RECORD_FIELDS,
    account: conn.account,
    claims: connectClaims(obj, zoneId),
    api: {
      create: (body, signal) =>
        locked((z) => client.addDnsRecord(z, body as DnsRecordAddRequest, { signal })),
      update: async (id, body, signal) => {
        await locked((z) => client.updateDnsRecord(z, Number(id), body, { signal }));
        const was = last.find((r) => String(r.Id) === id);
        return was && { ...was, ...body };
      },
      remove: (id, signal) => locked((z) => client.deleteDnsRecord(z, Number(id), { signal })),
    },
    hooks: {
      precheck: (o) => Promise.resolve(checkSpec(o)),
      createBody: (_obj, body, ctx) => {
        const provisional = provisionalNameOf(ctx);
        return Promise.resolve({
          ...body,
          ...(refs.pullZoneId !== undefined ? { PullZoneId: refs.pullZoneId } : {}),
          // The provisional name rides in the comment (kit/identity.ts); the update sets the real one.
          ...(provisional !== undefined ? { Comment: provisional } : {}),
        });
      },
      // Beyond the table: the pull zone link, and a provisional comment the spec does not keep.
      compare: (o, r, diff) => {
        const linked = Number(r.LinkName ?? 0);
        if (refs.pullZoneId !== undefined && linked !== refs.pullZoneId)
          add(diff, 'PullZoneId', r.LinkName, refs.pullZoneId);
        if (o.spec?.comment === undefined && isProvisionalName(r.Comment))
          add(diff, 'Comment', r.Comment, '');
        return Promise.resolve(diff);
      },
      status: (r) => ({ ...statusOf(zoneId, r) }),
      notReady: (r) =>
        r.Accelerated === true &&
        r.AccelerationStatus !== ACCELERATION_STATUSES.indexOf('Completed')
          ? {
              reason: AccelerationPending,
              message: 'The platform is still setting up the pull zone of this accelerated record',
            }
          : undefined,
    },
  };
}

/** Builds the DnsRecord ManagedKind. */
export function createDnsRecordKind(deps: ControllerDeps): ManagedKind<DnsRecord> {
  const refs = (conn: Connection, obj: DnsRecord, ctx: ConnectContext): ResolvedRefs =>
    resolveReferences(obj, (r) => ctx.getObject(r), conn.account);
  return {
    ...crudKind<DnsRecord, RecordModel>(deps, {
      names: DNS_RECORD_NAMES,
      idField: 'recordId',
      fields: RECORD_FIELDS,
      // The link the createBody and compare hooks send.
      specPaths: { PullZoneId: 'spec.pullZoneRef / spec.pullZoneId' },
      resource: (conn, obj, ctx) => dnsRecordResource(conn, obj, refs(conn, obj, ctx)),
      references: objectReferences,
    }),
    claimsOf: dnsRecordClaimsOf,
    idReferences: idReferencesOf,
  };
}

export type { DnsRecord } from './types.js';
export { dnsRecordClaimsOf } from './claims.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createDnsRecordKind;
