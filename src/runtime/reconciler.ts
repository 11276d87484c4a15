/**
 * The managed reconciler (Crossplane-style), kind-agnostic. One pass:
 *
 *   get from cache → paused? → deleting? → connect (credentials) → observe →
 *   dry-run plan | create | update | nothing → one status write (only when changed)
 *
 * Deletion: `deletionPolicy: Orphan` (or dry-run) removes the finalizer without calling
 * delete; otherwise delete is called and the finalizer is removed only when a later observe
 * reports `exists: false`. Creates are guarded (see create-guard.ts): one metadata write
 * (finalizer + signed create-pending marker, resourceVersion precondition), the create, then
 * one status write recording the id and availability (observed right after the create when
 * its answer does not prove it). Errors are classified (classify.ts) and turned into
 * conditions, events (deduplicated) and a requeue decision; see docs/runtime.md.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { jitterDuration } from './backoff.js';
import { classifyError } from './classify.js';
import { publishDetails, type SecretAccess } from './connection-secret.js';
import { fenceClient, FencedError } from './fence.js';
import { slotClient, type PlatformSlots } from './platform-slots.js';
import { currentRequestPriority } from '../common/pass-context.js';
import { setConditions, findCondition, formatTime, type ConditionInput } from './conditions.js';
import {
  buildPendingMetadataPatch,
  buildPendingStatusPatch,
  clearPendingPatch,
  createTokenFor,
  hasUnverifiableMarker,
  isCreatePending,
  pendingRecord,
  recordedExternalId,
  statusRecordedId,
  verifiedMarkerTime,
  type MarkerSigner,
} from './create-guard.js';
import { PendingCreates } from './pending-create.js';
import { isObserveOnly } from './management-policy.js';
import type { PageObserver } from './observe-by-pages.js';
import { wrapClient } from './wrap-client.js';
import type { ClaimIndex } from './claims.js';
import { OWNERSHIP_FIELD, ownershipOf } from './claims-status.js';
import { Ownership } from './ownership.js';
import { TerminalError, WaitingError, type ClassifiedError } from './errors.js';
import { resolvePollInterval } from './poll-interval.js';
import { hasFinalizer, isDeleting, withFinalizer, withoutFinalizer } from './finalizer.js';
import { isKubeStatus } from './kube-client.js';
import type { ObjectWriter } from './object-writer.js';
import { Annotation, ConditionType, EventReason, ReadyReason, SyncedReason } from './reasons.js';
import type { StatusWriter } from './status-writer.js';
import type {
  ConnectContext,
  ConnectionDetails,
  ExternalClient,
  ExternalContext,
  FieldDiff,
  ManagedKind,
  ClaimRef,
  CreateResult,
  ManagedObject,
  ManagedStatus,
  Observation,
  UpdateResult,
} from './types.js';

/** The Synced message of an observe-only object. */
const OBSERVE_ONLY_MESSAGE =
  'Observe-only (spec.managementPolicy: Observe): the operator reads this resource and never creates, changes or deletes it';

/** The soonest a kind's `Observation.requeueAfterMs` brings the next pass. */
const MIN_KIND_REQUEUE_MS = 1000;

/** What the worker does with the key after a pass. */
export interface ReconcileResult {
  /** success | error | conflict | waiting | terminal | unauthorized | paused | gone | dry-run */
  outcome: string;
  /** Schedule the next pass after this many ms (poll, confirm, recheck). */
  requeueAfterMs?: number;
  /** Retry with the per-item exponential backoff, at least this many ms. */
  retryMinDelayMs?: number;
  /** Error class, when the pass failed. */
  errorClass?: ClassifiedError['class'];
}

/** Event sink (see events.ts). */
export interface EventSink {
  record(obj: ManagedObject, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Counters the reconciler reports (see metrics.ts). */
export interface ReconcilerCounters {
  externalCall(operation: 'observe' | 'create' | 'update' | 'delete' | 'connect'): void;
  statusWrite(): void;
  objectWrite(operation: string): void;
}

/** Timing knobs; defaults in {@link DEFAULT_TIMINGS}. */
export interface ReconcilerTimings {
  /** Default drift-check interval (jittered ±10 %). */
  pollIntervalMs: number;
  /** Re-observe interval while Ready=False because of `Observation.notReady`. */
  notReadyPollMs: number;
  /** Observe this soon after a create to confirm it. */
  afterCreateMs: number;
  /** First confirm delay after a delete call (doubles per attempt, max 1 min). */
  afterDeleteMs: number;
  /** Recheck interval after an Unauthorized error. */
  unauthorizedRecheckMs: number;
  /** Requeue delay for a waiting error without its own. */
  waitingMs: number;
  /**
   * A waiting error (e.g. a referenced object not created yet) of an object this young that
   * has no status yet is not written to status (nor an event): objects applied together
   * usually resolve within seconds, and a condition written then would be one more
   * Kubernetes write per create. After this, or once it has status, it is reported.
   */
  waitingGraceMs: number;
  /**
   * How long after a create whose answer was lost the runtime keeps looking the resource up
   * (and adopting it when found) before it presumes the create did not happen and sends
   * another (pending-create.ts).
   */
  pendingCreateWindowMs: number;
}

/** Defaults for {@link ReconcilerTimings}. */
export const DEFAULT_TIMINGS: ReconcilerTimings = {
  pollIntervalMs: 600_000,
  notReadyPollMs: 15_000,
  afterCreateMs: 2_000,
  afterDeleteMs: 2_000,
  unauthorizedRecheckMs: 300_000,
  waitingMs: 5_000,
  waitingGraceMs: 10_000,
  pendingCreateWindowMs: 60_000,
};

/** Dependencies of a {@link ManagedReconciler}. */
export interface ReconcilerDeps {
  kind: ManagedKind;
  getCached(key: string): ManagedObject | undefined;
  /** Stores an object the runtime just wrote (write-through), unless the cache has newer. */
  storeWritten(obj: ManagedObject): void;
  writer: ObjectWriter;
  status: StatusWriter;
  connectContext(log: Logger): ConnectContext;
  events: EventSink;
  counters?: ReconcilerCounters;
  log: Logger;
  signal: AbortSignal;
  timings?: Partial<ReconcilerTimings>;
  now?: () => Date;
  /** Leader fence: asked right before every platform write (see fence.ts). */
  mayWrite?: () => boolean;
  /** Cluster-wide claim index (claims.ts); without it no claim is ever refused (unit tests). */
  claims?: ClaimIndex;
  /** Platform-call slots of the kind (platform-slots.ts); without them calls are not gated. */
  slots?: PlatformSlots;
  /** Where connection Secrets are read and written (connection-secret.ts); without it none is. */
  secrets?: SecretAccess;
  /** Monotonic ms for the pending-create window (tests); default `performance.now`. */
  monotonicNow?: () => number;
  /** Observe by pages (observe-by-pages.ts); without it every read is by id. */
  pages?: PageObserver;
}

/** How a pass was asked for. */
export interface PassOptions {
  /**
   * The pass is periodic (a poll requeue or a sweep's change, taken from the low lane), not a
   * change, a create or a deletion: its observe may be answered from the swept-record cache.
   */
  periodic?: boolean;
}

type Stage =
  'connect' | 'claim' | 'observe' | 'create' | 'update' | 'publish' | 'delete' | 'finalize';

const STAGE_EVENT: Record<Stage, string> = {
  connect: EventReason.CannotConnectToProvider,
  claim: EventReason.CannotClaimExternalResource,
  observe: EventReason.CannotObserveExternalResource,
  create: EventReason.CannotCreateExternalResource,
  update: EventReason.CannotUpdateExternalResource,
  publish: EventReason.CannotPublishConnectionDetails,
  delete: EventReason.CannotDeleteExternalResource,
  finalize: EventReason.CannotDeleteExternalResource,
};

/** Mutable state of one pass. */
interface Pass {
  obj: ManagedObject;
  log: Logger;
  stage: Stage;
  /** Status fields to merge (id, observed fields). */
  extra: Record<string, unknown>;
  conditions: ConditionInput[];
  plannedChanges?: FieldDiff[];
  /** Claims the client knows once connected (`ExternalClient.claims`). */
  connectClaims: readonly ClaimRef[];
  /** Set when the pass succeeded, to refresh lastSyncTime when status is written anyway. */
  synced: boolean;
  /** Account fingerprint of the connected client. */
  account?: string;
  /** Set when this pass adopted an existing resource by name. */
  adoptedByName?: boolean;
  /** Set when observe found the resource of this object's lost create (id not in status yet). */
  recovered?: boolean;
  /** Signs and verifies the create-pending marker (when the client offers a marker key). */
  signer?: MarkerSigner;
  /** The latest connection details of this pass (observe, create or update), to publish. */
  details?: ConnectionDetails;
  /** The create was handed to the client and no answer came back (yet). */
  createUnanswered?: boolean;
  /** Status fields the kind recorded as platform effects (`ctx.recordEffect`). */
  effects: Record<string, unknown>;
  /** The next observe may read the swept-record cache (a periodic pass, before its first observe). */
  mayUseSweep: boolean;
  /** The last observe was answered from the swept-record cache. */
  fromSweep: boolean;
}

/** See the module comment. */
export class ManagedReconciler {
  private readonly timings: ReconcilerTimings;
  private readonly now: () => Date;
  private readonly deleteAttempts = new Map<string, number>();
  private readonly pending: PendingCreates;
  private readonly ownership: Ownership;

  constructor(private readonly deps: ReconcilerDeps) {
    this.ownership = new Ownership(deps.kind, deps.claims);
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
    this.now = deps.now ?? (() => new Date());
    this.pending = new PendingCreates(
      this.timings.pendingCreateWindowMs,
      deps.monotonicNow ?? ((): number => performance.now()),
    );
  }

  /** Runs one pass for `key` (`namespace/name`). Never throws. */
  async reconcile(key: string, opts: PassOptions = {}): Promise<ReconcileResult> {
    const obj = this.deps.getCached(key);
    if (!obj) {
      this.forget(key);
      return { outcome: 'gone' };
    }
    const log = this.deps.log.child({
      controller: this.deps.kind.name,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
      reconcileID: randomUUID(),
    });
    const pass: Pass = {
      obj,
      log,
      stage: 'connect',
      extra: {},
      conditions: [],
      synced: false,
      effects: {},
      connectClaims: [],
      mayUseSweep: opts.periodic === true && !isDeleting(obj),
      fromSweep: false,
    };
    try {
      return await this.run(pass);
    } catch (err) {
      if (await this.vanished(pass.obj, err)) return this.gone(key, pass.log);
      return this.fail(pass, err);
    }
  }

  /**
   * True when `err` is a 404 on one of the runtime's own writes and the object is really gone
   * (a GET answers 404, or the name now belongs to another object). A 404 on the status write
   * of an object that still exists (a CRD without the status subresource) stays a conflict.
   */
  private async vanished(obj: ManagedObject, err: unknown): Promise<boolean> {
    if (!isKubeStatus(err, 404)) return false;
    try {
      const now = await this.deps.writer.get(obj.metadata.namespace, obj.metadata.name);
      return now.metadata.uid !== obj.metadata.uid;
    } catch (getErr) {
      return isKubeStatus(getErr, 404);
    }
  }

  /** The object was deleted while the pass ran: nothing to retry; its delete event follows. */
  private gone(key: string, log: Logger): ReconcileResult {
    log.debug({ key }, 'Object is gone, dropping it');
    this.forget(key);
    return { outcome: 'gone' };
  }

  /** Drops every per-object entry of `key` (delete event, or a pass that finds it gone). */
  forget(key: string): void {
    this.deleteAttempts.delete(key);
    this.pending.resolve(key);
    this.deps.status.forgetKey(key);
    this.deps.pages?.forget({ kind: this.deps.kind.name, key });
  }

  private async run(pass: Pass): Promise<ReconcileResult> {
    const { obj } = pass;
    if (obj.metadata.annotations?.[Annotation.Paused] === 'true') return this.paused(pass);
    if (isDeleting(obj)) return this.reconcileDeletion(pass);
    const { client, ctx } = await this.connect(pass);
    pass.stage = 'observe';
    const obs = await this.observe(pass, client, ctx);
    if (isObserveOnly(obj)) return this.observeOnly(pass, obs);
    if (isDryRun(obj)) return this.dryRun(pass, obs);
    if (!obs.exists) return this.create(pass, client, ctx);
    await this.ensureFinalizer(pass);
    // The update may rename a recovered resource (its provisional name is the proof it is
    // ours): its id goes to status first, as after a create (recordFirst).
    if (pass.recovered === true && !obs.upToDate) await this.recordRecovered(pass);
    const updated = obs.upToDate ? obs : await this.update(pass, client, obs, ctx);
    const result = await this.succeed(pass, updated, SyncedReason.ReconcileSuccess, '');
    this.deps.log.debug({ key: keyOf(obj) }, 'Reconciled');
    return result;
  }

  /**
   * The end of a pass that succeeded on an existing resource: connection details published,
   * Ready from the observation, Synced=True with `reason`, `status.ownership`, one status write.
   */
  private async succeed(
    pass: Pass,
    obs: Observation,
    reason: string,
    message: string,
  ): Promise<ReconcileResult> {
    const published = await this.publish(pass, obs);
    pass.conditions.push(readyFrom(published, pass.obj), synced(reason, message, pass.obj));
    pass.synced = true;
    this.recordOwnership(pass);
    await this.writeStatus(pass);
    return { outcome: 'success', requeueAfterMs: this.pollDelay(pass.obj, published) };
  }

  private async connect(pass: Pass): Promise<{ client: ExternalClient; ctx: ExternalContext }> {
    const { kind } = this.deps;
    this.deps.counters?.externalCall('connect');
    const raw = await kind.connect(pass.obj, this.deps.connectContext(pass.log));
    if (raw.markerKey) pass.signer = { key: raw.markerKey, account: raw.account };
    const fenced = fenceClient(raw, this.deps.mayWrite);
    const { slots } = this.deps;
    const client = this.noteWrites(
      pass,
      slots ? slotClient(fenced, slots, () => currentRequestPriority() ?? 'low') : fenced,
    );
    pass.account = client.account;
    pass.stage = 'claim';
    pass.connectClaims = client.claims ?? [];
    this.ownership.admit(pass.obj, pass.connectClaims, pass.account);
    pass.stage = 'connect';
    // A deletion acts only on what the status records, never on a spec id alone.
    const externalId = isDeleting(pass.obj)
      ? statusRecordedId(kind, pass.obj)
      : recordedExternalId(kind, pass.obj);
    const uid = pass.obj.metadata.uid;
    const ctx: ExternalContext = {
      externalId,
      createPending: isCreatePending(pass.obj, externalId, pass.signer),
      ...(pass.signer && uid ? { createToken: createTokenFor(pass.signer, uid) } : {}),
      log: pass.log,
      signal: this.deps.signal,
      ...this.ownership.lookups(pass.obj, client.account),
      recordEvent: (e) => this.deps.events.record(pass.obj, e.type, e.reason, e.message),
      recordEffect: (status) => {
        Object.assign(pass.effects, status);
        Object.assign(pass.extra, status);
      },
      ...this.ownReader(pass),
    };
    return { client, ctx };
  }

  /**
   * `ctx.readOwn` (observe by pages): the swept-record cache answers only the first observe of
   * a periodic pass, under the rules of observe-by-pages.ts; every other read is by id.
   */
  private ownReader(pass: Pass): Pick<ExternalContext, 'readOwn'> {
    const pages = this.deps.pages;
    if (!pages) return {};
    const { obj } = pass;
    return {
      readOwn: (source, id, readById) =>
        pages.read(
          {
            kind: this.deps.kind.name,
            key: keyOf(obj),
            uid: obj.metadata.uid,
            account: pass.account,
            periodic: pass.mayUseSweep,
            maxAgeMs: resolvePollInterval(obj, this.timings.pollIntervalMs).ms,
          },
          source,
          id,
          readById,
          () => (pass.fromSweep = true),
        ),
    };
  }

  /** `client` noting each platform write's end for the read-your-writes rule of the cache. */
  private noteWrites(pass: Pass, client: ExternalClient): ExternalClient {
    const pages = this.deps.pages;
    if (!pages) return client;
    const who = { kind: this.deps.kind.name, key: keyOf(pass.obj) };
    return wrapClient(client, async (operation, _ctx, call) => {
      if (operation === 'observe') return call();
      try {
        return await call();
      } finally {
        pages.wrote(who, pass.obj.metadata.uid);
      }
    });
  }

  /** Records account, adoption and the effective deletion policy in `status.ownership`. */
  private recordOwnership(pass: Pass): void {
    pass.extra[OWNERSHIP_FIELD] = this.ownership.record(
      pass.obj,
      pass.account,
      pass.adoptedByName === true,
    );
  }

  /** Observes and records what observe learned (adopted id, observed fields) in the pass. */
  private async observe(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
  ): Promise<Observation> {
    const obs = await this.observeOnce(pass, client, ctx);
    const found =
      obs.exists && obs.externalId !== undefined && obs.externalId !== ctx.externalId
        ? obs.externalId
        : undefined;
    // A resource found by name must not be one another object manages (checked before any
    // of its observed fields can reach this object's status).
    if (found) {
      pass.stage = 'claim';
      this.ownership.admitFound(pass.obj, found, pass.account);
      pass.stage = 'observe';
    }
    recordObserved(pass, obs);
    this.recordKindEvents(pass, obs);
    if (found) this.recordFound(pass, found, obs, ctx);
    // An id the spec gave (adoption by id) is recorded too, whether or not observe reports it
    // in its status fields: the ID printer column and status readers rely on it.
    else if (obs.exists && ctx.externalId !== undefined)
      this.recordId(pass, ctx.externalId, obs.status);
    return obs;
  }

  /**
   * One observation. When the swept-record cache answered it and it wants anything (not up to
   * date, not there) or reports the resource not ready yet (a readiness change must not wait
   * for the next sweep), it is made again by id: nothing is ever decided on a cached record.
   */
  private async observeOnce(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
  ): Promise<Observation> {
    this.deps.counters?.externalCall('observe');
    const first = await client.observe(pass.obj, ctx);
    pass.mayUseSweep = false;
    if (!pass.fromSweep) return first;
    pass.fromSweep = false;
    if (first.exists && first.upToDate && !first.notReady) return first;
    pass.log.debug({ upToDate: first.upToDate }, 'Swept record differs, reading by id');
    this.deps.counters?.externalCall('observe');
    return client.observe(pass.obj, ctx);
  }

  /** Records the events the kind asked for in its observation (`Observation.events`). */
  private recordKindEvents(pass: Pass, obs: Observation): void {
    for (const e of obs.events ?? [])
      this.deps.events.record(pass.obj, e.type, e.reason, e.message);
  }

  /** Records an id observe found by name (crash recovery or explicit adoption by name). */
  private recordFound(pass: Pass, id: string, obs: Observation, ctx: ExternalContext): void {
    pass.adoptedByName = !ctx.createPending && ctx.externalId === undefined;
    pass.recovered = ctx.createPending === true;
    this.recordId(pass, id, obs.status);
    const observing = isObserveOnly(pass.obj);
    pass.log.info(
      { externalId: id, createPending: ctx.createPending },
      observing ? 'Observing external resource' : 'Adopted external resource',
    );
    this.deps.events.record(
      pass.obj,
      'Normal',
      observing ? EventReason.ObservingExternalResource : EventReason.AdoptedExternalResource,
      `${observing ? 'Observing' : 'Adopted'} external resource ${id}`,
    );
    ctx.externalId = id;
    ctx.createPending = false;
    this.pending.resolve(keyOf(pass.obj));
  }

  private recordId(pass: Pass, id: string, hint?: Record<string, unknown>): void {
    const field = this.deps.kind.idStatusField;
    pass.extra[field] = idValue(id, hint?.[field], pass.obj.status?.[field]);
  }

  private async paused(pass: Pass): Promise<ReconcileResult> {
    pass.conditions.push(
      synced(
        SyncedReason.ReconcilePaused,
        `Reconciliation is paused by the ${Annotation.Paused} annotation`,
        pass.obj,
        'False',
      ),
    );
    this.deps.events.record(
      pass.obj,
      'Normal',
      EventReason.ReconcilePaused,
      'Reconciliation is paused',
    );
    if (!isDeleting(pass.obj)) await this.writeStatus(pass);
    return { outcome: 'paused' };
  }

  /**
   * An observe-only pass (management-policy.ts): what observe found goes to status and
   * connection details are published; nothing is created, updated or deleted and no finalizer
   * is added. A resource that is not found is reported, never created.
   */
  private async observeOnly(pass: Pass, obs: Observation): Promise<ReconcileResult> {
    const { obj } = pass;
    pass.plannedChanges = undefined;
    if (obs.exists) return this.succeed(pass, obs, SyncedReason.ObserveOnly, OBSERVE_ONLY_MESSAGE);
    pass.conditions.push(
      notCreated(obj, 'observe-only'),
      synced(SyncedReason.ObserveOnly, OBSERVE_ONLY_MESSAGE, obj, 'False'),
    );
    await this.writeStatus(pass);
    return { outcome: 'success', requeueAfterMs: this.pollDelay(obj, obs) };
  }

  private dryRun(pass: Pass, obs: Observation): Promise<ReconcileResult> {
    const { obj } = pass;
    const plan: FieldDiff[] = obs.exists
      ? obs.diff
      : [{ field: '(resource)', live: '<absent>', desired: '<created>' }];
    pass.plannedChanges = plan;
    const ready = obs.exists ? readyFrom(obs, obj) : notCreated(obj, 'dry-run');
    const message =
      plan.length === 0
        ? 'Dry-run: no changes planned'
        : `Dry-run: ${plan.length} change(s) planned, see status.plannedChanges`;
    pass.conditions.push(
      ready,
      synced(SyncedReason.DryRun, message, obj, plan.length === 0 ? 'True' : 'False'),
    );
    if (plan.length > 0)
      this.deps.events.record(
        obj,
        'Normal',
        EventReason.DryRunPlanned,
        `${message}: ${summarizeDiff(plan)}`,
      );
    return this.writeStatus(pass).then(() => ({
      outcome: 'dry-run',
      requeueAfterMs: this.pollDelay(obj, obs),
    }));
  }

  private async create(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
  ): Promise<ReconcileResult> {
    pass.stage = 'create';
    pass.plannedChanges = undefined;
    // An adopted resource that is gone is reported, never replaced by a new one.
    if (this.ownership.isAdopted(pass.obj)) throw adoptedGoneError(this.deps.kind, pass.obj);
    if (ctx.createPending) this.awaitPendingCreate(pass);
    if (hasUnverifiableMarker(pass.obj, pass.signer)) throw unverifiableMarkerError();
    // One create at a time per claim known at connect (a DNS record's content).
    this.ownership.beginCreate(pass.obj, pass.connectClaims);
    const created = await this.sendCreate(pass, client, ctx);
    const marked = pass.obj;
    this.pending.resolve(keyOf(marked));
    pass.log.info({ externalId: created.externalId }, 'Created external resource');
    if (created.status) Object.assign(pass.extra, created.status);
    pass.details = created.connectionDetails;
    this.recordId(pass, created.externalId, created.status);
    this.recordOwnership(pass);
    this.deps.events.record(
      marked,
      'Normal',
      EventReason.CreatedExternalResource,
      `Created external resource ${created.externalId}`,
    );
    if (created.recordFirst === true) await this.recordCreated(pass);
    const confirmed =
      created.available === true
        ? ({ exists: true, upToDate: true, diff: [] } as Observation)
        : await this.settleAfterCreate(pass, client, ctx, created.externalId);
    const settled = confirmed && (await this.publish(pass, confirmed));
    pass.conditions.push(
      settled ? readyFrom(settled, marked) : createdReadyCondition(marked),
      synced(SyncedReason.ReconcileSuccess, '', marked),
    );
    pass.synced = true;
    await this.writeStatusAfterCreate(pass);
    const requeueAfterMs = settled ? this.pollDelay(marked, settled) : this.timings.afterCreateMs;
    return { outcome: 'success', requeueAfterMs };
  }

  /** Writes the id of a recovered lost create (and its claim) before the update touches it. */
  private async recordRecovered(pass: Pass): Promise<void> {
    this.recordOwnership(pass);
    await this.recordCreated(pass);
  }

  /**
   * Writes the create's id (and Ready=False Creating) before anything else touches the
   * resource (`CreateResult.recordFirst`); the pass's final status write reports availability.
   */
  private async recordCreated(pass: Pass): Promise<void> {
    pass.conditions.push(
      createdReadyCondition(pass.obj),
      synced(SyncedReason.ReconcileSuccess, '', pass.obj),
    );
    await this.writeStatusAfterCreate(pass);
    pass.conditions = [];
  }

  /**
   * The create-pending marker, then the create. The create's mark on the claims (beginCreate)
   * is dropped when nothing was sent or the platform refused it; an unanswered create keeps
   * it until the status records the resource (or the object goes).
   */
  private async sendCreate(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
  ): Promise<CreateResult> {
    try {
      const marked = await this.markCreatePending(pass);
      this.deps.counters?.externalCall('create');
      pass.createUnanswered = true;
      const created = await client.create(marked, { ...ctx, createPending: false });
      pass.createUnanswered = false;
      return created;
    } catch (err) {
      const c = classifyError(err, (e) => this.deps.kind.classifyError(e));
      if (pass.createUnanswered !== true || madeNothing(c)) this.ownership.endCreate(pass.obj);
      throw err;
    }
  }

  /**
   * A create of this object is pending and its lookup missed: within the pending-create window
   * nothing is created, the pass waits (Ready=False CreatePending) and looks again; once the
   * window passed the create is presumed not to have happened and the pass goes on to create.
   */
  private awaitPendingCreate(pass: Pass): void {
    const { obj } = pass;
    const decision = this.pending.decide(keyOf(obj), obj.metadata.uid);
    if (decision.expired) {
      pass.log.info({}, 'Pending create not found within the window, creating again');
      return;
    }
    throw new WaitingError(
      ReadyReason.CreatePending,
      `an earlier create may have made the external resource (its answer was lost): looking it up again in ${Math.ceil(decision.lookAgainMs / 1000)}s; a new create only once ${Math.round(this.timings.pendingCreateWindowMs / 1000)}s passed without finding it`,
      decision.lookAgainMs,
    );
  }

  /**
   * When the create's answer does not prove the desired state, does in this pass what the
   * confirming pass would do (observe; update what the create could not set), so the create's
   * single status write already reports availability. Best effort: on any error the id is
   * still recorded (Ready=False Creating) and the next pass retries. Returns the observation
   * whose availability to report, or undefined.
   */
  private async settleAfterCreate(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
    externalId: string,
  ): Promise<Observation | undefined> {
    const field = this.deps.kind.idStatusField;
    // What the next pass would read: the status this pass is about to write.
    const view: ManagedObject = {
      ...pass.obj,
      status: { ...pass.obj.status, ...pass.extra, [field]: pass.extra[field] },
    };
    const follow: ExternalContext = { ...ctx, externalId, createPending: false };
    try {
      this.deps.counters?.externalCall('observe');
      const obs = await client.observe(view, follow);
      if (!obs.exists) return undefined;
      const res = obs.upToDate
        ? undefined
        : await this.updateAfterCreate(client, view, obs, follow);
      Object.assign(pass.extra, obs.status, res?.status, { [field]: pass.extra[field] });
      pass.conditions.push(...(obs.conditions ?? []), ...(res?.conditions ?? []));
      pass.details = latestDetails(pass.details, obs, res);
      return withUpdateReadiness(obs, res);
    } catch (err) {
      pass.log.debug({ error: (err as Error).message }, 'Cannot settle right after the create');
      return undefined;
    }
  }

  /** Applies what the create could not set (e.g. settings that need the resource's limits). */
  private async updateAfterCreate(
    client: ExternalClient,
    view: ManagedObject,
    obs: Observation,
    ctx: ExternalContext,
  ): Promise<UpdateResult | undefined> {
    this.deps.counters?.externalCall('update');
    return (await client.update(view, obs, ctx)) ?? undefined;
  }

  /**
   * Persists the create-pending marker in status (resourceVersion precondition: a stale
   * cache fails with 409 and nothing is created), then the finalizer when missing (also
   * with precondition). Returns the object as last stored.
   */
  private async markCreatePending(pass: Pass): Promise<ManagedObject> {
    if (pass.signer) {
      // One write: finalizer and signed marker together (see create-guard.ts).
      const marked = await this.deps.writer.patchMetadata(
        pass.obj,
        buildPendingMetadataPatch(pass.obj, pass.signer, this.now()),
      );
      this.deps.counters?.objectWrite('create-pending');
      this.deps.storeWritten(marked);
      pass.obj = marked;
      return marked;
    }
    const pending = await this.deps.writer.patchStatus(
      pass.obj,
      buildPendingStatusPatch(pass.obj, this.now(), pass.account),
    );
    this.deps.counters?.objectWrite('create-pending');
    this.deps.storeWritten(pending);
    pass.obj = pending;
    await this.ensureFinalizer(pass);
    return pass.obj;
  }

  /**
   * The id must be recorded even if the object changed meanwhile: on 409 the id alone is
   * written without precondition (status has a single writer, the leader); the next pass
   * fills in the rest.
   */
  private async writeStatusAfterCreate(pass: Pass): Promise<void> {
    try {
      await this.writeDesiredStatus(pass);
    } catch (err) {
      if (!isKubeStatus(err, 409)) throw err;
      const field = this.deps.kind.idStatusField;
      await this.writeEffects(pass, { [field]: pass.extra[field], ...clearPendingPatch() });
    }
  }

  private async update(
    pass: Pass,
    client: ExternalClient,
    obs: Observation,
    ctx: ExternalContext,
  ): Promise<Observation> {
    pass.stage = 'update';
    this.deps.counters?.externalCall('update');
    const res = await client.update(pass.obj, obs, ctx);
    if (res && res.status) Object.assign(pass.extra, res.status);
    if (res && res.conditions) pass.conditions.push(...res.conditions);
    if (res && res.connectionDetails) pass.details = res.connectionDetails;
    pass.log.info({ fields: obs.diff.map((d) => d.field) }, 'Updated external resource');
    this.deps.events.record(
      pass.obj,
      'Normal',
      EventReason.UpdatedExternalResource,
      `Updated ${summarizeDiff(obs.diff)}`,
    );
    // The drift was applied; plannedChanges lists only drift that is still pending.
    pass.plannedChanges = undefined;
    return withUpdateReadiness(obs, res ?? undefined);
  }

  /**
   * Publishes the pass's connection details (connection-secret.ts). Runs only after the claim
   * check and, like every platform write, asks the leader fence first; never runs for a
   * refused, deleting, paused or dry-run object. Returns the observation to report Ready from
   * (not ready while a Secret the kind requires is not written).
   */
  private async publish(pass: Pass, obs: Observation): Promise<Observation> {
    const spec = this.deps.kind.connectionSecret;
    const access = this.deps.secrets;
    if (!spec || !access) return obs;
    const stage = pass.stage;
    pass.stage = 'publish';
    if (this.deps.mayWrite && !this.deps.mayWrite())
      throw new FencedError('publish the connection details of');
    const out = await publishDetails(pass.obj, spec, pass.details, access, this.deps.signal);
    pass.stage = stage;
    if (out.wrote) this.deps.counters?.objectWrite('connection-secret');
    if (out.condition) pass.conditions.push(out.condition);
    return out.notReady ? { ...obs, notReady: obs.notReady ?? out.notReady } : obs;
  }

  /** Adds the finalizer to an object whose external resource exists (e.g. adopted). */
  private async ensureFinalizer(pass: Pass): Promise<void> {
    if (hasFinalizer(pass.obj)) return;
    const patched = await this.deps.writer.patchMetadata(pass.obj, {
      metadata: {
        resourceVersion: pass.obj.metadata.resourceVersion,
        finalizers: withFinalizer(pass.obj.metadata.finalizers),
      },
    });
    this.deps.counters?.objectWrite('add-finalizer');
    this.deps.storeWritten(patched);
    pass.obj = patched;
  }

  private async reconcileDeletion(pass: Pass): Promise<ReconcileResult> {
    const { obj } = pass;
    const key = keyOf(obj);
    if (!hasFinalizer(obj)) return { outcome: 'success' };
    const verdict = this.ownership.deletion(obj, isDryRun(obj));
    if (verdict.action === 'orphan') {
      await this.removeFinalizer(pass);
      this.deps.events.record(
        obj,
        'Normal',
        EventReason.OrphanedExternalResource,
        'External resource left in place (deletionPolicy Orphan or dry-run)',
      );
      return { outcome: 'success' };
    }
    // A refused or never accepted object never deletes anything: it only lets go.
    if (verdict.action === 'release') return this.release(pass, verdict.reason, verdict.why);
    let connected: { client: ExternalClient; ctx: ExternalContext; obs: Observation };
    try {
      connected = await this.connectAndObserve(pass);
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return this.release(pass, 'Refused', err.message);
    }
    const { client, ctx, obs } = connected;
    if (this.deletionConfirmed(obj, obs, ctx)) {
      pass.stage = 'finalize';
      await this.removeFinalizer(pass);
      this.deleteAttempts.delete(key);
      this.deps.events.record(
        obj,
        'Normal',
        EventReason.DeletedExternalResource,
        `Deleted external resource${ctx.externalId ? ` ${ctx.externalId}` : ''}`,
      );
      return { outcome: 'success' };
    }
    return this.requestDeletion(pass, client, ctx, obs);
  }

  private async connectAndObserve(
    pass: Pass,
  ): Promise<{ client: ExternalClient; ctx: ExternalContext; obs: Observation }> {
    const { client, ctx } = await this.connect(pass);
    pass.stage = 'observe';
    const obs = await this.observe(pass, client, ctx);
    return { client, ctx, obs };
  }

  /**
   * Gone is confirmed only by an observe after this process sent the DELETE (whose 404 the
   * kind treats as done), or when no id was ever recorded. A single 404 on the observe GET
   * alone never releases the finalizer of a resource the object has an id for.
   */
  private deletionConfirmed(obj: ManagedObject, obs: Observation, ctx: ExternalContext): boolean {
    if (obs.exists) return false;
    const key = keyOf(obj);
    if (ctx.externalId !== undefined) return this.deleteAttempts.has(key);
    // A create whose answer was lost may still show up: its resource must be deleted too.
    if (ctx.createPending) {
      const decision = this.pending.decide(key, obj.metadata.uid);
      if (!decision.expired)
        throw new WaitingError(
          ReadyReason.CreatePending,
          `deleting: an earlier create may have made the external resource (its answer was lost); looking it up again in ${Math.ceil(decision.lookAgainMs / 1000)}s before the finalizer is removed`,
          decision.lookAgainMs,
        );
    }
    return true;
  }

  private async requestDeletion(
    pass: Pass,
    client: ExternalClient,
    ctx: ExternalContext,
    obs: Observation,
  ): Promise<ReconcileResult> {
    const { obj } = pass;
    const key = keyOf(obj);
    pass.stage = 'delete';
    this.deps.counters?.externalCall('delete');
    await client.delete(obj, ctx, obs);
    pass.log.info({ externalId: ctx.externalId }, 'Requested deletion of external resource');
    pass.conditions.push({
      type: ConditionType.Ready,
      status: 'False',
      reason: ReadyReason.Deleting,
      message: 'Deleting the external resource',
      observedGeneration: obj.metadata.generation,
    });
    pass.plannedChanges = undefined;
    await this.writeStatus(pass);
    const n = this.deleteAttempts.get(key) ?? 0;
    this.deleteAttempts.set(key, n + 1);
    return {
      outcome: 'success',
      requeueAfterMs: Math.min(60_000, this.timings.afterDeleteMs * 2 ** n),
    };
  }

  /**
   * Drops the finalizer of an object that may not act on the platform (refused, or never
   * accepted); no platform call is made, and an Event says why.
   */
  private async release(
    pass: Pass,
    reason: 'Unaccepted' | 'Refused',
    why: string,
  ): Promise<ReconcileResult> {
    pass.stage = 'finalize';
    await this.removeFinalizer(pass);
    this.deleteAttempts.delete(keyOf(pass.obj));
    const released =
      reason === 'Unaccepted'
        ? EventReason.ReleasedUnacceptedObject
        : EventReason.OrphanedExternalResource;
    const message =
      reason === 'Unaccepted'
        ? `Finalizer removed: ${why}`
        : `External resource left in place: ${why}`;
    this.deps.events.record(pass.obj, 'Normal', released, message);
    return { outcome: 'success' };
  }

  private async removeFinalizer(pass: Pass): Promise<void> {
    const patched = await this.deps.writer.patchMetadata(pass.obj, {
      metadata: {
        resourceVersion: pass.obj.metadata.resourceVersion,
        finalizers: withoutFinalizer(pass.obj.metadata.finalizers),
      },
    });
    this.deps.counters?.objectWrite('remove-finalizer');
    this.deps.storeWritten(patched);
    this.deps.status.forget(pass.obj);
    pass.log.info({}, 'Removed finalizer');
  }

  /**
   * Builds the desired status from the pass and writes it if anything changed. Effects the kind
   * recorded (`ctx.recordEffect`) survive a refused write: on 409 they are written again
   * without precondition, and the 409 is still reported (the next pass sees the fresh object).
   */
  private async writeStatus(pass: Pass): Promise<void> {
    try {
      await this.writeDesiredStatus(pass);
    } catch (err) {
      if (!isKubeStatus(err, 409) || Object.keys(pass.effects).length === 0) throw err;
      await this.writeEffects(pass, {});
      throw err;
    }
  }

  private async writeDesiredStatus(pass: Pass): Promise<void> {
    const { obj } = pass;
    const now = this.now();
    const current: ManagedStatus = obj.status ?? {};
    const desired: ManagedStatus = {
      ...current,
      ...pass.extra,
      conditions: setConditions(current.conditions, pass.conditions, now),
      observedGeneration: obj.metadata.generation,
      plannedChanges:
        pass.plannedChanges && pass.plannedChanges.length > 0 ? pass.plannedChanges : undefined,
    };
    if (!this.deps.status.needsWrite(obj, desired)) return;
    // lastSyncTime is refreshed only by writes that happen anyway, never on its own.
    if (pass.synced) desired.lastSyncTime = formatTime(now);
    const stored = await this.deps.status.write(obj, desired);
    if (stored) {
      this.deps.counters?.statusWrite();
      this.deps.storeWritten(stored);
      pass.obj = stored;
      pass.effects = {};
    }
  }

  /**
   * Writes the pass's recorded effects and `more` as a merge patch without the resourceVersion
   * precondition: whatever changed meanwhile, these fields are facts about the platform.
   */
  private async writeEffects(pass: Pass, more: Record<string, unknown>): Promise<void> {
    const stored = await this.deps.writer.patchStatus(pass.obj, {
      status: { ...pass.effects, ...more },
    });
    this.deps.counters?.statusWrite();
    this.deps.storeWritten(stored);
    pass.effects = {};
    pass.log.debug(
      { fields: Object.keys(stored.status ?? {}).length },
      'Recorded effects without precondition',
    );
  }

  private async fail(pass: Pass, err: unknown): Promise<ReconcileResult> {
    const c = classifyError(err, (e) => this.deps.kind.classifyError(e));
    const { obj, log } = pass;
    if (c.class === 'waiting' && this.inWaitingGrace(obj, c.requeueAfterMs)) {
      log.debug({ reason: c.reason, error: c.message }, 'Waiting (not reported yet)');
      return this.requeueFor(c);
    }
    if (c.class === 'conflict') {
      // Through the per-item backoff like every failure: a conflict that never resolves
      // (another writer, a CRD without /status) must not become 2 passes a second forever.
      // The controller logs it at warn once it keeps recurring.
      log.debug({ reason: c.reason, stage: pass.stage }, 'Conflict, retrying with backoff');
      return { outcome: 'conflict', retryMinDelayMs: 0, errorClass: c.class };
    }
    log.warn(
      { errorClass: c.class, reason: c.reason, stage: pass.stage, error: c.message },
      'Reconcile failed',
    );
    this.recordFailure(pass, c);
    this.clearRefusedCreate(pass, c);
    this.recordUnknownCreate(pass, c);
    try {
      await this.writeStatus(pass);
    } catch (writeErr) {
      log.warn({ error: (writeErr as Error).message }, 'Cannot write status after a failure');
    }
    const msg = `[${c.reason}] ${c.message}`;
    if (c.class !== 'waiting')
      this.deps.events.record(obj, 'Warning', STAGE_EVENT[pass.stage], msg);
    else this.deps.events.record(obj, 'Normal', c.reason, c.message);
    return this.requeueFor(c);
  }

  /**
   * A create the platform refused (4xx) or did not process (429, 503) made nothing: its
   * create-pending marker must go, or a later pass would wait for (and take) a same-named
   * resource made by someone else.
   */
  private clearRefusedCreate(pass: Pass, c: ClassifiedError): void {
    if (pass.stage !== 'create' || !(madeNothing(c) || waitedBeforeSending(pass, c))) return;
    this.pending.resolve(keyOf(pass.obj));
    const previous = ownershipOf(pass.obj);
    const markerMs = verifiedMarkerTime(pass.obj, pass.signer);
    if (previous.createPendingTime === undefined && markerMs === undefined) return;
    const { createPendingTime: _dropped, ...rest } = previous;
    pass.extra[OWNERSHIP_FIELD] = {
      ...rest,
      ...(markerMs !== undefined ? { createRefusedTime: new Date(markerMs).toISOString() } : {}),
    };
  }

  /**
   * A create that was sent and got no answer (timeout, connection lost, cancelled) may have
   * happened: its window starts now, and the failure's status write records it in
   * `status.ownership.createPendingTime`, which needs no key to be trusted (a rotated API key
   * cannot void it, unlike the signed marker).
   */
  private recordUnknownCreate(pass: Pass, c: ClassifiedError): void {
    if (!pass.createUnanswered || madeNothing(c) || waitedBeforeSending(pass, c)) return;
    this.pending.attemptEnded(keyOf(pass.obj), pass.obj.metadata.uid);
    const markerMs = verifiedMarkerTime(pass.obj, pass.signer);
    if (markerMs === undefined) return; // the status record was written before the create
    pass.extra[OWNERSHIP_FIELD] = { ...ownershipOf(pass.obj), ...pendingRecord(markerMs) };
  }

  private recordFailure(pass: Pass, c: ClassifiedError): void {
    const { obj } = pass;
    if (c.class === 'waiting') {
      pass.conditions.push({
        type: ConditionType.Ready,
        status: 'False',
        reason: c.reason,
        message: c.message,
        observedGeneration: obj.metadata.generation,
      });
      if (!findCondition(obj.status?.conditions, ConditionType.Synced))
        pass.conditions.push(synced(SyncedReason.Waiting, c.message, obj, 'Unknown'));
      return;
    }
    const reason = c.class === 'unauthorized' ? SyncedReason.Unauthorized : c.reason;
    pass.conditions.push(synced(reason, c.message, obj, 'False'));
    if (c.class === 'terminal' && (c.reason === ReadyReason.NotFound || c.unavailable === true)) {
      // The resource to adopt (or a linked one) does not exist: a fact about availability too.
      pass.conditions.push({
        type: ConditionType.Ready,
        status: 'False',
        reason: c.reason,
        message: c.message,
        observedGeneration: obj.metadata.generation,
      });
    } else if (!findCondition(obj.status?.conditions, ConditionType.Ready)) {
      pass.conditions.push({
        type: ConditionType.Ready,
        status: 'Unknown',
        reason: ReadyReason.Unavailable,
        message: 'The external resource has not been observed yet',
        observedGeneration: obj.metadata.generation,
      });
    }
  }

  private requeueFor(c: ClassifiedError): ReconcileResult {
    switch (c.class) {
      case 'terminal':
        // Parked until the spec, an annotation or a referenced object changes (watch events).
        return { outcome: 'terminal', errorClass: c.class };
      case 'unauthorized':
        return {
          outcome: 'unauthorized',
          requeueAfterMs: jitterDuration(this.timings.unauthorizedRecheckMs),
          errorClass: c.class,
        };
      case 'waiting':
        return {
          outcome: 'waiting',
          requeueAfterMs: c.requeueAfterMs ?? this.timings.waitingMs,
          errorClass: c.class,
        };
      default:
        return {
          outcome: 'error',
          retryMinDelayMs: c.class === 'retryable' ? (c.retryAfterMs ?? 0) : 0,
          errorClass: c.class,
        };
    }
  }

  /**
   * True for a young object without status (see {@link ReconcilerTimings.waitingGraceMs}) whose
   * wait is rechecked within the grace. A wait rechecked less often (a missing credentials
   * Secret: 30 s) is reported at once: keeping quiet would hide it for a whole recheck period.
   */
  private inWaitingGrace(obj: ManagedObject, recheckMs = this.timings.waitingMs): boolean {
    if (recheckMs >= this.timings.waitingGraceMs) return false;
    if (obj.status?.conditions !== undefined && obj.status.conditions.length > 0) return false;
    const created = Date.parse(String(obj.metadata.creationTimestamp ?? ''));
    if (Number.isNaN(created)) return false;
    return this.now().getTime() - created < this.timings.waitingGraceMs;
  }

  private pollDelay(obj: ManagedObject, obs: Observation): number {
    const { ms: base, problem } = resolvePollInterval(obj, this.timings.pollIntervalMs);
    // Clamped or ignored, never silently: a Warning event (deduplicated per hour) and a log line.
    if (problem) {
      this.deps.log.warn({ key: keyOf(obj), problem }, 'Poll interval adjusted');
      this.deps.events.record(obj, 'Warning', EventReason.InvalidPollInterval, problem);
    }
    const poll =
      obs.exists && obs.notReady
        ? Math.min(base, this.timings.notReadyPollMs)
        : jitterDuration(base);
    // A request the kind deferred comes due earlier (never sooner than a second: no hot loop).
    if (obs.requeueAfterMs === undefined) return poll;
    return Math.min(poll, Math.max(MIN_KIND_REQUEUE_MS, obs.requeueAfterMs));
  }
}

/** The observation to report Ready from after an update that may have left the resource not ready. */
function withUpdateReadiness(obs: Observation, res: UpdateResult | undefined): Observation {
  if (!res?.notReady || obs.notReady) return obs;
  return { ...obs, notReady: res.notReady };
}

/**
 * Ready after a create that could not be confirmed in the same pass (see settleAfterCreate):
 * Creating, and the next pass confirms.
 */
function createdReadyCondition(obj: ManagedObject): ConditionInput {
  return {
    type: ConditionType.Ready,
    status: 'False',
    reason: ReadyReason.Creating,
    message: 'External resource was created; waiting for it to become available',
    observedGeneration: obj.metadata.generation,
  };
}

/**
 * True when a failed create certainly made nothing: the platform refused it (validation,
 * credentials) or answered that it did not process it (`notApplied`: 429, 503).
 */
function madeNothing(c: ClassifiedError): boolean {
  return (
    c.class === 'terminal' ||
    c.class === 'unauthorized' ||
    (c.class === 'retryable' && c.notApplied === true)
  );
}

/**
 * True when the kind's create waited for something it needs before sending anything (a
 * reference without its id yet, a missing Secret: WaitingError). Kinds resolve those before
 * the platform call, so such a create made nothing; taking it for a lost create would hold
 * the object in CreatePending for the whole window once the reference is ready. A waiting
 * error the runtime raises itself (CreatePending) comes before the create is sent
 * (`createUnanswered` is still false) and keeps the pending create.
 */
function waitedBeforeSending(pass: Pass, c: ClassifiedError): boolean {
  return c.class === 'waiting' && pass.createUnanswered === true;
}

/** The refusal of a create that an unverifiable marker makes unsafe (create-guard.ts). */
function unverifiableMarkerError(): TerminalError {
  return new TerminalError(
    SyncedReason.CreatePendingUnverifiable,
    `cannot tell whether an earlier create made the external resource: the object's ${Annotation.CreatePendingSigned} marker was signed with another API key of its account (rotated since?) and cannot be verified, so it is neither looked up nor created again; if the resource exists adopt it (spec.adoption.policy ByName), otherwise remove the annotation to create it`,
  );
}

/** The refusal of a create for an object that adopted its resource (by id or by name). */
function adoptedGoneError(kind: ManagedKind, obj: ManagedObject): TerminalError {
  const id = recordedExternalId(kind, obj);
  return new TerminalError(
    ReadyReason.NotFound,
    `cannot create the external resource: this object adopted ${id !== undefined ? `${kind.kind} ${id}` : 'an existing resource'}, which does not exist any more, and an adopted resource is never created again; adopt another one, or delete this object and create it without adoption`,
  );
}

/** True for the runtime's refusals (AlreadyManaged, ReferenceNotAllowed). */
function isRefusal(err: unknown): err is TerminalError {
  return (
    err instanceof TerminalError &&
    (err.reason === SyncedReason.AlreadyManaged || err.reason === SyncedReason.ReferenceNotAllowed)
  );
}

/** The freshest connection details: an update's, else the observation's, else what was known. */
function latestDetails(
  known: ConnectionDetails | undefined,
  obs: Observation,
  res: UpdateResult | undefined,
): ConnectionDetails | undefined {
  return res?.connectionDetails ?? obs.connectionDetails ?? known;
}

/** Observed fields, kind conditions and the plan of an observation, into the pass. */
function recordObserved(pass: Pass, obs: Observation): void {
  if (obs.status) Object.assign(pass.extra, obs.status);
  pass.details = obs.connectionDetails;
  if (obs.conditions) pass.conditions.push(...obs.conditions);
  pass.plannedChanges = obs.exists && !obs.upToDate ? obs.diff : undefined;
}

function keyOf(obj: ManagedObject): string {
  return `${obj.metadata.namespace}/${obj.metadata.name}`;
}

/** True when the object asks for dry-run. */
export function isDryRun(obj: ManagedObject): boolean {
  return obj.metadata.annotations?.[Annotation.DryRun] === 'true';
}

/** The object's poll interval: its annotation if valid (clamped to 5 s … 24 h), else the default. */
export function pollIntervalOf(obj: ManagedObject, fallbackMs: number, log?: Logger): number {
  const { ms, problem } = resolvePollInterval(obj, fallbackMs);
  if (problem)
    log?.warn({ annotation: Annotation.PollInterval, problem }, 'Poll interval adjusted');
  return ms;
}

/** Ready=False NotFound of a resource a pass that never creates (`mode`) did not find. */
function notCreated(obj: ManagedObject, mode: 'dry-run' | 'observe-only'): ConditionInput {
  return {
    type: ConditionType.Ready,
    status: 'False',
    reason: ReadyReason.NotFound,
    message: `External resource does not exist (${mode}: not created)`,
    observedGeneration: obj.metadata.generation,
  };
}

function readyFrom(obs: Observation, obj: ManagedObject): ConditionInput {
  const generation = obj.metadata.generation;
  if (obs.notReady)
    return {
      type: ConditionType.Ready,
      status: 'False',
      reason: obs.notReady.reason,
      message: obs.notReady.message,
      observedGeneration: generation,
    };
  return {
    type: ConditionType.Ready,
    status: 'True',
    reason: ReadyReason.Available,
    message: '',
    observedGeneration: generation,
  };
}

function synced(
  reason: string,
  message: string,
  obj: ManagedObject,
  status: 'True' | 'False' | 'Unknown' = 'True',
): ConditionInput {
  return {
    type: ConditionType.Synced,
    status,
    reason,
    message,
    observedGeneration: obj.metadata.generation,
  };
}

/** Keeps the id's JSON type: the kind's own value first, then the type already stored. */
function idValue(id: string, hint: unknown, existing: unknown): unknown {
  if ((typeof hint === 'string' || typeof hint === 'number') && String(hint) === id) return hint;
  if (typeof existing === 'number' && /^\d+$/.test(id)) return Number(id);
  return id;
}

/** `a: x → y, b: ...` limited to a few fields. */
export function summarizeDiff(diff: readonly FieldDiff[]): string {
  const shown = diff.slice(0, 5).map((d) => `${d.field}: ${d.live} → ${d.desired}`);
  const more = diff.length > 5 ? ` (+${diff.length - 5} more)` : '';
  return shown.join('; ') + more || 'no fields';
}
