/**
 * The DnsRecord external client: observe / create / update / delete of one record in one zone,
 * bound to one account's CdnClient and to the zone (and linked pull zone) its references
 * resolved to.
 *
 * - Observe is read-only: one `GET /dnszone/{id}` (the API has no read of a single record; the
 *   zone answers its records), found by the kit's identity rules (kit/identity.ts). Without an
 *   id nothing is looked up, except for an explicit adoption by name (`spec.adoption.policy:
 *   ByName`: the one record with the spec's type and name, and value when given; several are
 *   refused) and the recovery of our own lost create. A record's content is not unique on the
 *   platform, so that recovery takes only a record carrying our provisional name in its
 *   comment, never one that merely has the same content.
 * - Create is one `PUT /dnszone/{id}/records` with the provisional name as comment; the update
 *   of the same pass sets the spec's comment (or clears it). A record is never adopted unless
 *   the spec asks. Update sends only the differing members in one `POST`. Delete removes the
 *   record (404: already gone), or leaves it with `deletionPolicy: Orphan`.
 * - The content claim (`DnsRecordContent`, record-claims.ts) is known once the zone is resolved
 *   and checked by the runtime before anything is sent: two objects never manage one record.
 *   It is only checked, not stored in the index (the index takes claims from the object
 *   alone): what a zone's `Exact` policy sees of a record before its id is recorded is the
 *   shared `DnsRecordDeclared` claim of the spec (claims.ts).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { DnsRecord as DnsRecordModel } from '../../cdn/dns-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ClaimRef,
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import {
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  dnsRecordContentKey,
} from '../dnszone/record-claims.js';
import { locate, provisionalNameOf, type IdentityRules } from '../kit/identity.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound, readUnlessGone } from '../shared/not-found.js';
import { ADOPT_BY_NAME, adoptionPolicyOf } from '../shared/ownership-schema.js';
import { diffRecord, type RecordDiff } from './diff.js';
import { LINKED_TYPES } from './fields.js';
import { checkSpec, nameOf, normalizeName, statusOf, toAddRequest } from './mapping.js';
import type { ResolvedRefs } from './references.js';
import { RECORD_TYPES, type DnsRecord, type DnsRecordSpec } from './types.js';

/** Reason of Ready=False while the platform builds an accelerated record's pull zone. */
export const AccelerationPending = 'AccelerationPending';

/** What an external client is bound to. */
export interface DnsRecordExternalOptions {
  client: CdnClient;
  /** Stable, non-secret account identifier (the claim index's account fingerprint). */
  accountId: string;
  refs: ResolvedRefs;
}

const ACCELERATION_COMPLETED = 3;

const recordLock = (zoneId: number): string => `dnszone-records:${zoneId}`;

/** The content claim id of a spec in zone `zoneId`; undefined for linked types (value filled in). */
export function specContentKey(zoneId: number, spec: DnsRecordSpec): string | undefined {
  if (LINKED_TYPES.includes(spec.type) || spec.value === undefined) return undefined;
  return dnsRecordContentKey(zoneId, spec.type, normalizeName(spec.name), spec.value);
}

/** The content claim id of a live record in zone `zoneId`. */
export function liveContentKey(zoneId: number, record: DnsRecordModel): string {
  const type = nameOf(RECORD_TYPES, record.Type);
  return dnsRecordContentKey(zoneId, type, record.Name ?? '', record.Value ?? '');
}

/** The content key the status recorded, if any. */
function statusKey(obj: DnsRecord): string | undefined {
  const status = obj.status;
  if (status?.dnsZoneId === undefined || status.type === undefined) return undefined;
  return dnsRecordContentKey(status.dnsZoneId, status.type, status.name ?? '', status.value ?? '');
}

function sameContent(spec: DnsRecordSpec, record: DnsRecordModel, withValue: boolean): boolean {
  if (nameOf(RECORD_TYPES, record.Type) !== spec.type) return false;
  if (normalizeName(spec.name).toLowerCase() !== (record.Name ?? '').toLowerCase()) return false;
  return !withValue || spec.value === undefined || spec.value === record.Value;
}

/** A zone that does not exist: nothing to delete, else a terminal error (never a create). */
function zoneGone(obj: DnsRecord, zoneId: number): undefined {
  if (isDeleting(obj)) return undefined;
  throw new TerminalError(
    ReadyReason.NotFound,
    `cannot observe DNS record: DNS zone ${zoneId} does not exist`,
  );
}

/** The spec's record in words, for messages (`A record "www" with value "192.0.2.1"`). */
function describeSpec(spec: DnsRecordSpec): string {
  const value = spec.value !== undefined ? ` with value ${JSON.stringify(spec.value)}` : '';
  return `${spec.type} record ${JSON.stringify(normalizeName(spec.name))}${value}`;
}

/** How the records of one zone (`records`, read once per observe) are found. */
function recordIdentity(
  records: readonly DnsRecordModel[],
): IdentityRules<DnsRecordModel, DnsRecord> {
  return {
    what: 'DNS record',
    claimType: DNS_RECORD_CLAIM,
    names: 'shared',
    specIdField: 'recordId',
    nameOf: (obj) => describeSpec(obj.spec as DnsRecordSpec),
    read: (id) => Promise.resolve(records.find((r) => String(r.Id) === id)),
    search: () => Promise.resolve(records),
    idOf: (r) => String(r.Id),
    recordNameOf: (r) => r.Name,
    matches: (r, obj) => sameContent(obj.spec as DnsRecordSpec, r, true),
    proofOf: (r) => r.Comment,
  };
}

/** What observe hands to update: the record, its zone and the plan. */
export interface RecordSeen {
  zoneId: number;
  id: number;
  diff: RecordDiff;
}

/** See the module comment. */
export class DnsRecordExternal implements ExternalClient<DnsRecord, RecordSeen> {
  constructor(
    private readonly opts: DnsRecordExternalOptions,
    private readonly obj?: DnsRecord,
  ) {}

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  /** The content claim of the spec in the resolved zone (checked before anything is sent). */
  get claims(): readonly ClaimRef[] {
    const zoneId = this.opts.refs.zoneId;
    const obj = this.obj;
    if (zoneId === undefined || !obj?.spec || isDeleting(obj)) return [];
    const key = specContentKey(zoneId, obj.spec);
    if (key === undefined) return [];
    return [{ type: DNS_RECORD_CONTENT_CLAIM, id: key, recorded: statusKey(obj) === key }];
  }

  async observe(obj: DnsRecord, ctx: ExternalContext): Promise<Observation<RecordSeen>> {
    const zoneId = this.opts.refs.zoneId;
    if (zoneId === undefined) return { exists: false, upToDate: false, diff: [] };
    const spec = obj.spec as DnsRecordSpec;
    if (!isDeleting(obj)) checkSpec(spec);
    const record = await this.find(obj, zoneId, ctx);
    if (!record) return { exists: false, upToDate: false, diff: [] };
    const diff = diffRecord(spec, record, { pullZoneId: this.opts.refs.pullZoneId });
    if (!isDeleting(obj) && diff.immutable.length > 0) {
      throw new TerminalError(
        SyncedReason.InvalidSpec,
        `cannot manage DNS record ${record.Id}: ${diff.immutable.join('; ')}; the type of a record is fixed: restore the spec or create a new DnsRecord`,
      );
    }
    const obs: Observation<RecordSeen> = {
      exists: true,
      externalId: String(record.Id),
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...statusOf(zoneId, record) },
      seen: { zoneId, id: Number(record.Id), diff },
    };
    if (record.Accelerated === true && record.AccelerationStatus !== ACCELERATION_COMPLETED) {
      obs.notReady = {
        reason: AccelerationPending,
        message: 'The platform is still setting up the pull zone of this accelerated record',
      };
    }
    return obs;
  }

  /** The zone's records, or undefined when the zone does not exist. */
  private async records(
    zoneId: number,
    signal: AbortSignal,
  ): Promise<DnsRecordModel[] | undefined> {
    const zone = await readUnlessGone(() => this.opts.client.getDnsZone(zoneId, { signal }));
    return zone === undefined ? undefined : (zone.Records ?? []);
  }

  private async find(
    obj: DnsRecord,
    zoneId: number,
    ctx: ExternalContext,
  ): Promise<DnsRecordModel | undefined> {
    const byName = adoptionPolicyOf(obj.spec) === ADOPT_BY_NAME && !isDeleting(obj);
    // Nothing to look up: the zone is not read (the runtime creates).
    if (!ctx.externalId && !ctx.createPending && !byName) return undefined;
    const records = await this.records(zoneId, ctx.signal);
    if (records === undefined) return zoneGone(obj, zoneId);
    return (await locate(recordIdentity(records), obj, ctx))?.record;
  }

  async create(obj: DnsRecord, ctx: ExternalContext): Promise<CreateResult> {
    const spec = obj.spec as DnsRecordSpec;
    const zoneId = this.opts.refs.zoneId;
    if (zoneId === undefined) throw new Error('cannot create DNS record: the zone is not resolved');
    const provisional = provisionalNameOf(ctx);
    // The provisional name rides in the comment (identity.ts); the update sets the real one.
    const body = {
      ...toAddRequest(spec, this.opts.refs.pullZoneId),
      ...(provisional !== undefined ? { Comment: provisional } : {}),
    };
    const record = await withKeyedLock(recordLock(zoneId), () =>
      this.opts.client.addDnsRecord(zoneId, body, { signal: ctx.signal }),
    );
    ctx.log.debug(
      { dnsZoneId: zoneId, recordId: record.Id, type: spec.type },
      'Created DNS record',
    );
    const diff = diffRecord(spec, record, { pullZoneId: this.opts.refs.pullZoneId });
    return {
      externalId: String(record.Id),
      status: { ...statusOf(zoneId, record) },
      available: diff.diffs.length === 0 && record.Accelerated !== true,
      // The comment update that follows in this pass removes the proof: the id goes first.
      recordFirst: provisional !== undefined,
    };
  }

  async update(
    _obj: DnsRecord,
    observation: Observation<RecordSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen) throw new Error('cannot update DNS record: observation was not made by this client');
    if (Object.keys(seen.diff.update).length === 0) return;
    await withKeyedLock(recordLock(seen.zoneId), () =>
      this.opts.client.updateDnsRecord(seen.zoneId, seen.id, seen.diff.update, {
        signal: ctx.signal,
      }),
    );
  }

  async delete(obj: DnsRecord, ctx: ExternalContext): Promise<void> {
    const zoneId = this.opts.refs.zoneId;
    if (!ctx.externalId || zoneId === undefined || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    const deleted = await withKeyedLock(recordLock(zoneId), () =>
      deleteIgnoringNotFound(() =>
        this.opts.client.deleteDnsRecord(zoneId, id, { signal: ctx.signal }),
      ),
    );
    if (deleted) ctx.log.info({ dnsZoneId: zoneId, recordId: id }, 'Deleted DNS record');
  }
}
