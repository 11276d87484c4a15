/**
 * An in-memory stand-in for the Kubernetes API (optimistic concurrency on resourceVersion,
 * merge patches, /status) and a fake external platform, for reconciler unit tests.
 */
import { pino, type Logger } from 'pino';
import { KubeApiError } from '../../../src/runtime/kube-client.js';
import type { ObjectWriter } from '../../../src/runtime/object-writer.js';
import { ManagedReconciler, type ReconcilerTimings } from '../../../src/runtime/reconciler.js';
import { StatusWriter } from '../../../src/runtime/status-writer.js';
import type { ClaimIndex } from '../../../src/runtime/claims.js';
import { claimsOfObject } from '../../../src/runtime/claims-policy.js';
import { ownershipOf } from '../../../src/runtime/claims-status.js';
import type { ClassifiedError } from '../../../src/runtime/errors.js';
import type { PageObserver } from '../../../src/runtime/observe-by-pages.js';
import type {
  ExternalClient,
  ExternalContext,
  ManagedKind,
  ManagedObject,
  Observation,
  SweepSource,
} from '../../../src/runtime/types.js';

type Json = Record<string, unknown>;

/** RFC 7386 apply. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Json =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Json) }
      : {};
  for (const [k, v] of Object.entries(patch as Json)) {
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** The fake platform's resource. */
export interface Thing {
  id: string;
  name: string;
  color: string;
}

/** Fake world: API server objects, platform and counters. */
export class FakeEnv {
  objects = new Map<string, ManagedObject>();
  things = new Map<string, Thing>();
  calls: string[] = [];
  /** What observe reports as not ready yet (Observation.notReady), if anything. */
  observeNotReady?: { reason: string; message: string };
  /** What update reports as not ready yet (UpdateResult.notReady), if anything. */
  updateNotReady?: { reason: string; message: string };
  events: Array<{ type: string; reason: string; message: string }> = [];
  writes = { metadata: 0, status: 0 };
  /** Fail this many status writes (2 simulates a crash right after the create: the pass's write and its error-path write). */
  failStatusWrites = 0;
  /** The next create stores the thing and then throws (answer lost). */
  loseCreateAnswer = false;
  /** Error thrown by the next observe. */
  observeError?: Error;
  /** Creates report `available: true` (their answer proves the desired state). */
  createAvailable = false;
  /** Account fingerprint the fake client reports. */
  account = 'acc-1';
  /** Marker key the fake client offers (signed create-pending marker); none: status record. */
  markerKey?: Uint8Array;
  /** Error thrown by the next create (after nothing was made). */
  createError?: Error;
  /** Error thrown by the first observe after a create (the settle step). */
  observeErrorAfterCreate?: Error;
  /** Creates refuse a name already taken (like pull zone names): an error with `nameTaken`. */
  uniqueNames = false;
  /** A thing made by a create stays out of this many lookups by name (listing lag). */
  lookupLag = 0;
  /** The listing observe offers to `ctx.readOwn` (observe by pages); none: reads by id only. */
  sweepSource?: SweepSource<Thing>;
  /** Reads of one thing by id (observe's, not the sweeps'). */
  byIdReads = 0;
  /** The live colour each update was decided on (its observation's diff). */
  updatedFrom: string[] = [];
  private readonly hidden = new Map<string, number>();
  private rv = 100;
  private seq = 0;

  put(obj: ManagedObject): ManagedObject {
    const stored = structuredClone({
      ...obj,
      metadata: {
        ...obj.metadata,
        resourceVersion: String(++this.rv),
        uid: obj.metadata.uid ?? `uid-${obj.metadata.name}`,
        generation: obj.metadata.generation ?? 1,
      },
    });
    this.objects.set(`${obj.metadata.namespace}/${obj.metadata.name}`, stored);
    return stored;
  }

  get(name: string): ManagedObject {
    return structuredClone(this.objects.get(`ns/${name}`)!);
  }

  private patch(obj: ManagedObject, patch: Json, sub: 'metadata' | 'status'): ManagedObject {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    const cur = this.objects.get(key);
    if (!cur) throw new KubeApiError('not found', 404);
    const pm = patch.metadata as Json | undefined;
    if (pm?.resourceVersion !== undefined && pm.resourceVersion !== cur.metadata.resourceVersion)
      throw new KubeApiError('conflict', 409);
    let next: ManagedObject;
    if (sub === 'status') {
      next = {
        ...cur,
        status: applyMergePatch(cur.status ?? {}, patch.status) as ManagedObject['status'],
      };
    } else {
      const { resourceVersion: _rv, ...meta } = pm ?? {};
      next = { ...cur, metadata: applyMergePatch(cur.metadata, meta) as ManagedObject['metadata'] };
    }
    next.metadata.resourceVersion = String(++this.rv);
    this.objects.set(key, structuredClone(next));
    return structuredClone(next);
  }

  writer(): ObjectWriter {
    return {
      patchMetadata: (obj, p) => {
        this.writes.metadata++;
        return Promise.resolve(this.patch(obj, p, 'metadata'));
      },
      patchStatus: (obj, p) => {
        const pendingMarker = (p.status as Json | undefined)?.ownership as Json | undefined;
        // The create-pending marker write happens before the create; the crash is after it.
        if (this.failStatusWrites > 0 && typeof pendingMarker?.createPendingTime !== 'string') {
          this.failStatusWrites--;
          return Promise.reject(new Error('simulated crash before the id was recorded'));
        }
        this.writes.status++;
        return Promise.resolve(this.patch(obj, p, 'status'));
      },
      get: (ns, name) => {
        const cur = this.objects.get(`${ns}/${name}`);
        return cur
          ? Promise.resolve(structuredClone(cur))
          : Promise.reject(new KubeApiError('not found', 404));
      },
    };
  }

  client(): ExternalClient {
    const nameOf = (o: ManagedObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
    const observed = (o: ManagedObject, th: Thing): Observation => {
      const desired = String(o.spec?.color);
      const diff = th.color === desired ? [] : [{ field: 'color', live: th.color, desired }];
      const notReady = this.observeNotReady ? { notReady: this.observeNotReady } : {};
      return { exists: true, externalId: th.id, upToDate: diff.length === 0, diff, ...notReady };
    };
    return {
      observe: (o, ctx) => {
        this.calls.push(`observe${ctx.createPending ? ':pending' : ''}`);
        if (this.observeErrorAfterCreate && this.calls.at(-2) === 'create') {
          const e = this.observeErrorAfterCreate;
          this.observeErrorAfterCreate = undefined;
          return Promise.reject(e);
        }
        if (this.observeError) {
          const e = this.observeError;
          this.observeError = undefined;
          return Promise.reject(e instanceof Error ? e : new Error('observe failed'));
        }
        const found = ctx.externalId
          ? this.readOwn(ctx.externalId, ctx)
          : Promise.resolve(ctx.createPending ? this.lookUp(nameOf(o)) : undefined);
        return found.then((th) =>
          th ? observed(o, th) : { exists: false, upToDate: false, diff: [] },
        );
      },
      create: (o) => {
        this.calls.push('create');
        if (this.createError) {
          const e = this.createError;
          this.createError = undefined;
          return Promise.reject(e);
        }
        if (this.uniqueNames && [...this.things.values()].some((x) => x.name === nameOf(o)))
          return Promise.reject(Object.assign(new Error('the name is taken'), { nameTaken: true }));
        const th = { id: `t${++this.seq}`, name: nameOf(o), color: String(o.spec?.color) };
        this.things.set(th.id, th);
        if (this.lookupLag > 0) this.hidden.set(th.id, this.lookupLag);
        if (this.loseCreateAnswer) {
          this.loseCreateAnswer = false;
          return Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
        }
        return Promise.resolve(
          this.createAvailable ? { externalId: th.id, available: true } : { externalId: th.id },
        );
      },
      update: (o, obs, ctx) => {
        this.calls.push('update');
        this.updatedFrom.push(obs.diff[0]?.live ?? '');
        this.things.get(ctx.externalId!)!.color = String(o.spec?.color);
        return Promise.resolve(this.updateNotReady ? { notReady: this.updateNotReady } : undefined);
      },
      delete: (_o, ctx) => {
        this.calls.push('delete');
        this.things.delete(ctx.externalId!);
        return Promise.resolve();
      },
    };
  }

  /** The thing `id` as observe reads it: through `ctx.readOwn` when the kind offers a listing. */
  private readOwn(id: string, ctx: ExternalContext): Promise<Thing | undefined> {
    const byId = (): Promise<Thing | undefined> => {
      this.byIdReads++;
      const th = this.things.get(id);
      return Promise.resolve(th && { ...th });
    };
    return this.sweepSource && ctx.readOwn ? ctx.readOwn(this.sweepSource, id, byId) : byId();
  }

  /** A lookup by name: things still in their listing lag are not seen (and age by one). */
  private lookUp(name: string): Thing | undefined {
    const found = [...this.things.values()].find((x) => x.name === name && !this.hidden.has(x.id));
    for (const [id, n] of this.hidden) {
      if (n <= 1) this.hidden.delete(id);
      else this.hidden.set(id, n - 1);
    }
    return found;
  }

  kind(
    classify: (e: unknown) => ClassifiedError = (e) => ({
      class: 'retryable',
      reason: 'ReconcileError',
      message: String(e),
    }),
  ): ManagedKind {
    return {
      name: 'thing',
      group: 'test.io',
      version: 'v1',
      kind: 'Thing',
      plural: 'things',
      idStatusField: 'thingId',
      specExternalId: (o) => (typeof o.spec?.thingId === 'string' ? o.spec.thingId : undefined),
      connect: () =>
        Promise.resolve({
          ...this.client(),
          account: this.account,
          ...(this.markerKey ? { markerKey: this.markerKey } : {}),
        }),
      classifyError: classify,
    };
  }

  /** This world's kind with every ExternalClient call run through `around` (latency, counting). */
  kindAround(around: <T>(call: () => Promise<T>) => Promise<T>): ManagedKind {
    const kind = this.kind();
    kind.connect = (): Promise<ExternalClient> => {
      const c = this.client();
      return Promise.resolve({
        account: this.account,
        observe: (o, ctx) => around(() => c.observe(o, ctx)),
        create: (o, ctx) => around(() => c.create(o, ctx)),
        update: (o, obs, ctx) => around(() => c.update(o, obs, ctx)),
        delete: (o, ctx) => around(() => c.delete(o, ctx)),
      });
    };
    return kind;
  }

  reconciler(
    opts: {
      kind?: ManagedKind;
      timings?: Partial<ReconcilerTimings>;
      getCached?: (key: string) => ManagedObject | undefined;
      claims?: ClaimIndex;
      log?: Logger;
      /** Monotonic clock of the pending-create window (ms). */
      monotonicNow?: () => number;
      /** Observe by pages. */
      pages?: PageObserver;
    } = {},
  ): ManagedReconciler {
    const writer = this.writer();
    return new ManagedReconciler({
      kind: opts.kind ?? this.kind(),
      getCached:
        opts.getCached ??
        ((key) => (this.objects.has(key) ? structuredClone(this.objects.get(key)!) : undefined)),
      storeWritten: () => undefined,
      writer,
      status: new StatusWriter((o, p) => writer.patchStatus(o, p)),
      connectContext: (log) => ({
        log,
        readSecret: () => Promise.resolve(undefined),
        readConfigMap: () => Promise.resolve(undefined),
        getObject: () => undefined,
      }),
      events: {
        record: (_o, type, reason, message) => this.events.push({ type, reason, message }),
      },
      log: opts.log ?? pino({ level: 'silent' }),
      signal: new AbortController().signal,
      timings: { pollIntervalMs: 600_000, ...opts.timings },
      now: () => new Date('2025-01-01T00:00:00Z'),
      ...(opts.claims ? { claims: opts.claims } : {}),
      ...(opts.monotonicNow ? { monotonicNow: opts.monotonicNow } : {}),
      ...(opts.pages ? { pages: opts.pages } : {}),
    });
  }

  /** Feeds every stored object into a claim index, as the manager does from its informers. */
  indexClaims(index: ClaimIndex, kind: ManagedKind = this.kind()): ClaimIndex {
    for (const o of this.objects.values())
      index.set(kind.kind, o, claimsOfObject(kind, o), ownershipOf(o).account);
    return index;
  }
}

/** A Thing object. */
export function thing(
  name: string,
  spec: Json = { color: 'red' },
  annotations: Record<string, string> = {},
): ManagedObject {
  return {
    apiVersion: 'test.io/v1',
    kind: 'Thing',
    metadata: { name, namespace: 'ns', annotations },
    spec,
  };
}
