/**
 * Observe by pages (docs/scaling.md): the periodic drift reads of many objects answered by a
 * few list sweeps per account and resource type instead of one read by id per object.
 *
 * The rules, which the reconciler and this module keep together:
 *
 * - **Only periodic passes read the cache** (a poll requeue, or a sweep that saw the resource
 *   change). A spec change, a create, a deletion, a dry-run or a request reads by id, as before.
 * - **Read your writes:** a cached record is used only when its sweep started after the
 *   object's last platform write in this process and after this process began sweeping (a
 *   previous leader's writes came before), and no longer ago than the object's poll interval.
 * - **Never act on a cached record:** when an observation made from the cache wants anything
 *   (not up to date, not there), the reconciler observes again by id before it decides.
 * - **Never resurrect, never hide:** a resource a complete sweep no longer lists is dropped
 *   from the cache; a resource the cache lacks is read by id. A sweep answers only reads by an
 *   id the object already holds, so a resource made behind the operator's back is never adopted
 *   through it.
 * - Every map is cleaned when its object goes ({@link PageObserver.forget}); the sweeps of an
 *   account and type stop, and its records go, when no object of them is left.
 */
import type { Logger } from 'pino';
import { delay } from '../common/timers.js';
import { storeKeyOf, SweptRecords } from './swept-records.js';
import { runSweeps, type SweepHooks } from './sweeper.js';
import type { SweepSource } from './types.js';

/** Hooks of the cache reads besides the sweeps' (metrics.ts). */
export interface PageObserverHooks extends SweepHooks {
  onRead?(type: string, result: 'hit' | 'miss'): void;
}

/** Options of a {@link PageObserver}. */
export interface PageObserverOptions {
  /** Share of each account's request rate the sweeps may use (`--sweep-read-share`). */
  readShare: number;
  /** Least time between the starts of two sweeps of one account and type (`--sweep-interval`). */
  minIntervalMs: number;
  signal: AbortSignal;
  log: Logger;
  /** Monotonic milliseconds (default `performance.now`). */
  now?: () => number;
  /** Default: a timer that ends early on abort. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  hooks?: PageObserverHooks;
  /** Objects whose resource changed or vanished between two sweeps: observe them now. */
  onChanged(objects: readonly SweptObject[]): void;
}

/** An object as the page observer knows it. */
export interface SweptObject {
  /** Controller name of its kind. */
  kind: string;
  /** `namespace/name`. */
  key: string;
}

/** Who reads, in {@link PageObserver.read}. */
export interface SweepReader extends SweptObject {
  uid: string | undefined;
  /** Account fingerprint of the connected client. */
  account: string | undefined;
  /** The pass is periodic (not a change, create or deletion): it may read the cache. */
  periodic: boolean;
  /** The object's poll interval: an older record is not used. */
  maxAgeMs: number;
}

interface Member extends SweptObject {
  id: string;
  store: string;
}

/** See the module comment. One per manager, shared by every kind. */
export class PageObserver {
  readonly records = new SweptRecords();
  private readonly now: () => number;
  /** Objects by store, each by its member key (kind and key). */
  private readonly members = new Map<string, Map<string, Member>>();
  /** The store of each member key. */
  private readonly storeOf = new Map<string, string>();
  /**
   * Member keys by store and resource id: a sweep's report of changed ids finds its objects
   * without scanning every member (a page reports at most a thousand ids, a store may hold
   * a hundred thousand members).
   */
  private readonly byId = new Map<string, Map<string, Set<string>>>();
  /** Monotonic time of each object's last platform write, with the uid that made it. */
  private readonly writes = new Map<string, { uid: string | undefined; at: number }>();
  private readonly sources = new Map<string, SweepSource>();
  private readonly loops = new Map<string, Promise<void>>();
  /** When this process began sweeping (leadership): earlier writes are not its to know. */
  private startedAt: number | undefined;

  constructor(private readonly opts: PageObserverOptions) {
    this.now = opts.now ?? ((): number => performance.now());
  }

  /** Begins sweeping (called when this replica starts leading). */
  start(): void {
    this.startedAt ??= this.now();
    for (const store of this.members.keys()) this.ensureSweeping(store);
  }

  /**
   * Reads `id` for `who`: the cached record when the rules allow it (see the module comment),
   * else `readById()`. Registers the object as a member of the source's store either way.
   * `onHit` runs when the answer came from the cache.
   */
  async read<R>(
    who: SweepReader,
    source: SweepSource<R>,
    id: string,
    readById: () => Promise<R | undefined>,
    onHit: () => void,
  ): Promise<R | undefined> {
    if (who.account === undefined) return readById();
    const store = storeKeyOf(who.account, source.type);
    this.join(who, store, id, source);
    const cached = who.periodic ? this.fresh(who, store, id) : undefined;
    this.opts.hooks?.onRead?.(source.type, cached ? 'hit' : 'miss');
    if (!cached) return readById();
    onHit();
    return cached as R;
  }

  /** Notes a platform write of the object's resource just finished (or failed). */
  wrote(obj: SweptObject, uid: string | undefined): void {
    this.writes.set(memberKey(obj), { uid, at: this.now() });
  }

  /** Drops every entry of an object that is gone (its delete event, or a pass that found it gone). */
  forget(obj: SweptObject): void {
    const mk = memberKey(obj);
    this.writes.delete(mk);
    const store = this.storeOf.get(mk);
    if (store === undefined) return;
    this.storeOf.delete(mk);
    this.forgetMember(mk, store);
  }

  /** Entries held for objects (tests: every map is cleaned on delete). */
  entries(): { members: number; writes: number; stores: number; sources: number; ids: number } {
    return {
      members: this.storeOf.size,
      writes: this.writes.size,
      stores: this.members.size,
      sources: this.sources.size,
      ids: this.byId.size,
    };
  }

  /** The cached record when it may answer `who`, else undefined. */
  private fresh(who: SweepReader, store: string, id: string): unknown {
    if (this.startedAt === undefined) return undefined;
    const got = this.records.get(store, id);
    if (!got) return undefined;
    const write = this.writes.get(memberKey(who));
    const lastWrite = write && write.uid === who.uid ? write.at : Number.NEGATIVE_INFINITY;
    const notBefore = Math.max(lastWrite, this.startedAt, this.now() - who.maxAgeMs);
    return got.startedAt > notBefore ? got.record : undefined;
  }

  private join<R>(who: SweepReader, store: string, id: string, source: SweepSource<R>): void {
    this.sources.set(store, source);
    const mk = memberKey(who);
    const previous = this.storeOf.get(mk);
    if (previous !== undefined && previous !== store) this.forgetMember(mk, previous);
    this.storeOf.set(mk, store);
    let members = this.members.get(store);
    if (!members) {
      members = new Map();
      this.members.set(store, members);
    }
    const before = members.get(mk);
    if (before?.id !== id) {
      if (before) this.unindex(store, before.id, mk);
      this.index(store, id, mk);
    }
    members.set(mk, { kind: who.kind, key: who.key, id, store });
    this.ensureSweeping(store);
  }

  private forgetMember(mk: string, store: string): void {
    const members = this.members.get(store);
    const member = members?.get(mk);
    if (member) this.unindex(store, member.id, mk);
    members?.delete(mk);
    if (members && members.size === 0) this.retire(store);
  }

  private index(store: string, id: string, mk: string): void {
    let ids = this.byId.get(store);
    if (!ids) {
      ids = new Map();
      this.byId.set(store, ids);
    }
    const keys = ids.get(id);
    if (keys) keys.add(mk);
    else ids.set(id, new Set([mk]));
  }

  private unindex(store: string, id: string, mk: string): void {
    const ids = this.byId.get(store);
    const keys = ids?.get(id);
    keys?.delete(mk);
    if (keys?.size === 0) ids?.delete(id);
    if (ids?.size === 0) this.byId.delete(store);
  }

  /** No object of the store is left: its source and records go; its loop ends by itself. */
  private retire(store: string): void {
    this.members.delete(store);
    this.byId.delete(store);
    this.sources.delete(store);
    this.records.drop(store);
  }

  private ensureSweeping(store: string): void {
    if (this.startedAt === undefined || this.loops.has(store) || this.opts.signal.aborted) return;
    const loop = runSweeps({
      store,
      records: this.records,
      source: () => this.sources.get(store),
      active: () => (this.members.get(store)?.size ?? 0) > 0,
      readShare: this.opts.readShare,
      minIntervalMs: this.opts.minIntervalMs,
      now: this.now,
      sleep: this.opts.sleep ?? delay,
      signal: this.opts.signal,
      log: this.opts.log,
      ...(this.opts.hooks ? { hooks: this.opts.hooks } : {}),
      changed: (ids) => this.notify(store, ids),
    }).finally(() => {
      this.loops.delete(store);
      // An object may have joined after the loop saw the store empty.
      if ((this.members.get(store)?.size ?? 0) > 0) this.ensureSweeping(store);
      else this.records.drop(store);
    });
    this.loops.set(store, loop);
  }

  private notify(store: string, ids: readonly string[]): void {
    const index = this.byId.get(store);
    const members = this.members.get(store);
    const objects: SweptObject[] = [];
    for (const id of new Set(ids))
      for (const mk of index?.get(id) ?? []) {
        const m = members?.get(mk);
        if (m) objects.push({ kind: m.kind, key: m.key });
      }
    if (objects.length > 0) this.opts.onChanged(objects);
  }
}

function memberKey(obj: SweptObject): string {
  return `${obj.kind}/${obj.key}`;
}
