/**
 * The external client of a CRUD resource whose record holds a keyed child list (a DNS zone and
 * its records): the resource's own client (crud-external.ts) completed with the children
 * (child-list.ts) and, where the resource has them, calls of its own (`also`: DNSSEC).
 *
 * - Observe is read-only: the resource's read, whose record holds the children; the child plan
 *   (child-plan.ts) joins the resource's diff, and a plan that cannot be applied as the spec
 *   says is refused before anything is written (child-errors.ts).
 * - Update sends only what differs: the resource's update, its own calls, then one call per
 *   child to create, change or delete, each recorded as an effect right after it (which
 *   children this object created must survive a later failure or a refused status write). A
 *   deletion observe planned is sent only if the claim index still shows nobody managing the
 *   child: an object that adopted it meanwhile keeps it.
 * - The child writes of one resource and its deletion are serialized in this process.
 */
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  CreateResult,
  ExternalClient,
  ExternalContext,
  ManagedObject,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound } from '../shared/not-found.js';
import { ChildCallError, refuseUnappliable } from './child-errors.js';
import {
  childIdOf,
  liveContent,
  type ChildAction,
  type ChildClaims,
  type ChildContent,
  type ChildList,
  type ChildPlan,
  type ChildPlanInput,
  type ChildStatus,
} from './child-list.js';
import { planChildren } from './child-plan.js';
import { CrudExternal, type CrudResource, type CrudSeen } from './crud-external.js';

/** The calls of a child list, bound to a client. */
export interface ChildApi<T extends ManagedObject, R> {
  /** Answers the child added (its id at the list's `idApi`). */
  add(parentId: number, body: Record<string, unknown>, signal: AbortSignal): Promise<object>;
  update(
    parentId: number,
    id: number,
    body: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<unknown>;
  remove(parentId: number, id: number, signal: AbortSignal): Promise<void>;
  /** The parent's own calls after its update (DNSSEC); answers the status they show. */
  also?(obj: T, record: R, ctx: ExternalContext): Promise<Record<string, unknown>>;
}

/** What observe hands to update: the resource and its plan, and the child plan. */
export interface ChildSeen<R, C extends ChildContent> {
  parent: CrudSeen<R>;
  plan: ChildPlan<C>;
  /** What the child plan was made from (planned again before deleting). */
  input: ChildPlanInput<C>;
}

/** The claim lookups of this pass, as a plan takes them. */
function claimLookups(ctx: ExternalContext): ChildClaims {
  return {
    claimedByOther: (type, id) => ctx.claimedByOther?.(type, id) ?? false,
    ...(ctx.claimantsOf ? { claimantsOf: (type, id) => ctx.claimantsOf?.(type, id) ?? [] } : {}),
  };
}

/**
 * The calls observe planned, without the deletions of children some object claims now (adopted
 * between observe and update): planned again from the same live children.
 */
function stillWanted<C extends ChildContent>(
  list: ChildList<C>,
  seen: ChildSeen<unknown, C>,
  ctx: ExternalContext,
): ChildAction[] {
  const { actions } = seen.plan;
  if (!actions.some((a) => a.op === 'delete')) return actions;
  const now = planChildren(list, { ...seen.input, ...claimLookups(ctx) });
  const still = new Set(now.actions.flatMap((a) => (a.op === 'delete' ? [a.id] : [])));
  return actions.filter((a) => a.op !== 'delete' || still.has(a.id));
}

/** See the module comment. */
export class CrudWithChildren<
  T extends ManagedObject,
  R,
  C extends ChildContent,
> implements ExternalClient<T, ChildSeen<R, C>> {
  private readonly parent: CrudExternal<T, R>;

  constructor(
    private readonly resource: CrudResource<T, R>,
    private readonly list: ChildList<C>,
    private readonly api: ChildApi<T, R>,
  ) {
    this.parent = new CrudExternal(resource);
  }

  /** The account fingerprint (claims conflict only within one account). */
  get account(): string {
    return this.resource.account;
  }

  private lock(id: string | undefined): string {
    return `${this.list.path}:${this.resource.identity.claimType}:${id}`;
  }

  async observe(obj: T, ctx: ExternalContext): Promise<Observation<ChildSeen<R, C>>> {
    const { seen: parent, ...found } = await this.parent.observe(obj, ctx);
    if (!parent || isDeleting(obj)) return found;
    const input = this.inputOf(obj, parent, ctx);
    const plan = planChildren(this.list, input);
    refuseUnappliable(this.list, plan);
    const diff = [...found.diff, ...plan.diffs];
    return {
      ...found,
      upToDate: diff.length === 0,
      diff,
      status: { ...found.status, [this.list.path]: plan.observed },
      seen: { parent, plan, input },
    };
  }

  /** The plan input of `obj` whose resource observe saw as `parent`. */
  private inputOf(obj: T, parent: CrudSeen<R>, ctx: ExternalContext): ChildPlanInput<C> {
    const { namespace, name } = obj.metadata;
    const { path, policyPath, liveApi } = this.list;
    return {
      parentId: Number(parent.id),
      parent: { namespace, name },
      entries: obj.spec?.[path] as object[] | undefined,
      policy: obj.spec?.[policyPath] as string | undefined,
      live: ((parent.record as Record<string, unknown>)[liveApi] ?? []) as object[],
      previous: obj.status?.[path] as ChildStatus<C>[] | undefined,
      ...claimLookups(ctx),
    };
  }

  async create(obj: T, ctx: ExternalContext): Promise<CreateResult> {
    // The parent's own calls and the children are applied by the update of the same pass.
    const created = await this.parent.create(obj, ctx);
    return { ...created, status: { ...created.status, [this.list.path]: [] } };
  }

  async update(
    obj: T,
    observation: Observation<ChildSeen<R, C>>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error(
        `cannot update ${this.resource.identity.what}: observation was not made by this client`,
      );
    return withKeyedLock(this.lock(seen.parent.id), async () => {
      const own = await this.parent.update(obj, { ...observation, seen: seen.parent }, ctx);
      const also = await this.api.also?.(obj, seen.parent.record, ctx);
      const actions = stillWanted(this.list, seen, ctx);
      const children = await this.applyAll(seen, actions, ctx);
      const counted = this.countOf(seen, actions);
      return { status: { ...own?.status, ...also, [this.list.path]: children, ...counted } };
    });
  }

  /** The status count of the children once `actions` are made. */
  private countOf(seen: ChildSeen<R, C>, actions: readonly ChildAction[]): Record<string, number> {
    if (this.list.countStatus === undefined) return {};
    const n = (op: ChildAction['op']): number => actions.filter((a) => a.op === op).length;
    return { [this.list.countStatus]: seen.input.live.length + n('create') - n('delete') };
  }

  /** Runs the child calls; answers the status list with the children created. */
  private async applyAll(
    seen: ChildSeen<R, C>,
    actions: readonly ChildAction[],
    ctx: ExternalContext,
  ): Promise<ChildStatus<C>[]> {
    const items = [...seen.plan.observed];
    for (const action of actions) {
      const done = await this.apply(seen.input.parentId, action, ctx).catch((err: unknown) => {
        throw new ChildCallError(this.list, action, err);
      });
      if (action.op === 'delete') {
        const i = items.findIndex((r) => r.id === action.id);
        if (i >= 0) items.splice(i, 1);
      }
      if (done) items.push(done);
      // Which children this object created must outlive a failure later in the pass or a
      // refused status write: recorded after each call (the whole list, as status holds it).
      if (action.op !== 'update') ctx.recordEffect?.({ [this.list.path]: [...items] });
    }
    return items;
  }

  /** One child call; answers the status item of a child it created. */
  private async apply(
    parentId: number,
    action: ChildAction,
    ctx: ExternalContext,
  ): Promise<ChildStatus<C> | undefined> {
    const { signal, log } = ctx;
    const what = `${this.resource.identity.what} ${this.list.what}`;
    const ids = (id: unknown): object => ({
      [this.resource.idField]: parentId,
      [`${this.list.what}Id`]: id,
    });
    if (action.op === 'update') {
      await this.api.update(parentId, action.id, action.record, signal);
      return undefined;
    }
    if (action.op === 'delete') {
      const remove = (): Promise<void> => this.api.remove(parentId, action.id, signal);
      if (await deleteIgnoringNotFound(remove)) log.info(ids(action.id), `Deleted ${what}`);
      return undefined;
    }
    const id = childIdOf(this.list, await this.api.add(parentId, action.record, signal));
    log.info(ids(id), `Created ${what}`);
    return { ...liveContent(this.list, action.record), id: Number(id), created: true };
  }

  delete(obj: T, ctx: ExternalContext): Promise<void> {
    // Not while this process writes the resource's children.
    return withKeyedLock(this.lock(ctx.externalId), () => this.parent.delete(obj, ctx));
  }
}
