/**
 * The DnsZone external client: observe / create / update / delete of one DNS zone and its
 * inline records, bound to one account's CdnClient.
 *
 * - Observe is read-only: one `GET /dnszone/{id}` (the zone with its records), found by the
 *   kit's identity rules (kit/identity.ts): domains are unique on the platform, so adoption by
 *   domain and the recovery of a lost create search by domain (case-insensitive, as the
 *   platform compares domains) and skip zones another object manages.
 * - Create checks the domain (`POST /dnszone/checkavailability`), then sends one
 *   `POST /dnszone`, serialized per account; a domain already on the platform is reported
 *   (NameTaken) and never adopted. Settings, DNSSEC and records follow in the same pass as an
 *   update of the new zone (the runtime observes it right after).
 * - Update sends only what differs: one `POST /dnszone/{id}` with the differing settings,
 *   DNSSEC on or off, and one call per record to create, change or delete (records.ts). A
 *   deletion observe planned is sent only if the claim index still shows nobody managing the
 *   record (record-sweep.ts): an object that adopted it meanwhile keeps it.
 * - A recorded id that reads 404 is recreated (the zone was deleted outside Kubernetes), as
 *   for every kind; an adopted id (`spec.dnsZoneId`) never leads to a create.
 * - Delete sends `DELETE /dnszone/{id}` (deletion policy Delete only; the runtime resolves the
 *   default, Orphan for an adopted zone).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { DnsRecord, DnsZone as DnsZoneRecord } from '../../cdn/dns-types.js';
import { isCdnApiError } from '../../cdn/errors.js';
import { TerminalError } from '../../runtime/errors.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { locate, type IdentityRules } from '../kit/identity.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound, isDeleting } from '../shared/not-found.js';
import { diffDnsZone, type DnsZoneDiff } from './diff.js';
import { dnssecStatusOf, domainOf, nameserversOf, statusOf } from './mapping.js';
import { RecordCallError, RecordConflictError } from './record-errors.js';
import {
  planRecords,
  type RecordAction,
  type RecordPlan,
  type RecordPlanInput,
} from './records.js';
import type { DnsZone, DnsZoneStatus, ZoneRecordStatus } from './types.js';

/** Reason when the domain already has a zone and adoption was not asked for. */
export const NameTaken = 'NameTaken';
/** Claim type of DNS zones (the runtime's default: the kind). */
export const DNS_ZONE_CLAIM = 'DnsZone';

/** What an external client is bound to. */
export interface DnsZoneExternalOptions {
  client: CdnClient;
  /** Stable, non-secret account identifier (serializes creates per account). */
  accountId: string;
}

/** What observe hands to update: the zone, its plan and the record plan. */
export interface DnsZoneSeen {
  id: number;
  /** Number of records the zone had when observed. */
  liveCount: number;
  diff: DnsZoneDiff;
  records: RecordPlan;
  /** What the record plan was made from (planned again before deleting). */
  input: RecordPlanInput;
}

const zoneLock = (id: number): string => `dnszone:${id}`;

/** The claim lookups of this pass (`ExternalContext`), as the record plan takes them. */
function claimLookups(
  ctx: ExternalContext,
): Pick<RecordPlanInput, 'claimedByOther' | 'claimantsOf'> {
  return {
    claimedByOther: (type, id) => ctx.claimedByOther?.(type, id) ?? false,
    ...(ctx.claimantsOf ? { claimantsOf: (type, id) => ctx.claimantsOf?.(type, id) ?? [] } : {}),
  };
}

/** The record plan input of the zone `zoneId` whose live records are `live`. */
function recordInput(
  obj: DnsZone,
  zoneId: number,
  live: readonly DnsRecord[],
  ctx: ExternalContext,
): RecordPlanInput {
  const { namespace, name } = obj.metadata;
  return {
    zoneId,
    records: obj.spec?.records,
    policy: obj.spec?.recordPolicy,
    live,
    previous: obj.status?.records,
    zone: { namespace, name },
    ...claimLookups(ctx),
  };
}

/**
 * The record calls observe planned, without the deletions of records some object claims now
 * (adopted between observe and update): planned again from the same live records.
 */
function stillWanted(seen: DnsZoneSeen, ctx: ExternalContext): RecordAction[] {
  const deletes = seen.records.actions.filter((a) => a.op === 'delete');
  if (deletes.length === 0) return seen.records.actions;
  const now = planRecords({ ...seen.input, ...claimLookups(ctx) });
  const still = new Set(now.actions.flatMap((a) => (a.op === 'delete' ? [a.id] : [])));
  return seen.records.actions.filter((a) => a.op !== 'delete' || still.has(a.id));
}

/**
 * Refuses a record plan that cannot be applied as the spec says, before anything is written:
 * an adopted record that is gone (NotFound: never created again), or a listed record another
 * object manages (RecordManagedElsewhere). Either way Synced=False names the entries.
 */
function refuseUnappliable(plan: RecordPlan): void {
  if (plan.gone.length > 0) {
    const also = plan.conflicts.length > 0 ? `; also ${plan.conflicts.join('; ')}` : '';
    throw new TerminalError(
      ReadyReason.NotFound,
      `cannot manage spec.records: ${plan.gone.join('; ')}${also}; an adopted record is never created again: remove the entry from spec.records (listed again afterwards, it is created by this object)`,
    );
  }
  if (plan.conflicts.length > 0) throw new RecordConflictError(plan.conflicts);
}

/** How DNS zones are found: by id, else by domain (unique on the platform). */
export function dnsZoneIdentity(client: CdnClient): IdentityRules<DnsZoneRecord, DnsZone> {
  return {
    what: 'DNS zone',
    claimType: DNS_ZONE_CLAIM,
    names: 'unique',
    specIdField: 'dnsZoneId',
    nameOf: (obj) => domainOf(obj),
    read: (id, signal) => client.getDnsZone(Number(id), { signal }),
    search: (domain, signal) => client.listDnsZones({ search: domain }, { signal }),
    // The listing answers zones without their records.
    summaries: true,
    idOf: (z) => String(z.Id),
    recordNameOf: (z) => z.Domain,
    sameName: (live, wanted) => live?.toLowerCase() === wanted.toLowerCase(),
  };
}

/** See the module comment. */
export class DnsZoneExternal implements ExternalClient<DnsZone, DnsZoneSeen> {
  private readonly identity: IdentityRules<DnsZoneRecord, DnsZone>;

  constructor(private readonly opts: DnsZoneExternalOptions) {
    this.identity = dnsZoneIdentity(opts.client);
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.opts.accountId;
  }

  async observe(obj: DnsZone, ctx: ExternalContext): Promise<Observation<DnsZoneSeen>> {
    const record = (await locate(this.identity, obj, ctx))?.record;
    if (!record || record.Id === undefined) return { exists: false, upToDate: false, diff: [] };
    const diff = diffDnsZone(obj, record);
    if (!isDeleting(obj) && diff.immutable.length > 0) {
      throw new TerminalError(
        SyncedReason.InvalidSpec,
        `cannot manage DNS zone ${record.Id}: ${diff.immutable.join('; ')}; the domain is fixed when a zone is created: restore the spec or create a new DnsZone`,
      );
    }
    const input = recordInput(obj, record.Id, record.Records ?? [], ctx);
    const records = planRecords(input);
    if (!isDeleting(obj)) refuseUnappliable(records);
    const diffs = [...diff.diffs, ...records.diffs];
    return {
      exists: true,
      externalId: String(record.Id),
      upToDate: diffs.length === 0,
      diff: diffs,
      status: { ...statusOf(record, obj.status), records: records.observed },
      seen: { id: record.Id, liveCount: (record.Records ?? []).length, diff, records, input },
    };
  }

  async create(obj: DnsZone, ctx: ExternalContext): Promise<CreateResult> {
    const domain = domainOf(obj);
    if (domain === undefined) {
      throw new TerminalError(
        SyncedReason.InvalidSpec,
        'cannot create DNS zone: spec.domain is required to create a zone (it may be left out only when adopting one with spec.dnsZoneId)',
      );
    }
    // One create per domain at a time (check, then add); other domains go ahead.
    const record = await withKeyedLock(
      `create-dnszone:${this.opts.accountId}:${domain.toLowerCase()}`,
      () => this.add(domain, ctx.signal),
    );
    ctx.log.debug({ dnsZoneId: record.Id, domain }, 'Created DNS zone');
    // Settings, DNSSEC and records are applied by the update of the same pass.
    return {
      externalId: String(record.Id),
      status: { ...statusOf(record, undefined), records: [] },
      available: false,
    };
  }

  /** Checks the domain, then adds the zone; a domain with a zone is NameTaken, never adopted. */
  private async add(domain: string, signal: AbortSignal): Promise<DnsZoneRecord> {
    const { available } = await this.opts.client.checkDnsZoneAvailability(domain, { signal });
    if (!available) throw this.nameTaken(domain);
    try {
      return await this.opts.client.addDnsZone({ Domain: domain }, { signal });
    } catch (err) {
      if (!isCdnApiError(err) || err.kind !== 'invalid') throw err;
      // Added between the check and the add (another writer), or another refusal.
      const again = await this.opts.client.checkDnsZoneAvailability(domain, { signal });
      if (again.available) throw err;
      throw this.nameTaken(domain);
    }
  }

  private nameTaken(domain: string): TerminalError {
    return new TerminalError(
      NameTaken,
      `cannot create DNS zone ${JSON.stringify(domain)}: the domain already has a zone on the platform; adopt it explicitly with spec.dnsZoneId or spec.adoption.policy ByName (refused when another object manages it)`,
    );
  }

  async update(
    obj: DnsZone,
    observation: Observation<DnsZoneSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen) throw new Error('cannot update DNS zone: observation was not made by this client');
    const status: DnsZoneStatus = {};
    await withKeyedLock(zoneLock(seen.id), async () => {
      if (Object.keys(seen.diff.update).length > 0) {
        const zone = await this.opts.client.updateDnsZone(seen.id, seen.diff.update, {
          signal: ctx.signal,
        });
        // The observation read the nameservers before this update changed them.
        const nameservers = nameserversOf(zone);
        if (nameservers.length > 0) status.nameservers = nameservers;
      }
      if (seen.diff.dnssec !== undefined) {
        const opts = { signal: ctx.signal };
        const ds = seen.diff.dnssec
          ? await this.opts.client.enableDnsSec(seen.id, opts)
          : await this.opts.client.disableDnsSec(seen.id, opts);
        status.dnssec = dnssecStatusOf(ds);
      }
      const actions = stillWanted(seen, ctx);
      status.records = await this.applyRecords(seen, actions, ctx);
      const added = actions.filter((a) => a.op === 'create').length;
      const deleted = actions.filter((a) => a.op === 'delete').length;
      status.recordCount = seen.liveCount + added - deleted;
    });
    return { status: { ...status } };
  }

  /** Runs the record calls; answers `status.records` with the records created. */
  private async applyRecords(
    seen: DnsZoneSeen,
    actions: readonly RecordAction[],
    ctx: ExternalContext,
  ): Promise<ZoneRecordStatus[]> {
    const records = [...seen.records.observed];
    for (const action of actions) {
      const done = await this.applyRecord(seen.id, action, ctx).catch((err: unknown) => {
        throw new RecordCallError(action, err);
      });
      if (action.op === 'delete') {
        const i = records.findIndex((r) => r.id === action.id);
        if (i >= 0) records.splice(i, 1);
      }
      if (done) records.push(done);
      // Which records this zone created must outlive a failure later in the pass or a
      // refused status write: recorded after each call (the whole list, as status holds it).
      if (action.op !== 'update') ctx.recordEffect?.({ records: [...records] });
    }
    return records;
  }

  private async applyRecord(
    zoneId: number,
    action: RecordAction,
    ctx: ExternalContext,
  ): Promise<ZoneRecordStatus | undefined> {
    const opts = { signal: ctx.signal };
    if (action.op === 'update') {
      await this.opts.client.updateDnsRecord(zoneId, action.id, action.record, opts);
      return undefined;
    }
    if (action.op === 'delete') {
      const done = await deleteIgnoringNotFound(() =>
        this.opts.client.deleteDnsRecord(zoneId, action.id, opts),
      );
      if (done) ctx.log.info({ dnsZoneId: zoneId, recordId: action.id }, 'Deleted DNS record');
      return undefined;
    }
    const added = await this.opts.client.addDnsRecord(zoneId, action.record, opts);
    ctx.log.info({ dnsZoneId: zoneId, recordId: added.Id }, 'Created DNS record');
    return {
      type: action.type,
      name: action.record.Name ?? '',
      value: action.record.Value ?? '',
      id: Number(added.Id),
      created: true,
    };
  }

  async delete(obj: DnsZone, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    await withKeyedLock(zoneLock(id), async () => {
      const done = await deleteIgnoringNotFound(() =>
        this.opts.client.deleteDnsZone(id, { signal: ctx.signal }),
      );
      if (done) ctx.log.info({ dnsZoneId: id }, 'Deleted DNS zone');
    });
  }
}
