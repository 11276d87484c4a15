/**
 * The external client of a kind that is "a platform object with CRUD": found by the kit's
 * identity rules, compared and written through its field table, deleted by id. A kind gives
 * data (`CrudResource`) and, where it needs more, a few named hooks (plain functions):
 *
 * - `precheck(obj, ctx)`: refuse the object before anything is read (a check the CRD cannot make,
 *   a raw reference to a resource another object manages);
 * - `admit(obj, record)`: refuse a resource the object may never manage (a public registry);
 * - `createBody(obj, body, ctx)`: complete the create body (a secret, a check before creating);
 * - `compare(obj, record, diff)`: differences the table cannot see (a rotated password), and
 *   the status members that comparison learned (`CrudDiff.status`: a secret's fingerprint);
 * - `updateBody(obj, seen, body)`: complete the update body;
 * - `status(record, obj, sent)`, `details(record)`, `notReady(record)`: what status, the
 *   connection Secret and readiness show beyond the table; `sent` is the body of the create or
 *   update just made (absent after a read), for status that records what was written;
 * - `available(obj, record)`: the create's answer already matches the spec (no confirming pass).
 *
 * Observe reads nothing but what the identity rules read; create sends one call (under the
 * provisional name where names are not unique), update one call of the kind's api with the
 * differing members (which may send them to more than one endpoint: it is given the record
 * observe saw), delete one call (404: already gone). Writes to one resource are serialized in
 * this process.
 */
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type {
  ClaimRef,
  ConnectionDetails,
  CreateResult,
  ExternalClient,
  ExternalContext,
  ManagedObject,
  Observation,
  UpdateResult,
} from '../../runtime/types.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { deleteIgnoringNotFound } from '../shared/not-found.js';
import { compareFields, createBody, statusOf, type AnyField, type FieldsDiff } from './fields.js';
import { createNameOf, isProvisionalName, locate, type IdentityRules } from './identity.js';

/** The platform calls of one kind, bound to a client. */
export interface CrudApi<R> {
  create(body: Record<string, unknown>, signal: AbortSignal): Promise<R>;
  /** `record`: the resource as observe saw it (a kind whose members take two calls). */
  update(
    id: string,
    body: Record<string, unknown>,
    signal: AbortSignal,
    record: R,
  ): Promise<R | void>;
  /** A sentence: nothing was sent, the resource cannot be reached (why: its parent is unknown). */
  remove(id: string, signal: AbortSignal): Promise<void | string>;
}

/** The comparison of the table and the `compare` hook. */
export interface CrudDiff extends FieldsDiff {
  /** Status members the comparison learned (merged into the observed status). */
  status?: Record<string, unknown>;
}

/** What observe hands to update: the resource, its id and the plan. */
export interface CrudSeen<R> {
  id: string;
  record: R;
  diff: CrudDiff;
}

/** The named hooks (see the module comment). */
export interface CrudHooks<T extends ManagedObject, R> {
  precheck?(obj: T, ctx: ExternalContext): Promise<void>;
  admit?(obj: T, record: R): void;
  createBody?(
    obj: T,
    body: Record<string, unknown>,
    ctx: ExternalContext,
  ): Promise<Record<string, unknown>>;
  compare?(obj: T, record: R, diff: FieldsDiff): Promise<CrudDiff>;
  updateBody?(
    obj: T,
    seen: CrudSeen<R>,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  status?(record: R, obj: T, sent?: Record<string, unknown>): Record<string, unknown>;
  /** Undefined: nothing to publish yet (the record lacks what the Secret holds). */
  details?(record: R): ConnectionDetails | undefined;
  notReady?(record: R): { reason: string; message: string } | undefined;
  available?(obj: T, record: R): boolean;
}

/** One kind's resource as data. */
export interface CrudResource<T extends ManagedObject, R> {
  /** Status member of the id (`registryId`). */
  readonly idField: string;
  readonly identity: IdentityRules<R, T>;
  readonly fields: readonly AnyField[];
  /** Create-body member of the platform name (the provisional name goes there). */
  readonly nameApi?: string;
  readonly api: CrudApi<R>;
  /** Account fingerprint (claims conflict only within one account). */
  readonly account: string;
  readonly hooks?: CrudHooks<T, R>;
  /** Read the resource back after an update (its answer is not the record). */
  readonly readBack?: boolean;
  /** Claims known only once connected (a record's content in its resolved zone). */
  readonly claims?: readonly ClaimRef[];
}

/** See the module comment. */
export class CrudExternal<T extends ManagedObject, R> implements ExternalClient<T, CrudSeen<R>> {
  constructor(private readonly r: CrudResource<T, R>) {}

  get account(): string {
    return this.r.account;
  }

  get claims(): readonly ClaimRef[] | undefined {
    return this.r.claims;
  }

  private lock(id: string): string {
    return `${this.r.identity.claimType}:${id}`;
  }

  async observe(obj: T, ctx: ExternalContext): Promise<Observation<CrudSeen<R>>> {
    await this.r.hooks?.precheck?.(obj, ctx);
    const found = await locate(this.r.identity, obj, ctx);
    if (!found) return { exists: false, upToDate: false, diff: [] };
    const { id, record } = found;
    if (isDeleting(obj)) return { exists: true, externalId: id, upToDate: true, diff: [] };
    this.r.hooks?.admit?.(obj, record);
    const diff = await this.compare(obj, record);
    return {
      exists: true,
      externalId: id,
      upToDate: diff.diffs.length === 0,
      diff: diff.diffs,
      status: { ...this.statusOf(obj, record), ...diff.status },
      seen: { id, record, diff },
      ...this.extras(record),
    };
  }

  /** Readiness and connection details the hooks add for `record`. */
  private extras(record: R): Pick<Observation, 'notReady' | 'connectionDetails'> {
    const notReady = this.r.hooks?.notReady?.(record);
    const details = this.r.hooks?.details?.(record);
    return {
      ...(notReady ? { notReady } : {}),
      ...(details ? { connectionDetails: details } : {}),
    };
  }

  private async compare(obj: T, record: R): Promise<CrudDiff> {
    const rec = record as Record<string, unknown>;
    const base = compareFields(this.r.fields, obj, rec, this.r.identity.what);
    const diff = this.r.hooks?.compare ? await this.r.hooks.compare(obj, record, base) : base;
    if (diff.problems.length > 0) {
      throw new TerminalError(
        SyncedReason.InvalidSpec,
        `cannot manage ${this.r.identity.what} ${this.r.identity.idOf(record)}: ${diff.problems.join('; ')}; the platform fixes these when the ${this.r.identity.what} is created: restore the spec or create a new object`,
      );
    }
    return diff;
  }

  /** Status of `record`; `sent`: the body of the write that answered it. */
  private statusOf(obj: T, record: R, sent?: Record<string, unknown>): Record<string, unknown> {
    const id = this.r.identity.idOf(record);
    return {
      [this.r.idField]: /^\d+$/.test(id) ? Number(id) : id,
      ...statusOf(this.r.fields, record as Record<string, unknown>),
      ...this.r.hooks?.status?.(record, obj, sent),
    };
  }

  async create(obj: T, ctx: ExternalContext): Promise<CreateResult> {
    let body = createBody(this.r.fields, obj);
    const name = createNameOf(this.r.identity, obj, ctx);
    if (this.r.nameApi !== undefined && name !== undefined) body[this.r.nameApi] = name;
    const provisional = isProvisionalName(name);
    if (this.r.hooks?.createBody) body = await this.r.hooks.createBody(obj, body, ctx);
    const record = await this.r.api.create(body, ctx.signal);
    const id = this.r.identity.idOf(record);
    ctx.log.debug({ id }, `Created ${this.r.identity.what}`);
    const details = this.r.hooks?.details?.(record);
    return {
      externalId: id,
      status: this.statusOf(obj, record, body),
      available: this.isAvailable(obj, record),
      // The rename that follows removes the proof: the id goes to status first.
      ...(provisional ? { recordFirst: true } : {}),
      ...(details ? { connectionDetails: details } : {}),
    };
  }

  /**
   * Usually not proven by the answer alone (a provisional name, read-only members): the runtime
   * observes it in the same pass and updates what is left.
   */
  private isAvailable(obj: T, record: R): boolean {
    return this.r.hooks?.available?.(obj, record) ?? false;
  }

  async update(
    obj: T,
    observation: Observation<CrudSeen<R>>,
    ctx: ExternalContext,
  ): Promise<UpdateResult | void> {
    const seen = observation.seen;
    if (!seen)
      throw new Error(
        `cannot update ${this.r.identity.what}: observation was not made by this client`,
      );
    let body = seen.diff.update;
    if (this.r.hooks?.updateBody) body = await this.r.hooks.updateBody(obj, seen, body);
    if (Object.keys(body).length === 0) return;
    const record = await this.send(seen, body, ctx.signal);
    if (record === undefined) return;
    const { connectionDetails } = this.extras(record);
    return {
      status: this.statusOf(obj, record, body),
      ...(connectionDetails ? { connectionDetails } : {}),
    };
  }

  /** One update call; the record after it (its answer, or read back). */
  private async send(
    { id, record }: CrudSeen<R>,
    body: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<R | undefined> {
    const answer = await withKeyedLock(this.lock(id), () =>
      this.r.api.update(id, body, signal, record),
    );
    if (answer && !this.r.readBack) return answer;
    return this.r.identity.read(id, signal);
  }

  async delete(obj: T, ctx: ExternalContext): Promise<void> {
    const id = ctx.externalId;
    if (id === undefined || obj.spec?.deletionPolicy === 'Orphan') return;
    const said: { unreachable?: string | void } = {};
    const deleted = await withKeyedLock(this.lock(id), () =>
      deleteIgnoringNotFound(async () => {
        said.unreachable = await this.r.api.remove(id, ctx.signal);
      }),
    );
    const what = this.r.identity.what;
    if (said.unreachable) ctx.log.warn({ id }, `Cannot delete ${what}: ${said.unreachable}`);
    else if (deleted) ctx.log.info({ id }, `Deleted ${what}`);
  }
}
