/**
 * The external client of a shield rule kind: observe / create / update / delete of one rule on
 * one shield zone, bound to one account's client.
 *
 * - Observe is read-only: one GET by id, found by the kit's identity rules (kit/identity.ts):
 *   rule names are not unique on the platform, so adoption by name lists the zone's rules and
 *   matches the name exactly (several candidates are refused), and a lost create is recovered
 *   only by its provisional name. A rule read by id that lives on another shield zone is
 *   refused before anything is written.
 * - Create sends one `POST` under the provisional name; a refusal for the zone's plan (403) is
 *   reported as {@link PlanNotSufficientError}, which is retried slowly (see classify.ts).
 * - Update sends one `PATCH` with the differing members only (diff.ts), the real name among
 *   them after a create.
 * - Delete sends `DELETE` unless the deletion policy is Orphan (the runtime has already
 *   turned an unset policy into Orphan for an adopted rule).
 */
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { createNameOf, isProvisionalName, locate, type IdentityRules } from '../kit/identity.js';
import { deleteIgnoringNotFound } from '../shared/not-found.js';
import { desiredRule, diffRule, type RuleDiff } from './diff.js';
import type { RuleApi, RuleCreateBody, RuleFamily } from './family.js';
import type { RuleRecord, ShieldRuleStatusBase } from './types.js';
import type { RuleObject } from './zone.js';
import { checkUnmanagedZone, type PullZoneOf } from './unmanaged-zone.js';

/** Reason when an adopted rule lives on another shield zone than the spec names. */
export const ZoneMismatch = 'ZoneMismatch';
export { ReferenceNotAllowed } from './unmanaged-zone.js';

/** The zone's plan does not allow one more rule of the family (the platform answered 403). */
export class PlanNotSufficientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanNotSufficientError';
  }
}

/** What an external client is bound to. */
export interface RuleExternalOptions {
  family: RuleFamily;
  api: RuleApi;
  /** Account fingerprint (claims conflict only within one account). */
  account: string;
  /** The rule's shield zone; undefined only while deleting with the zone unknown. */
  shieldZoneId: number | undefined;
  /**
   * The pull zone a shield zone protects (one GET), for the ownership check of a raw
   * `spec.shieldZoneId` that no ShieldPolicy manages. Absent (cdnctl diff): not checked.
   */
  pullZoneOf?: PullZoneOf;
}

/** The status fields observed from a record. */
export function ruleStatusOf(record: RuleRecord): ShieldRuleStatusBase {
  return {
    ...(record.id !== undefined ? { ruleId: record.id } : {}),
    ...(record.shieldZoneId !== undefined ? { shieldZoneId: record.shieldZoneId } : {}),
    ...(typeof record.ruleName === 'string' ? { name: record.ruleName } : {}),
  };
}

/** The rule's platform name: `spec.name`, defaulting to `metadata.name`. */
export function ruleNameOf(obj: RuleObject): string {
  return obj.spec?.name ?? obj.metadata.name;
}

/** What observe hands to update: the rule's id and the plan. */
export interface RuleSeen {
  id: number;
  diff: RuleDiff;
}

/** How the rules of a family are found: by id, else by name on the zone (not unique). */
export function ruleIdentity(o: RuleExternalOptions): IdentityRules<RuleRecord, RuleObject> {
  return {
    what: o.family.what,
    claimType: o.family.names.kind,
    names: 'shared',
    specIdField: 'ruleId',
    nameOf: ruleNameOf,
    read: (id, signal) => o.api.get(Number(id), { signal }),
    // Without the zone (deleting, zone unknown) there is nothing to search.
    search: (_name, signal) =>
      o.shieldZoneId === undefined ? Promise.resolve([]) : o.api.list(o.shieldZoneId, { signal }),
    idOf: (r) => String(r.id),
    recordNameOf: (r) => r.ruleName,
  };
}

/** See the module comment. */
export class RuleExternal implements ExternalClient<RuleObject, RuleSeen> {
  private readonly identity: IdentityRules<RuleRecord, RuleObject>;

  constructor(private readonly opts: RuleExternalOptions) {
    this.identity = ruleIdentity(opts);
  }

  get account(): string {
    return this.opts.account;
  }

  private get what(): string {
    return this.opts.family.what;
  }

  async observe(obj: RuleObject, ctx: ExternalContext): Promise<Observation<RuleSeen>> {
    await checkUnmanagedZone(obj, this.opts.shieldZoneId, this.opts.pullZoneOf, ctx);
    const record = (await locate(this.identity, obj, ctx))?.record;
    if (!record) return { exists: false, upToDate: false, diff: [] };
    this.checkZone(obj, record);
    const want = desiredRule(
      this.opts.family.members,
      obj.spec ?? ({} as never),
      obj.metadata.name,
    );
    const diff = diffRule(this.opts.family.members, want, record);
    return {
      exists: true,
      externalId: String(record.id),
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...ruleStatusOf(record) },
      seen: { id: Number(record.id), diff },
    };
  }

  /** A rule of another shield zone is never changed from this object. */
  private checkZone(obj: RuleObject, record: RuleRecord): void {
    const zone = this.opts.shieldZoneId;
    if (isDeleting(obj) || zone === undefined || record.shieldZoneId === zone) return;
    throw new TerminalError(
      ZoneMismatch,
      `cannot manage ${this.what} ${record.id}: it belongs to shield zone ${record.shieldZoneId}, not to shield zone ${zone} that the spec names; nothing is changed`,
    );
  }

  async create(obj: RuleObject, ctx: ExternalContext): Promise<CreateResult> {
    const spec = obj.spec ?? ({} as never);
    const zone = this.opts.shieldZoneId;
    if (zone === undefined)
      throw new Error(`cannot create ${this.what}: the shield zone is unknown`);
    const want = desiredRule(this.opts.family.members, spec, obj.metadata.name);
    const body: RuleCreateBody = {
      shieldZoneId: zone,
      // Under the provisional name (identity.ts): the update of the same pass sets the real one.
      ruleName: createNameOf(this.identity, obj, ctx) ?? ruleNameOf(obj),
      ...(want.description !== undefined ? { ruleDescription: want.description } : {}),
      ruleConfiguration: want.config,
    };
    let record: RuleRecord;
    try {
      record = await this.opts.api.create(body, { signal: ctx.signal });
    } catch (err) {
      if (!isShieldPlanRefusal(err)) throw err;
      throw new PlanNotSufficientError(
        `cannot create ${this.what} on shield zone ${zone}: the zone's plan does not allow another one (${this.opts.family.limitField}); upgrade the plan or remove a rule. The platform said: ${(err as Error).message}`,
      );
    }
    ctx.log.debug({ ruleId: record.id, shieldZoneId: zone }, `Created ${this.what}`);
    const upToDate = diffRule(this.opts.family.members, want, record).diffs.length === 0;
    return {
      externalId: String(record.id),
      status: { ...ruleStatusOf(record) },
      available: upToDate,
      // The rename that follows in this pass removes the proof: the id goes to status first.
      recordFirst: isProvisionalName(body.ruleName),
    };
  }

  async update(
    _obj: RuleObject,
    observation: Observation<RuleSeen>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error(`cannot update ${this.what}: observation was not made by this client`);
    if (Object.keys(seen.diff.patch).length === 0) return;
    const record = await this.opts.api.update(seen.id, seen.diff.patch, { signal: ctx.signal });
    return { status: { ...ruleStatusOf(record) } };
  }

  async delete(obj: RuleObject, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    const deleted = await deleteIgnoringNotFound(() =>
      this.opts.api.delete(id, { signal: ctx.signal }),
    );
    if (deleted) ctx.log.info({ ruleId: id }, `Deleted ${this.what}`);
  }
}
