/**
 * One controller per managed kind: its informers (one per watched namespace, or one for all),
 * its work queue and its workers running the managed reconciler.
 */
import type { Logger } from 'pino';
import { ItemBackoff } from './backoff.js';
import type { KubeObject } from './cache.js';
import type { ClaimIndex } from './claims.js';
import type { SecretAccess } from './connection-secret.js';
import { DriftChecks } from './drift-checks.js';
import { laneOfChange, priorityForAdd, priorityForUpdate } from './enqueue-rules.js';
import type { EventRecorder } from './events.js';
import { Informer } from './informer.js';
import type { KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import { createObjectWriter } from './object-writer.js';
import type { TokenBucket } from './rate-limiter.js';
import { ManagedReconciler, type ReconcileResult, type ReconcilerTimings } from './reconciler.js';
import { objectKey, splitKey } from './resource.js';
import { StatusWriter } from './status-writer.js';
import type { ConnectContext, ManagedKind, ManagedObject } from './types.js';
import { WorkQueue, type Priority } from './workqueue.js';
import { findCondition } from './conditions.js';
import { runInPass } from '../common/pass-context.js';
import { PlatformSlots } from './platform-slots.js';
import { TurnSlicer } from './turn-slicer.js';
import type { PageObserver } from './observe-by-pages.js';

/**
 * Default passes in flight per platform slot. A create's pass spends two Kubernetes round
 * trips around one platform call; with apiserver writes as slow as the platform (a loaded
 * control plane) a slot is busy about a third of a pass, so 4 passes per slot keep it full.
 */
export const PASSES_PER_WORKER = 4;

/** Consecutive conflicts of one key after which it is logged at warn (once per streak). */
const CONFLICTS_BEFORE_WARNING = 5;

/**
 * Passes in flight at most, as a multiple of the passes running: the others wait for a pass
 * slot, or are parked, each waiting for its own account (pass-context.ts waitOutside) without
 * holding one.
 */
const PARKED_PER_RUNNING = 8;

/**
 * Longest the dispatcher starts passes before it gives the event loop a turn. A pass runs
 * synchronously up to its first I/O (connect, observe's request), and keys taken from a ready
 * queue resolve as microtasks, so without a yield a burst of ADDED events started every pass
 * in one run of microtasks: timers, watch data and /metrics waited for all of them (the first
 * window's event-loop lag of a mass create, issue 32).
 */
export const DISPATCH_SLICE_MS = 5;

/** Options of {@link Controller}. */
export interface ControllerOptions {
  kind: ManagedKind;
  client: KubeClient;
  /** Watched namespaces; empty means all. */
  namespaces: string[];
  labelSelector?: string;
  /** Platform calls in flight at a time for this kind (`--workers`). */
  workers: number;
  /**
   * Passes in flight at a time (`--max-concurrent-reconciles`, default 4 × workers): a pass
   * holds a platform slot only during its platform calls (platform-slots.ts).
   */
  concurrentReconciles?: number;
  limiter?: TokenBucket;
  metrics: OperatorMetrics;
  events: EventRecorder;
  log: Logger;
  signal: AbortSignal;
  timings?: Partial<ReconcilerTimings>;
  stallTimeoutMs?: number;
  connectContext(log: Logger): ConnectContext;
  /** Leader fence: no key is dispatched and no platform write is made while it says false. */
  mayWrite?: () => boolean;
  /** Cluster-wide claim index shared by every kind (claims.ts). */
  claims?: ClaimIndex;
  /** Where the kind's connection Secrets are read and written (connection-secret.ts). */
  secrets?: SecretAccess;
  /** Observe by pages, shared by every kind (observe-by-pages.ts); without it reads are by id. */
  pages?: PageObserver;
  /** Called for every add/update/delete of this kind's objects (reference triggers). */
  onChange?(obj: ManagedObject, event: 'add' | 'update' | 'delete'): void;
}

/** See the module comment. */
export class Controller {
  readonly kind: ManagedKind;
  readonly queue: WorkQueue;
  readonly reconciler: ManagedReconciler;
  /** Keys a sweep queued as drift checks (observe by pages). */
  readonly driftChecks = new DriftChecks();
  private readonly informers = new Map<string, Informer<ManagedObject & KubeObject>>();
  /**
   * Pass slots (`--max-concurrent-reconciles`): a pass holds one while it runs, except while it
   * waits for its own account, in fair shares between namespaces (platform-slots.ts).
   */
  private readonly passes: PlatformSlots;
  private dispatcher: Promise<void> | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly opts: ControllerOptions) {
    this.kind = opts.kind;
    const m = opts.metrics;
    const name = opts.kind.name;
    this.passes = new PlatformSlots(opts.concurrentReconciles ?? opts.workers * PASSES_PER_WORKER);
    this.queue = new WorkQueue({
      // One namespace never has more passes in flight than may run: the rest of the workers
      // stay free for the others even when all of its passes wait for its account.
      maxInFlightPerNamespace: this.passes.size,
      backoff: new ItemBackoff(),
      ...(opts.limiter ? { limiter: opts.limiter } : {}),
      hooks: {
        onAdd: () => m.queueAdds.inc({ name }),
        onRetry: () => m.queueRetries.inc({ name }),
        onDepth: (d) => m.queueDepth.set({ name }, d),
        onLatency: (s) => m.queueLatency.observe({ name }, s),
      },
    });
    for (const ns of opts.namespaces.length > 0 ? opts.namespaces : [''])
      this.informers.set(ns, this.createInformer(ns));
    const writer = createObjectWriter(opts.client, opts.kind);
    this.reconciler = new ManagedReconciler({
      kind: opts.kind,
      getCached: (key) => this.get(key),
      storeWritten: (obj) => this.storeWritten(obj),
      writer,
      status: new StatusWriter((obj, patch) => writer.patchStatus(obj, patch)),
      connectContext: (log) => opts.connectContext(log),
      events: opts.events,
      counters: {
        externalCall: (operation) => m.externalCalls.inc({ controller: name, operation }),
        statusWrite: () => m.statusWrites.inc({ controller: name }),
        objectWrite: (operation) => m.kubeWrites.inc({ controller: name, operation }),
      },
      log: opts.log,
      signal: opts.signal,
      ...(opts.timings ? { timings: opts.timings } : {}),
      ...(opts.mayWrite ? { mayWrite: opts.mayWrite } : {}),
      ...(opts.claims ? { claims: opts.claims } : {}),
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      ...(opts.pages ? { pages: opts.pages } : {}),
      slots: new PlatformSlots(opts.workers),
    });
  }

  private createInformer(namespace: string): Informer<ManagedObject & KubeObject> {
    const { kind, metrics } = this.opts;
    return new Informer<ManagedObject & KubeObject>({
      client: this.opts.client,
      type: kind,
      namespace,
      ...(this.opts.labelSelector ? { labelSelector: this.opts.labelSelector } : {}),
      log: this.opts.log,
      ...(this.opts.stallTimeoutMs ? { stallTimeoutMs: this.opts.stallTimeoutMs } : {}),
      hooks: metrics.informerHooks(kind.plural),
      handlers: {
        onAdd: (obj) => this.changed(obj, 'add', priorityForAdd(this.kind, obj)),
        onUpdate: (old, obj) => this.changed(obj, 'update', this.laneOfUpdate(old, obj)),
        onDelete: (obj) => this.changed(obj, 'delete', undefined),
      },
    });
  }

  private changed(
    obj: ManagedObject,
    event: 'add' | 'update' | 'delete',
    priority: Priority | undefined,
  ): void {
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    if (event === 'delete') {
      // Per-object state must not outlive the object, whatever path it took.
      this.reconciler.forget(key);
      this.queue.forget(key);
      this.driftChecks.clear(key);
    }
    if (priority) this.add(key, priority);
    this.opts.onChange?.(obj, event);
  }

  /** The lane of an update event, or undefined when it does not enqueue. */
  private laneOfUpdate(old: ManagedObject, obj: ManagedObject): Priority | undefined {
    const asked = priorityForUpdate(old, obj);
    if (!asked) return undefined;
    const lane = laneOfChange(this.kind, obj);
    // A request annotation (a purge, a forced pass) never goes in the high lane of changes.
    return asked === 'normal' && lane === 'high' ? 'normal' : lane;
  }

  private informerFor(namespace: string): Informer<ManagedObject & KubeObject> | undefined {
    return this.informers.get(namespace) ?? this.informers.get('');
  }

  /**
   * Write-through of an object the runtime just wrote. A write answered with a newer
   * generation or user metadata than the cache knew (a spec change made while the pass ran,
   * e.g. during a create) enqueues the key: once the copy is cached, the watch event of that
   * change no longer looks like a change, and "spec unchanged" must never be decided against
   * the operator's own copy.
   */
  storeWritten(obj: ManagedObject): void {
    const informer = this.informerFor(obj.metadata.namespace);
    if (!informer) return;
    const key = objectKey(obj.metadata.namespace, obj.metadata.name);
    const prev = informer.store.get(key);
    informer.store.setIfNewer(obj as ManagedObject & KubeObject);
    if (prev && prev.metadata.uid === obj.metadata.uid && informer.store.get(key) === obj) {
      const priority = this.laneOfUpdate(prev, obj);
      if (priority) this.add(key, priority);
    }
  }

  /** The cached object for `namespace/name`. */
  get(key: string): ManagedObject | undefined {
    return this.informerFor(splitKey(key).namespace)?.store.get(key);
  }

  /** All cached objects. */
  list(): ManagedObject[] {
    return [...this.informers.values()].flatMap((i) => i.store.list());
  }

  /**
   * Queues a key (reference triggers, tests). `high` is refined like a user change: an object
   * still to be created goes to the `normal` lane.
   */
  enqueue(key: string, priority: Priority = 'high'): void {
    const obj = priority === 'high' ? this.get(key) : undefined;
    this.add(key, obj ? laneOfChange(this.kind, obj) : priority);
  }

  /**
   * Queues the drift check of `key` a sweep asked for: in the `high` lane, ahead of the polls,
   * as a periodic pass (drift-checks.ts). Ignored for an object no longer cached.
   */
  enqueueDriftCheck(key: string): void {
    if (!this.get(key)) return;
    this.driftChecks.mark(key);
    this.queue.add(key, 'high');
  }

  /** Queues `key` for a change (not a sweep's drift check). */
  private add(key: string, priority: Priority): void {
    this.driftChecks.clear(key);
    this.queue.add(key, priority);
  }

  /** Starts the informers (also on standby replicas, so a takeover starts warm). */
  startInformers(): void {
    for (const i of this.informers.values()) i.start();
  }

  /** True when every informer has listed once. */
  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /** Resolves when every informer has listed once. */
  async waitForSync(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.waitForSync()));
  }

  /** The informers (tests force stale resourceVersions through them). */
  informerList(): Array<Informer<ManagedObject & KubeObject>> {
    return [...this.informers.values()];
  }

  /**
   * Starts dispatching keys: each key taken from the queue runs as a pass once it gets a pass
   * slot (up to `--max-concurrent-reconciles` running, fair between namespaces). A pass that
   * waits for its own account gives its slot back meanwhile (parked), so other namespaces'
   * passes run; at most {@link PARKED_PER_RUNNING} times as many passes are in flight, and one
   * namespace never has more in flight than may run.
   */
  startWorkers(): void {
    this.dispatcher ??= this.dispatch();
  }

  /** Stops taking keys and waits up to `timeoutMs` for in-flight passes; true when drained. */
  async stopWorkers(timeoutMs: number): Promise<boolean> {
    this.queue.shutdown();
    const drained = await this.queue.drain(timeoutMs);
    if (drained) await Promise.all([this.dispatcher, ...this.running]);
    return drained;
  }

  /** Stops the informers. */
  async stopInformers(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  /** Counts cached objects by Ready status for the resources gauge. */
  readyCounts(): Record<'True' | 'False' | 'Unknown', number> {
    const counts = { True: 0, False: 0, Unknown: 0 };
    for (const o of this.list())
      counts[findCondition(o.status?.conditions, 'Ready')?.status ?? 'Unknown']++;
    return counts;
  }

  private async dispatch(): Promise<void> {
    const maxInFlight = this.passes.size * PARKED_PER_RUNNING;
    const slicer = new TurnSlicer(DISPATCH_SLICE_MS);
    for (;;) {
      // A taken key waits for its pass slot in the slots' fair queue, next to parked passes
      // taking theirs again: the dispatcher never waits for a free slot itself, or one
      // namespace's parked passes coming back would keep every other namespace's keys out.
      while (this.running.size >= maxInFlight) await Promise.race(this.running);
      const key = await this.queue.get();
      if (key === undefined) return;
      if (this.opts.mayWrite && !this.opts.mayWrite()) {
        // Deposed (lease not renewed in time): dispatch nothing; the manager is shutting down.
        this.queue.done(key);
        continue;
      }
      const pass = this.runPass(key).finally(() => this.running.delete(pass));
      this.running.add(pass);
      await slicer.maybeYield();
    }
  }

  /** One pass of `key`, holding a pass slot (fair between namespaces) while it runs. */
  private async runPass(key: string): Promise<void> {
    const m = this.opts.metrics;
    const name = this.kind.name;
    const end = m.reconcileDuration.startTimer({ controller: name });
    // Platform requests of a high-lane pass go first in the account's limiter and the
    // platform slots (updates do not wait behind creates and drift checks), in the share of
    // the object's namespace; see common/pass-context.ts.
    const lane = this.queue.takenFrom(key);
    const priority = lane === 'high' ? 'high' : 'low';
    const periodic = this.driftChecks.takePeriodic(key, lane);
    const tenant = splitKey(key).namespace;
    let result: ReconcileResult;
    try {
      // Synchronous up to the slot's acquisition: the dispatcher sees the slot taken.
      result = await runInPass({ priority, tenant, mayWrite: this.opts.mayWrite }, () =>
        this.passes.run(
          priority,
          // Drift checks (polls, sweeps' changes) may read the swept records: observe by pages.
          () => this.reconciler.reconcile(key, { periodic }),
          undefined,
          tenant,
        ),
      );
    } catch (err) {
      // reconcile() never throws by contract; if it does, log loudly and retry.
      this.opts.log.error({ err, key, controller: name }, 'Reconciler threw');
      result = { outcome: 'error', retryMinDelayMs: 0 };
    }
    end();
    this.schedule(key, result);
    this.queue.done(key);
  }

  private retryWithBackoff(key: string, result: ReconcileResult): void {
    const delayMs = this.queue.addRateLimited(key, result.retryMinDelayMs);
    if (result.outcome === 'conflict' && this.queue.failures(key) === CONFLICTS_BEFORE_WARNING)
      this.opts.log.warn(
        {
          controller: this.kind.name,
          key,
          conflicts: CONFLICTS_BEFORE_WARNING,
          retryInMs: delayMs,
        },
        'Writes keep conflicting (another writer, or a CRD without the status subresource?); backing off',
      );
  }

  private schedule(key: string, result: ReconcileResult): void {
    const m = this.opts.metrics;
    const name = this.kind.name;
    const failed = result.errorClass !== undefined && result.errorClass !== 'conflict';
    m.reconcileTotal.inc({
      controller: name,
      result: failed ? 'error' : result.outcome === 'conflict' ? 'conflict' : 'success',
    });
    if (failed) m.reconcileErrors.inc({ controller: name, class: result.errorClass ?? 'unknown' });
    if (result.retryMinDelayMs !== undefined) {
      this.retryWithBackoff(key, result);
      return;
    }
    if (result.errorClass !== 'conflict') this.queue.forget(key);
    if (result.requeueAfterMs !== undefined) this.queue.schedule(key, result.requeueAfterMs);
  }
}
