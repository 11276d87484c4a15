/**
 * The null controller: the Kubernetes side of a reconcile with no platform behind it. It
 * watches one collection and, for every object whose status has not observed its generation,
 * makes the writes the operator makes for it (the finalizer patch on first sight, one merge
 * patch of `/status` carrying the cached resourceVersion, one Event per first reconcile), with
 * `workers` passes in flight. Nothing else: no platform call, no diff, no backoff beyond a
 * retry on conflict.
 *
 * It is the machine's own ceiling for a phase (issue 32): time spent in the apiserver, etcd
 * and a controller's bookkeeping on this machine, which no platform ceiling contains. The bench
 * runs it beside each matrix cell and reports each ratio against max(platform ceiling, null
 * time).
 */
import { microTime } from '../../src/runtime/events.js';
import { FINALIZER, REPORTING_CONTROLLER } from '../../src/runtime/reasons.js';
import type { KubeClient } from '../../src/runtime/kube-client.js';
import { ReadyTracker, type TrackedObject } from './ready-tracker.js';

/** Options of {@link NullController}. */
export interface NullControllerOptions {
  /** Collection path, e.g. `/apis/pullzones.cdn.operator.io/v1beta1/namespaces/x/pullzoneconfigs`. */
  path: string;
  /** Passes in flight (the operator's `--workers`). */
  workers: number;
  /**
   * The status a reconciled object carries (taken from one the operator reconciled), written
   * with this object's generation and a fresh Ready condition.
   */
  statusTemplate: Record<string, unknown>;
  /** apiVersion and kind, for the Events' `regarding`. */
  apiVersion: string;
  kind: string;
}

/** See the module comment. */
export class NullController {
  private readonly tracker: ReadyTracker;
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly busy = new Set<string>();
  private readonly evented = new Set<string>();
  private running = 0;
  /** Passes made (for the report and the tests). */
  passes = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly opts: NullControllerOptions,
  ) {
    this.tracker = new ReadyTracker(kube, opts.path, (o, deleted) => this.see(o, deleted));
  }

  /** Starts watching and reconciling. */
  start(): void {
    this.tracker.start();
  }

  /** Stops the watch (passes in flight finish on their own). */
  async stop(): Promise<void> {
    await this.tracker.stop();
  }

  private see(o: TrackedObject, deleted: boolean): void {
    const name = o.metadata.name;
    if (deleted) {
      this.evented.delete(name);
      return;
    }
    if (!needsPass(o) || this.queued.has(name)) return;
    this.queued.add(name);
    this.queue.push(name);
    this.pump();
  }

  private pump(): void {
    while (this.running < this.opts.workers) {
      const i = this.queue.findIndex((n) => !this.busy.has(n));
      if (i < 0) return;
      const [name] = this.queue.splice(i, 1) as [string];
      this.queued.delete(name);
      this.busy.add(name);
      this.running++;
      void this.pass(name)
        .catch(() => this.requeue(name))
        .finally(() => {
          this.busy.delete(name);
          this.running--;
          this.pump();
        });
    }
  }

  private requeue(name: string): void {
    const o = this.tracker.objects.get(name);
    if (o) setTimeout(() => this.see(o, false), 100).unref();
  }

  private async pass(name: string): Promise<void> {
    let o = this.tracker.objects.get(name);
    if (!o || !needsPass(o)) return;
    this.passes++;
    if (!(o.metadata.finalizers ?? []).includes(FINALIZER)) o = await this.addFinalizer(o);
    await this.writeStatus(o);
    if (!this.evented.has(name)) {
      this.evented.add(name);
      await this.emitEvent(o);
    }
  }

  private async addFinalizer(o: TrackedObject): Promise<TrackedObject> {
    return await this.kube.request<TrackedObject>({
      method: 'PATCH',
      path: `${this.opts.path}/${o.metadata.name}`,
      contentType: 'application/merge-patch+json',
      body: {
        metadata: {
          finalizers: [...(o.metadata.finalizers ?? []), FINALIZER],
          resourceVersion: o.metadata.resourceVersion,
        },
      },
    });
  }

  private async writeStatus(o: TrackedObject): Promise<void> {
    const now = new Date().toISOString();
    const generation = o.metadata.generation ?? 1;
    const conditions = (
      (this.opts.statusTemplate.conditions as Array<Record<string, unknown>> | undefined) ?? []
    ).map((c) => ({ ...c, lastTransitionTime: now, observedGeneration: generation }));
    await this.kube.request({
      method: 'PATCH',
      path: `${this.opts.path}/${o.metadata.name}/status`,
      contentType: 'application/merge-patch+json',
      body: {
        metadata: { resourceVersion: o.metadata.resourceVersion },
        status: { ...this.opts.statusTemplate, conditions, observedGeneration: generation },
      },
    });
  }

  private async emitEvent(o: TrackedObject): Promise<void> {
    const namespace = /\/namespaces\/([^/]+)\//.exec(this.opts.path)?.[1] ?? 'default';
    await this.kube.request({
      method: 'POST',
      path: `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: `${o.metadata.name}.null-${Date.now().toString(16)}`, namespace },
        eventTime: microTime(Date.now()),
        reportingController: REPORTING_CONTROLLER,
        reportingInstance: 'null-controller',
        action: 'Create',
        reason: 'Created',
        type: 'Normal',
        note: 'null controller: no platform call',
        regarding: {
          apiVersion: this.opts.apiVersion,
          kind: this.opts.kind,
          name: o.metadata.name,
          namespace,
          uid: o.metadata.uid,
        },
      },
    });
  }
}

/** True when the object's status has not observed its generation or it lacks the finalizer. */
export function needsPass(o: TrackedObject): boolean {
  const observed = o.status?.observedGeneration;
  return (
    observed !== (o.metadata.generation ?? 1) || !(o.metadata.finalizers ?? []).includes(FINALIZER)
  );
}
