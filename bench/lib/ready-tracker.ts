/**
 * Watches one custom resource type in one namespace and records, per object, when its
 * `Ready` condition first became True (bench clock, ms), when its status last caught up with
 * its generation (`status.observedGeneration`), and its latest state. Uses the
 * runtime's KubeClient (list, then watch from the list's resourceVersion; relists on 410 or
 * a broken stream).
 */
import type { KubeClient } from '../../src/runtime/kube-client.js';
import { sleep } from './stats.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** The parts of a managed object the tracker reads. */
export interface TrackedObject {
  metadata: {
    name: string;
    resourceVersion?: string;
    generation?: number;
    finalizers?: string[];
    uid?: string;
  };
  status?: { conditions?: Condition[]; observedGeneration?: number; [k: string]: unknown };
}

interface ListAnswer {
  metadata: { resourceVersion: string };
  items: TrackedObject[];
}

function isReady(o: TrackedObject): boolean {
  return (o.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** See the module comment. */
export class ReadyTracker {
  /** name -> ms when Ready=True was first seen. */
  readonly readyAt = new Map<string, number>();
  /** name -> latest object. */
  readonly objects = new Map<string, TrackedObject>();
  /** name -> [generation, ms] when the status first showed it observed (observedGeneration). */
  readonly observedAt = new Map<string, [number, number]>();
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly kube: KubeClient,
    private readonly path: string,
    /** Called for every object seen (list, watch), after the maps are updated. */
    private readonly onChange?: (o: TrackedObject, deleted: boolean) => void,
  ) {}

  /** Starts listing and watching in the background. */
  start(): void {
    this.running = this.loop();
  }

  private see(o: TrackedObject, deleted = false): void {
    const name = o.metadata.name;
    if (deleted) {
      this.objects.delete(name);
      this.observedAt.delete(name);
      this.onChange?.(o, true);
      return;
    }
    this.objects.set(name, o);
    if (isReady(o) && !this.readyAt.has(name)) this.readyAt.set(name, Date.now());
    const observed = o.status?.observedGeneration;
    if (typeof observed === 'number' && observed !== this.observedAt.get(name)?.[0])
      this.observedAt.set(name, [observed, Date.now()]);
    this.onChange?.(o, false);
    for (const w of this.waiters.splice(0)) w();
  }

  private async listOnce(): Promise<string> {
    const list = await this.kube.request<ListAnswer>({
      method: 'GET',
      path: this.path,
      signal: this.abort.signal,
      timeoutMs: 120_000,
    });
    for (const o of list.items) this.see(o);
    return list.metadata.resourceVersion;
  }

  private async watchFrom(rv: string): Promise<string | undefined> {
    let last: string | undefined = rv;
    await this.kube.watch({
      method: 'GET',
      path: this.path,
      query: { watch: true, resourceVersion: rv, allowWatchBookmarks: true },
      signal: this.abort.signal,
      onLine: (line) => {
        const ev = JSON.parse(line) as { type: string; object: TrackedObject };
        if (ev.type === 'ERROR') {
          last = undefined; // 410 Gone: relist
          return;
        }
        if (ev.object.metadata.resourceVersion) last = ev.object.metadata.resourceVersion;
        if (ev.type !== 'BOOKMARK') this.see(ev.object, ev.type === 'DELETED');
      },
    });
    return last;
  }

  private async loop(): Promise<void> {
    let rv: string | undefined;
    while (!this.abort.signal.aborted) {
      try {
        rv ??= await this.listOnce();
        rv = await this.watchFrom(rv);
      } catch {
        if (this.abort.signal.aborted) return;
        rv = undefined;
        await sleep(500);
      }
    }
  }

  /** Names currently Ready=True. */
  readyCount(): number {
    let n = 0;
    for (const o of this.objects.values()) if (isReady(o)) n++;
    return n;
  }

  /** Resolves when `predicate` holds (checked on every event and every second). */
  async waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Stops the watch. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }
}
