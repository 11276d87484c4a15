/**
 * One controller per cluster-scoped kind the runtime watches (types.ts `ClusterKind`, e.g.
 * Namespaces and CdnAccounts): an informer over the whole cluster whose cache serves
 * `ConnectContext.readClusterObject` (no GET per pass, and a change is seen by the next pass
 * because the watch delivers it) and reports changes that matter to dependents (labels, spec,
 * an object coming or going). For a kind with `conditionsOf` it also keeps each object's
 * status: level-triggered (an add, a spec or label change, a change of a referenced object,
 * and a resync every poll interval queue it), leader-gated (workers run only while this
 * replica leads, and the fence is asked before each write) and written through the shared
 * {@link StatusWriter} (one compare-then-write merge patch with a resourceVersion precondition,
 * none when nothing changed).
 */
import type { Logger } from 'pino';
import { ItemBackoff, jitterDuration } from './backoff.js';
import type { KubeObject } from './cache.js';
import { setConditions } from './conditions.js';
import { Informer } from './informer.js';
import type { KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import { objectKey, resourcePath } from './resource.js';
import { StatusWriter } from './status-writer.js';
import type {
  ClusterKind,
  ClusterObject,
  ConnectContext,
  ManagedObject,
  ManagedStatus,
} from './types.js';
import { WorkQueue } from './workqueue.js';

type Cached = ClusterObject & KubeObject;

/** Options of {@link ClusterController}. */
export interface ClusterControllerOptions {
  kind: ClusterKind;
  client: KubeClient;
  metrics: OperatorMetrics;
  log: Logger;
  signal: AbortSignal;
  stallTimeoutMs?: number;
  /** How often every object's status is checked again without a change (±10 %). */
  resyncMs: number;
  connectContext(log: Logger): ConnectContext;
  /** Leader fence: no status is written while it says false. */
  mayWrite?: () => boolean;
  /**
   * Called for every stored change (also during the first list, for reference tracking);
   * `relevant` is true after the first list for an object that came, went, or whose labels or
   * spec changed (never for a status-only change, such as another replica's status write).
   */
  onChange?(obj: ClusterObject, event: 'add' | 'update' | 'delete', relevant: boolean): void;
}

/** True when dependents of the object may decide differently after the update. */
export function changedForDependents(old: ClusterObject, obj: ClusterObject): boolean {
  if (JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(obj.metadata.labels ?? {}))
    return true;
  const gen = (o: ClusterObject): unknown => o.metadata.generation;
  // Kinds without a generation (core objects): compare the spec itself.
  if (gen(obj) !== undefined) return gen(old) !== gen(obj);
  return JSON.stringify(old.spec ?? {}) !== JSON.stringify(obj.spec ?? {});
}

/** See the module comment. */
export class ClusterController {
  readonly kind: ClusterKind;
  /** Present for kinds whose status the runtime keeps. */
  readonly queue?: WorkQueue;
  private readonly informer: Informer<Cached>;
  private readonly status: StatusWriter;
  private workers: Array<Promise<void>> = [];

  constructor(private readonly opts: ClusterControllerOptions) {
    this.kind = opts.kind;
    this.informer = this.createInformer();
    this.status = new StatusWriter((obj, patch) =>
      opts.client.request<ManagedObject>({
        method: 'PATCH',
        path: resourcePath(opts.kind, '', obj.metadata.name, 'status'),
        contentType: 'application/merge-patch+json',
        body: patch,
      }),
    );
    if (opts.kind.conditionsOf) {
      const name = opts.kind.name;
      const m = opts.metrics;
      this.queue = new WorkQueue({
        backoff: new ItemBackoff(),
        hooks: {
          onAdd: () => m.queueAdds.inc({ name }),
          onRetry: () => m.queueRetries.inc({ name }),
          onDepth: (d) => m.queueDepth.set({ name }, d),
          onLatency: (s) => m.queueLatency.observe({ name }, s),
        },
      });
    }
  }

  private createInformer(): Informer<Cached> {
    const { kind, metrics } = this.opts;
    return new Informer<Cached>({
      client: this.opts.client,
      type: kind,
      namespace: '',
      log: this.opts.log,
      ...(this.opts.stallTimeoutMs ? { stallTimeoutMs: this.opts.stallTimeoutMs } : {}),
      hooks: metrics.informerHooks(kind.plural),
      handlers: {
        onAdd: (obj) => this.changed(obj, 'add', true),
        onUpdate: (old, obj) => this.changed(obj, 'update', changedForDependents(old, obj)),
        onDelete: (obj) => {
          this.status.forget(obj as unknown as ManagedObject);
          this.queue?.forget(keyOf(obj.metadata.name));
          this.changed(obj, 'delete', true);
        },
      },
    });
  }

  private changed(obj: Cached, event: 'add' | 'update' | 'delete', relevant: boolean): void {
    if (relevant && event !== 'delete') this.queue?.add(keyOf(obj.metadata.name), 'high');
    // The first list is not a change: dependents are queued by their own informers then.
    this.opts.onChange?.(obj, event, relevant && this.informer.hasSynced());
  }

  /** The cached object named `name` (undefined when absent or before the first list). */
  get(name: string): ClusterObject | undefined {
    return this.informer.hasSynced() ? this.informer.store.get(keyOf(name)) : undefined;
  }

  /** True once the first list is stored. */
  hasSynced(): boolean {
    return this.informer.hasSynced();
  }

  /** Resolves once the first list is stored. */
  waitForSync(): Promise<void> {
    return this.informer.waitForSync();
  }

  /** Queues an object (its Secret changed). */
  enqueue(name: string): void {
    this.queue?.add(keyOf(name), 'high');
  }

  /** Starts the informer (on every replica, so a takeover starts warm). */
  startInformer(): void {
    this.informer.start();
  }

  /** Stops the informer. */
  async stopInformer(): Promise<void> {
    await this.informer.stop();
  }

  /** Starts one status worker (leader only); queues every cached object once. */
  startWorkers(): void {
    if (!this.queue) return;
    for (const o of this.informer.store.list()) this.queue.add(keyOf(o.metadata.name), 'low');
    this.workers.push(this.work(this.queue));
  }

  /** Stops taking keys; waits up to `timeoutMs` for the pass in flight. */
  async stopWorkers(timeoutMs: number): Promise<boolean> {
    if (!this.queue) return true;
    this.queue.shutdown();
    const drained = await this.queue.drain(timeoutMs);
    if (drained) await Promise.all(this.workers);
    return drained;
  }

  private async work(queue: WorkQueue): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      if (this.opts.mayWrite && !this.opts.mayWrite()) {
        queue.done(key);
        continue;
      }
      try {
        if (await this.sync(key.slice(1))) {
          queue.forget(key);
          queue.schedule(key, jitterDuration(this.opts.resyncMs));
        }
      } catch (err) {
        const retryInMs = queue.addRateLimited(key);
        this.opts.log.warn(
          {
            controller: this.kind.name,
            name: key.slice(1),
            err: (err as Error).message,
            retryInMs,
          },
          'Cannot update status',
        );
      }
      queue.done(key);
    }
  }

  /** One pass; false when the object is gone (no resync). */
  private async sync(name: string): Promise<boolean> {
    const obj = this.get(name);
    if (!obj || !this.kind.conditionsOf) return false;
    const log = this.opts.log.child({ controller: this.kind.name, name });
    const conditions = await this.kind.conditionsOf(obj, this.opts.connectContext(log));
    if (!conditions) return true;
    const managed = obj as unknown as ManagedObject;
    const current: ManagedStatus = managed.status ?? {};
    const desired: ManagedStatus = {
      ...current,
      conditions: setConditions(current.conditions, conditions, new Date()),
    };
    if (!this.status.needsWrite(managed, desired)) return true;
    if (this.opts.mayWrite && !this.opts.mayWrite()) return true;
    const stored = await this.status.write(managed, desired);
    if (stored) {
      this.opts.metrics.statusWrites.inc({ controller: this.kind.name });
      this.informer.store.setIfNewer(stored as unknown as Cached);
      log.info({ conditions: conditions.map((c) => `${c.type}=${c.status}`) }, 'Status updated');
    }
    return true;
  }
}

/** The store key of a cluster-scoped object. */
function keyOf(name: string): string {
  return objectKey('', name);
}
