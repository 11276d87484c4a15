/**
 * List-then-watch informer with the resilience the stock client-node informer lacks:
 *
 * - any error (network, 5xx, broken stream) restarts the watch with capped exponential
 *   backoff instead of stopping; the backoff resets once events flow again;
 * - 410 Gone (resourceVersion compacted away) triggers exactly one relist; a second 410
 *   shortly after a relist waits a backoff step first, so a flapping server cannot cause a
 *   relist storm;
 * - stall detection: when no event and no bookmark arrives for `stallTimeoutMs` the
 *   connection is presumed dead (half-open TCP, a proxy swallowing the stream) and the watch
 *   is reopened from the last resourceVersion;
 * - watches ask for bookmarks and a server-side `timeoutSeconds` (jittered) so healthy
 *   streams are renewed regularly without a relist;
 * - objects are stored through a transform (cache.ts trimObject: managedFields, the
 *   last-applied annotation and metadata nobody reads are dropped);
 * - a handler exception is logged with its stack and counted, never silently swallowed, and
 *   never stops the informer.
 */
import type { Logger } from 'pino';
import { computeBackoff, type BackoffOptions } from './backoff.js';
import { Store, keyOf, trimObject, type KubeObject } from './cache.js';
import { KubeApiError, type KubeClient } from './kube-client.js';
import { resourcePath, type ResourceType } from './resource.js';
import { delay, setSafeTimeout } from '../common/timers.js';
import { TurnSlicer } from './turn-slicer.js';
import { WATCH_SLICE_MS } from './watch-lines.js';

/** Event callbacks; they run synchronously on the informer's loop and must be quick. */
export interface InformerHandlers<T extends KubeObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, obj: T): void;
  onDelete?(obj: T): void;
}

/** Metric hooks. */
export interface InformerHooks {
  /** A watch ended other than by the server's normal timeout; reason: error|gone|stalled|closed. */
  onRestart?(reason: string): void;
  /** A full list was made; reason: initial|gone. */
  onRelist?(reason: string): void;
  onHandlerError?(): void;
}

/** Options of {@link Informer}. */
export interface InformerOptions<T extends KubeObject> {
  client: KubeClient;
  type: ResourceType;
  /** Empty string: all namespaces. */
  namespace: string;
  labelSelector?: string;
  /** e.g. `metadata.name=x`: one object RBAC grants by name (list and watch with it). */
  fieldSelector?: string;
  /** Applied after {@link trimObject}; `raw` is the object as received (for fields it drops). */
  transform?: (obj: KubeObject, raw: KubeObject) => T;
  handlers?: InformerHandlers<T>;
  hooks?: InformerHooks;
  log: Logger;
  /** No event or bookmark for this long → reopen the watch (default 5 min). */
  stallTimeoutMs?: number;
  /** Range of the server-side watch timeout in seconds (default 300–600). */
  watchTimeoutSeconds?: [number, number];
  /** Backoff between failed attempts (default 500 ms → 10 s). */
  backoff?: BackoffOptions;
  /** List page size (default 500). */
  pageSize?: number;
}

interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject & { code?: number; message?: string; reason?: string };
}

interface ListResponse {
  metadata: { resourceVersion: string; continue?: string };
  items: KubeObject[];
}

/** Thrown inside the watch loop for a 410 Gone. */
class GoneError extends Error {}

/**
 * A watch that ended within {@link SHORT_WATCH_MS} without a single event: client-go treats
 * it as an error (a proxy or apiserver closing every stream at once would otherwise make a
 * hot loop of watch requests), and so do we.
 */
class ShortWatchError extends Error {}

/** See {@link ShortWatchError}. */
const SHORT_WATCH_MS = 1000;

interface LoopState {
  failures: number;
  needList: boolean;
}

interface WatchSession {
  events: number;
  failure?: Error;
}

/** Fires once when not re-armed within `ms`. */
class StallTimer {
  fired = false;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly ms: number,
    private readonly onStall: () => void,
  ) {
    this.arm();
  }

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setSafeTimeout(() => {
      this.fired = true;
      this.onStall();
    }, this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

function watchError(ev: WatchEvent, plural: string): Error {
  if (ev.object.code === 410) return new GoneError(ev.object.message ?? 'Gone');
  return new KubeApiError(
    `cannot watch ${plural}: ${ev.object.message ?? 'error event'}`,
    ev.object.code,
    ev.object.reason,
  );
}

const DEFAULT_INFORMER_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 10_000, jitter: 0.2 };
/** A 410 this soon after a relist is treated as a failure (backoff) rather than relisted at once. */
const GONE_STORM_WINDOW_MS = 30_000;

/** See the module comment. */
export class Informer<T extends KubeObject = KubeObject> {
  readonly store = new Store<T>();
  private synced = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private loop?: Promise<void>;
  /** Monotonic ms of the last relist (durations never on the wall clock). */
  private lastRelistAt = Number.NEGATIVE_INFINITY;
  private readonly syncWaiters: Array<() => void> = [];
  /** Last resourceVersion seen (list, event or bookmark); exposed for tests. */
  resourceVersion?: string;
  private pendingResourceVersion?: string;
  private currentWatch?: AbortController;

  constructor(private readonly opts: InformerOptions<T>) {}

  /** Starts the list/watch loop in the background. */
  start(): void {
    this.loop ??= this.run();
  }

  /** Stops the loop and closes the watch. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.loop;
  }

  /** True once the first list has been stored. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has been stored. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  private get collection(): string {
    return resourcePath(this.opts.type, this.opts.namespace);
  }

  private async run(): Promise<void> {
    const state: LoopState = { failures: 0, needList: true };
    while (!this.stopped) {
      try {
        await this.step(state);
      } catch (err) {
        if (this.stopped) break;
        await this.recover(err, state);
      }
    }
  }

  private async step(state: LoopState): Promise<void> {
    if (state.needList) {
      await this.list(this.synced ? 'gone' : 'initial');
      state.needList = false;
    }
    if (await this.watchOnce()) state.failures = 0;
  }

  private async recover(err: unknown, state: LoopState): Promise<void> {
    const resource = this.opts.type.plural;
    if (err instanceof GoneError) {
      this.opts.hooks?.onRestart?.('gone');
      state.needList = true;
      // One relist right away; only a 410 right after a relist waits a backoff step.
      if (performance.now() - this.lastRelistAt > GONE_STORM_WINDOW_MS) {
        this.opts.log.info({ resource }, 'Watch expired (410 Gone), relisting');
        return;
      }
    } else {
      this.opts.hooks?.onRestart?.(err instanceof ShortWatchError ? 'short' : 'error');
    }
    const delay = computeBackoff(state.failures++, this.opts.backoff ?? DEFAULT_INFORMER_BACKOFF);
    this.opts.log.warn(
      { resource, namespace: this.opts.namespace, err: describe(err), retryInMs: delay },
      'Watch failed, restarting',
    );
    await this.sleep(delay);
  }

  private async list(reason: string): Promise<void> {
    const { items, resourceVersion } = await this.listAll();
    this.lastRelistAt = performance.now();
    this.opts.hooks?.onRelist?.(reason);
    await this.replace(items);
    this.resourceVersion = resourceVersion;
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  /**
   * Every object of the collection, paged. When a continue token expired (410 on a later page:
   * paging took longer than etcd keeps the snapshot) the pages are dropped and the collection
   * is read once without paging, as client-go's pager does (`FullListIfExpired`): a collection
   * too large to page through in time can still be listed.
   */
  private async listAll(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv: string;
    do {
      let page: ListResponse;
      try {
        page = await this.listPage(this.opts.pageSize ?? 500, cont);
      } catch (err) {
        if (cont === undefined || !(err instanceof KubeApiError && err.statusCode === 410))
          throw err;
        this.opts.log.info(
          { resource: this.opts.type.plural, pages: items.length },
          'List continue token expired, listing without paging',
        );
        const full = await this.listPage(undefined, undefined);
        return { items: full.items, resourceVersion: full.metadata.resourceVersion };
      }
      items.push(...page.items);
      cont = page.metadata.continue || undefined;
      rv = page.metadata.resourceVersion;
    } while (cont);
    return { items, resourceVersion: rv };
  }

  private listPage(limit: number | undefined, cont: string | undefined): Promise<ListResponse> {
    return this.opts.client.request<ListResponse>({
      method: 'GET',
      verb: 'LIST',
      path: this.collection,
      query: {
        limit,
        continue: cont,
        labelSelector: this.opts.labelSelector,
        fieldSelector: this.opts.fieldSelector,
      },
      signal: this.abort.signal,
    });
  }

  /**
   * Replaces the store with a fresh list, emitting add/update/delete for the differences. The
   * handlers of 10,000 objects take seconds, so the loop gives the event loop a turn every
   * {@link WATCH_SLICE_MS} (as the watch does for its lines); the watch starts after it ends.
   */
  private async replace(raw: KubeObject[]): Promise<void> {
    const slicer = new TurnSlicer(WATCH_SLICE_MS);
    const seen = new Set<string>();
    for (const item of raw) {
      await slicer.maybeYield();
      if (this.stopped) return;
      const obj = this.transform(item);
      const key = keyOf(obj);
      seen.add(key);
      const { prev, stored } = this.store.setUnlessOlder(obj);
      if (!stored) continue;
      if (!prev) this.emit('add', obj);
      else if (prev.metadata.resourceVersion !== obj.metadata.resourceVersion)
        this.emit('update', obj, prev);
    }
    for (const key of this.store.keys()) {
      if (seen.has(key)) continue;
      await slicer.maybeYield();
      if (this.stopped) return;
      const prev = this.store.delete(key);
      if (prev) this.emit('delete', prev);
    }
  }

  private transform(item: KubeObject): T {
    const stripped = trimObject(item);
    return this.opts.transform ? this.opts.transform(stripped, item) : (stripped as T);
  }

  /**
   * Test hook: ends the current watch as if the server closed it; the next watch starts
   * from `fromResourceVersion` when given (a stale one provokes a real 410 Gone).
   */
  restartWatch(fromResourceVersion?: string): void {
    if (fromResourceVersion !== undefined) this.pendingResourceVersion = fromResourceVersion;
    this.currentWatch?.abort();
  }

  /** One watch request; resolves true when at least one event arrived. */
  private async watchOnce(): Promise<boolean> {
    this.applyPendingResourceVersion();
    const ctrl = new AbortController();
    this.currentWatch = ctrl;
    const onStop = (): void => ctrl.abort();
    // A stop() that came while the list ran has already fired: the listener would never run
    // and the watch would hold stop() until the server ends it (minutes).
    if (this.abort.signal.aborted) ctrl.abort();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    const stall = new StallTimer(this.opts.stallTimeoutMs ?? 300_000, () => ctrl.abort());
    const session: WatchSession = { events: 0 };
    const startedAt = performance.now();
    try {
      await this.opts.client.watch({
        method: 'GET',
        path: this.collection,
        query: this.watchQuery(),
        signal: ctrl.signal,
        onLine: (line) => this.onLine(line, session, stall, ctrl),
      });
    } catch (err) {
      if (err instanceof KubeApiError && err.statusCode === 410) throw new GoneError(err.message);
      if (!ctrl.signal.aborted || session.failure) throw session.failure ?? err;
    } finally {
      stall.clear();
      this.currentWatch = undefined;
      this.abort.signal.removeEventListener('abort', onStop);
    }
    const short = !ctrl.signal.aborted && performance.now() - startedAt < SHORT_WATCH_MS;
    return this.finishWatch(session, stall, short);
  }

  private finishWatch(session: WatchSession, stall: StallTimer, short: boolean): boolean {
    if (session.failure) throw session.failure;
    if (short && session.events === 0 && !this.stopped)
      throw new ShortWatchError(`watch closed within ${SHORT_WATCH_MS} ms without events`);
    if (stall.fired && !this.stopped) {
      this.opts.hooks?.onRestart?.('stalled');
      this.opts.log.warn(
        { resource: this.opts.type.plural, stallMs: stall.ms },
        'Watch stalled, reopening',
      );
    }
    return session.events > 0;
  }

  private applyPendingResourceVersion(): void {
    if (this.pendingResourceVersion === undefined) return;
    this.resourceVersion = this.pendingResourceVersion;
    this.pendingResourceVersion = undefined;
  }

  private watchQuery(): Record<string, string | number | boolean | undefined> {
    const [min, max] = this.opts.watchTimeoutSeconds ?? [300, 600];
    return {
      watch: 1,
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: Math.round(min + Math.random() * (max - min)),
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
    };
  }

  private onLine(
    line: string,
    session: WatchSession,
    stall: StallTimer,
    ctrl: AbortController,
  ): void {
    if (session.failure) return;
    stall.arm();
    session.events++;
    try {
      this.handleEvent(JSON.parse(line) as WatchEvent);
    } catch (err) {
      session.failure = err as Error;
      ctrl.abort();
    }
  }

  private handleEvent(ev: WatchEvent): void {
    if (ev.type === 'ERROR') throw watchError(ev, this.opts.type.plural);
    const rv = ev.object.metadata?.resourceVersion;
    if (ev.type !== 'BOOKMARK') this.applyEvent(ev);
    if (rv) this.resourceVersion = rv;
  }

  private applyEvent(ev: WatchEvent): void {
    const obj = this.transform(ev.object);
    if (ev.type === 'DELETED') {
      this.store.delete(keyOf(obj));
      this.emit('delete', obj);
      return;
    }
    const { prev, stored } = this.store.setUnlessOlder(obj);
    if (!stored) return; // late event: the cache already holds what the runtime wrote since
    if (prev) this.emit('update', obj, prev);
    else this.emit('add', obj);
  }

  private emit(type: 'add' | 'update' | 'delete', obj: T, prev?: T): void {
    try {
      this.dispatch(type, obj, prev);
    } catch (err) {
      this.opts.hooks?.onHandlerError?.();
      this.opts.log.error(
        { resource: this.opts.type.plural, key: keyOf(obj), event: type, err },
        'Event handler threw',
      );
    }
  }

  private dispatch(type: 'add' | 'update' | 'delete', obj: T, prev?: T): void {
    const h = this.opts.handlers;
    if (!h) return;
    if (type === 'add') h.onAdd?.(obj);
    else if (type === 'update') h.onUpdate?.(prev ?? obj, obj);
    else h.onDelete?.(obj);
  }

  private sleep(ms: number): Promise<void> {
    return delay(ms, this.abort.signal);
  }
}

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof KubeApiError)
    return { message: err.message, statusCode: err.statusCode, code: err.code };
  if (err instanceof Error) return { message: err.message };
  return { message: String(err) };
}
