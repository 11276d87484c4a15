/**
 * The DnsZone external client: the zone as a CRUD resource (index.ts, kit/crud-external.ts:
 * identity, create, settings, delete) completed with what a zone has beyond one object: DNSSEC
 * and the inline records.
 *
 * - Observe is read-only: one `GET /dnszone/{id}` (the zone with its records); the record plan
 *   (records.ts) joins the settings diff. A plan that cannot be applied as the spec says is
 *   refused before anything is written: an adopted record that is gone (NotFound, never
 *   created again) or a listed record another object manages (RecordManagedElsewhere).
 * - Update sends only what differs: the settings, DNSSEC on or off, then one call per record to
 *   create, change or delete, each recorded as an effect right after it (which records this
 *   zone created must survive a later failure). A deletion observe planned is sent only if the
 *   claim index still shows nobody managing the record (record-sweep.ts): an object that
 *   adopted it meanwhile keeps it.
 * - A recorded id that reads 404 is recreated (the zone was deleted outside Kubernetes), as for
 *   every kind; an adopted id (`spec.adoption.id`) never leads to a create.
 */
import type { CdnClient } from '../../cdn/client.js';
import type { DnsZone as ZoneRecord } from '../../cdn/dns-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason } from '../../runtime/reasons.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import type { Connection } from '../kit/connector.js';
import { CrudExternal, type CrudResource, type CrudSeen } from '../kit/crud-external.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound } from '../shared/not-found.js';
import { RecordCallError, RecordConflictError } from './record-errors.js';
import {
  planRecords,
  type RecordAction,
  type RecordPlan,
  type RecordPlanInput,
} from './records.js';
import { dnssecChange, dnssecStatusOf } from './status.js';
import type { DnsZone, DnsZoneStatus, ZoneRecordStatus } from './types.js';

/** What observe hands to update: the zone and its settings plan, and the record plan. */
export interface DnsZoneSeen {
  zone: CrudSeen<ZoneRecord>;
  records: RecordPlan;
  /** What the record plan was made from (planned again before deleting). */
  input: RecordPlanInput;
}

/** The claim lookups of this pass (`ExternalContext`), as the record plan takes them. */
function claimLookups(
  ctx: ExternalContext,
): Pick<RecordPlanInput, 'claimedByOther' | 'claimantsOf'> {
  return {
    claimedByOther: (type, id) => ctx.claimedByOther?.(type, id) ?? false,
    ...(ctx.claimantsOf ? { claimantsOf: (type, id) => ctx.claimantsOf?.(type, id) ?? [] } : {}),
  };
}

/** The record plan input of `zone` for `obj`. */
function recordInput(
  obj: DnsZone,
  zone: CrudSeen<ZoneRecord>,
  ctx: ExternalContext,
): RecordPlanInput {
  const { namespace, name } = obj.metadata;
  return {
    zoneId: Number(zone.id),
    records: obj.spec?.records,
    policy: obj.spec?.recordPolicy,
    live: zone.record.Records ?? [],
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

/** Refuses a record plan that cannot be applied as the spec says (see the module comment). */
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

/** See the module comment. */
export class DnsZoneExternal implements ExternalClient<DnsZone, DnsZoneSeen> {
  private readonly zone: CrudExternal<DnsZone, ZoneRecord>;
  private readonly client: CdnClient;

  /** `resource`: the zone of the connection `conn` (index.ts). */
  constructor(
    private readonly conn: Connection,
    resource: CrudResource<DnsZone, ZoneRecord>,
  ) {
    this.zone = new CrudExternal(resource);
    this.client = conn.client;
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.conn.account;
  }

  async observe(obj: DnsZone, ctx: ExternalContext): Promise<Observation<DnsZoneSeen>> {
    const { seen: zone, ...found } = await this.zone.observe(obj, ctx);
    if (!zone || isDeleting(obj)) return found;
    const input = recordInput(obj, zone, ctx);
    const records = planRecords(input);
    refuseUnappliable(records);
    const diff = [...found.diff, ...records.diffs];
    return {
      ...found,
      upToDate: diff.length === 0,
      diff,
      status: { ...found.status, records: records.observed },
      seen: { zone, records, input },
    };
  }

  async create(obj: DnsZone, ctx: ExternalContext): Promise<CreateResult> {
    // Settings, DNSSEC and records are applied by the update of the same pass.
    const created = await this.zone.create(obj, ctx);
    return { ...created, status: { ...created.status, records: [] } };
  }

  async update(
    obj: DnsZone,
    observation: Observation<DnsZoneSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen) throw new Error('cannot update DNS zone: observation was not made by this client');
    const id = Number(seen.zone.id);
    return withKeyedLock(`dnszone:${id}`, async () => {
      const settings = await this.zone.update(obj, { ...observation, seen: seen.zone }, ctx);
      const status: DnsZoneStatus = { ...settings?.status };
      const dnssec = dnssecChange(obj, seen.zone.record);
      if (dnssec !== undefined) {
        const opts = { signal: ctx.signal };
        status.dnssec = dnssecStatusOf(
          dnssec
            ? await this.client.enableDnsSec(id, opts)
            : await this.client.disableDnsSec(id, opts),
        );
      }
      const actions = stillWanted(seen, ctx);
      status.records = await this.applyRecords(seen, actions, ctx);
      const added = actions.filter((a) => a.op === 'create').length;
      const deleted = actions.filter((a) => a.op === 'delete').length;
      status.recordCount = (seen.zone.record.Records ?? []).length + added - deleted;
      return { status: { ...status } };
    });
  }

  /** Runs the record calls; answers `status.records` with the records created. */
  private async applyRecords(
    seen: DnsZoneSeen,
    actions: readonly RecordAction[],
    ctx: ExternalContext,
  ): Promise<ZoneRecordStatus[]> {
    const records = [...seen.records.observed];
    for (const action of actions) {
      const done = await this.applyRecord(Number(seen.zone.id), action, ctx).catch(
        (err: unknown) => {
          throw new RecordCallError(action, err);
        },
      );
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
      await this.client.updateDnsRecord(zoneId, action.id, action.record, opts);
      return undefined;
    }
    if (action.op === 'delete') {
      const done = await deleteIgnoringNotFound(() =>
        this.client.deleteDnsRecord(zoneId, action.id, opts),
      );
      if (done) ctx.log.info({ dnsZoneId: zoneId, recordId: action.id }, 'Deleted DNS record');
      return undefined;
    }
    const added = await this.client.addDnsRecord(zoneId, action.record, opts);
    ctx.log.info({ dnsZoneId: zoneId, recordId: added.Id }, 'Created DNS record');
    return {
      type: action.type,
      name: action.record.Name ?? '',
      value: action.record.Value ?? '',
      id: Number(added.Id),
      created: true,
    };
  }

  delete(obj: DnsZone, ctx: ExternalContext): Promise<void> {
    // Not while this process updates the zone's records.
    return withKeyedLock(`dnszone:${ctx.externalId}`, () => this.zone.delete(obj, ctx));
  }
}
