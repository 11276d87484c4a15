/**
 * The external client of a shield rule kind: observe / create / update / delete of one rule on
 * one shield zone, bound to one account's client.
 *
 * - Observe is read-only: one GET by id. Without an id nothing is read (the rule is created),
 *   except for an explicit adoption by name (`spec.adoption.policy: ByName`) and the crash
 *   recovery of our own create, which list the zone's rules and match the name exactly (rule
 *   names are not unique on the platform; two matches are refused as ambiguous) and skip rules
 *   another object manages. A rule read by id that lives on another shield zone is refused
 *   before anything is written.
 * - Create sends one `POST`; a refusal for the zone's plan (403) is reported as
 *   {@link PlanNotSufficientError}, which is retried slowly (see classify.ts).
 * - Update sends one `PATCH` with the differing members only (diff.ts).
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
import { ADOPT_BY_NAME, adoptionPolicyOf } from '../shared/ownership-schema.js';
import { isNotFound, NotFound, readById } from '../shared/read-by-id.js';
import { desiredRule, diffRule, type RuleDiff } from './diff.js';
import type { RuleApi, RuleCreateBody, RuleFamily } from './family.js';
import type { RuleRecord, ShieldRuleStatusBase } from './types.js';
import type { RuleObject } from './zone.js';
import { checkUnmanagedZone, type PullZoneOf } from './unmanaged-zone.js';

/** Reason when an adopted rule lives on another shield zone than the spec names. */
export const ZoneMismatch = 'ZoneMismatch';
export { ReferenceNotAllowed } from './unmanaged-zone.js';
/** Reason when ByName finds more than one rule with the name. */
export const AmbiguousName = 'AmbiguousName';

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

/** See the module comment. */
export class RuleExternal implements ExternalClient<RuleObject> {
  private readonly observed = new WeakMap<Observation, { id: number; diff: RuleDiff }>();

  constructor(private readonly opts: RuleExternalOptions) {}

  get account(): string {
    return this.opts.account;
  }

  private get what(): string {
    return this.opts.family.what;
  }

  async observe(obj: RuleObject, ctx: ExternalContext): Promise<Observation> {
    await checkUnmanagedZone(obj, this.opts.shieldZoneId, this.opts.pullZoneOf, ctx);
    const record = await this.find(obj, ctx);
    if (!record) return { exists: false, upToDate: false, diff: [] };
    this.checkZone(obj, record);
    const want = desiredRule(
      this.opts.family.members,
      obj.spec ?? ({} as never),
      obj.metadata.name,
    );
    const diff = diffRule(this.opts.family.members, want, record);
    const obs: Observation = {
      exists: true,
      externalId: String(record.id),
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...ruleStatusOf(record) },
    };
    this.observed.set(obs, { id: Number(record.id), diff });
    return obs;
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

  private async find(obj: RuleObject, ctx: ExternalContext): Promise<RuleRecord | undefined> {
    if (ctx.externalId) return this.findById(obj, ctx.externalId, ctx.signal);
    if (isDeleting(obj) || this.opts.shieldZoneId === undefined) return undefined;
    const name = ruleNameOf(obj);
    if (ctx.createPending) {
      const found = await this.searchByName(name, ctx);
      // Our own create, not yet recorded: the one match that no other object manages.
      return found.length === 1 ? found[0] : undefined;
    }
    if (adoptionPolicyOf(obj.spec) !== ADOPT_BY_NAME) return undefined;
    const found = await this.searchByName(name, ctx);
    if (found.length === 1) return found[0];
    throw new TerminalError(
      found.length === 0 ? NotFound : AmbiguousName,
      `cannot adopt ${this.what} ${JSON.stringify(name)} (spec.adoption.policy ByName): ${
        found.length === 0
          ? `shield zone ${this.opts.shieldZoneId} has no rule with this name`
          : `shield zone ${this.opts.shieldZoneId} has ${found.length} rules with this name that no other object manages; adopt one by spec.ruleId`
      }`,
    );
  }

  private findById(
    obj: RuleObject,
    externalId: string,
    signal: AbortSignal,
  ): Promise<RuleRecord | undefined> {
    return readById(() => this.opts.api.get(Number(externalId), { signal }), {
      externalId,
      adoptedField: obj.spec?.ruleId !== undefined ? 'spec.ruleId' : undefined,
      deleting: isDeleting(obj),
      what: this.what,
    });
  }

  /** Rules of the zone named exactly `name` (the platform's rule names are case-sensitive). */
  private async searchByName(name: string, ctx: ExternalContext): Promise<RuleRecord[]> {
    const rules = await this.opts.api.list(this.opts.shieldZoneId!, { signal: ctx.signal });
    const type = this.opts.family.names.kind;
    return rules.filter((r) => r.ruleName === name && !ctx.claimedByOther?.(type, String(r.id)));
  }

  async create(obj: RuleObject, ctx: ExternalContext): Promise<CreateResult> {
    const spec = obj.spec ?? ({} as never);
    if (spec.ruleId !== undefined) {
      throw new TerminalError(
        NotFound,
        `cannot create ${this.what}: spec.ruleId ${spec.ruleId} is set, so the rule is only adopted`,
      );
    }
    const zone = this.opts.shieldZoneId;
    if (zone === undefined)
      throw new Error(`cannot create ${this.what}: the shield zone is unknown`);
    const want = desiredRule(this.opts.family.members, spec, obj.metadata.name);
    const body: RuleCreateBody = {
      shieldZoneId: zone,
      ruleName: want.name ?? ruleNameOf(obj),
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
    };
  }

  async update(
    _obj: RuleObject,
    observation: Observation,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = this.observed.get(observation);
    if (!seen)
      throw new Error(`cannot update ${this.what}: observation was not made by this client`);
    if (Object.keys(seen.diff.patch).length === 0) return;
    const record = await this.opts.api.update(seen.id, seen.diff.patch, { signal: ctx.signal });
    return { status: { ...ruleStatusOf(record) } };
  }

  async delete(obj: RuleObject, ctx: ExternalContext): Promise<void> {
    if (!ctx.externalId || obj.spec?.deletionPolicy === 'Orphan') return;
    const id = Number(ctx.externalId);
    try {
      await this.opts.api.delete(id, { signal: ctx.signal });
      ctx.log.info({ ruleId: id }, `Deleted ${this.what}`);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
