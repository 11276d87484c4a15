/**
 * The kinds as the operator runs them (createManagedKinds: real clients, credentials, Secret
 * registration) against an in-process cdn-sim, each driven by the real reconciler on a fake
 * apiserver (FakeEnv): what the kit's conformance table and the lost-create tests stand on.
 * The test's Gadget is among them, on the gadget routes the world installs in cdn-sim.
 */
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { apiVersionOfKind, KINDS } from '../../../../src/controllers/kinds.js';
import { createManagedKinds } from '../../../../src/controllers/registry.js';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { KubeApiError } from '../../../../src/runtime/kube-client.js';
import { claimsOfObject } from '../../../../src/runtime/claims-policy.js';
import { findCondition } from '../../../../src/runtime/conditions.js';
import { ManagedReconciler, type ReconcileResult } from '../../../../src/runtime/reconciler.js';
import { StatusWriter } from '../../../../src/runtime/status-writer.js';
import type { ManagedKind, ManagedObject } from '../../../../src/runtime/types.js';
import type { FaultConfig } from '../../../../src/simulator/faults.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { gadgetRoutes } from '../../../support/sim-gadgets.js';
import { GADGET } from '../fixtures/gadget/kind.js';
import { FakeEnv } from '../../runtime/fake-env.js';

export const NS = 'team-a';
/** The world's API key (its account's marker key signs what only the operator makes). */
export const API_KEY = 'kit-conformance-api-key-0001';

/** One platform write the simulator logged (`POST /mc/registries`). */
export interface Write {
  method: string;
  route: string;
}

/** A running world: cdn-sim, a client on it, and the kinds bound to it. */
export interface World {
  sim: SimulatorHandle;
  client: CdnClient;
  kinds: Map<string, ManagedKind>;
  close(): Promise<void>;
}

/** Starts cdn-sim (with the gadget routes) and builds every kind and the Gadget against it. */
export async function startWorld(): Promise<World> {
  const sim = await startSimulator({
    apiKeys: [{ key: API_KEY }],
    logger: pino({ level: 'silent' }),
    testRoutes: gadgetRoutes(),
  });
  const log = pino({ level: 'silent' });
  const built = await createManagedKinds({ apiBaseUrl: sim.url, log }, [...KINDS, GADGET]);
  const kinds = new Map(built.map((k) => [k.kind, k]));
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: API_KEY,
    retry: { maxAttempts: 1 },
  });
  return { sim, client, kinds, close: () => sim.close() };
}

/** What one object of a kind needs around it in the fake cluster. */
export interface Stage {
  kind: string;
  /** Secrets of the namespace besides the credentials. */
  secrets?: Record<string, Record<string, string>>;
  /** Another object's claims, as the claim index holds them. */
  claims?: ClaimIndex;
  /** Other managed objects in the informer cache (owners, referenced objects). */
  objects?: () => readonly ManagedObject[];
}

/** An object of `kind` in the test namespace, with the credentials reference. */
export function objectOf(kind: string, name: string, spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: apiVersionOfKind(kind, [...KINDS, GADGET]),
    kind,
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${kind}-${name}`,
      creationTimestamp: '2026-01-02T00:00:00Z',
    },
    spec: { credentialsRef: { name: 'creds' }, ...spec },
  };
}

/** One object under the real reconciler on a fake apiserver, with a hand-moved monotonic clock. */
export class Subject {
  readonly env = new FakeEnv();
  reconciler: ManagedReconciler;
  /** The pending-create window's clock (ms); move it with {@link advance}. */
  private clock = 0;
  /**
   * Status writes with a resourceVersion precondition answered 409 from now on (the object
   * keeps changing under the operator, e.g. a tenant bumping an annotation in a loop).
   */
  conflicts = 0;
  /**
   * The next status write that reports Ready=True throws, as if the process died there: every
   * write fails from then on, until {@link restart}.
   */
  crashBeforeReady = false;
  private dead = false;

  constructor(
    readonly world: World,
    readonly stage: Stage,
    readonly name: string,
    spec: Record<string, unknown>,
  ) {
    this.env.put(objectOf(stage.kind, name, spec));
    const kind = world.kinds.get(stage.kind);
    if (!kind) throw new Error(`cannot stage ${stage.kind}: no such kind`);
    this.reconciler = this.build(kind);
  }

  private build(kind: ManagedKind): ManagedReconciler {
    const secrets: Record<string, Record<string, string>> = {
      creds: { apiKey: API_KEY },
      ...this.stage.secrets,
    };
    const plain = this.env.writer();
    const writer = {
      ...plain,
      patchStatus: (o: ManagedObject, p: Record<string, unknown>): Promise<ManagedObject> => {
        const rv = (p.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
        if (rv !== undefined && this.conflicts > 0) {
          this.conflicts--;
          return Promise.reject(new KubeApiError('the object has been modified', 409));
        }
        if (this.crashBeforeReady && reportsReady(p)) {
          this.crashBeforeReady = false;
          this.dead = true;
        }
        if (this.dead) return Promise.reject(new Error('simulated crash: the process is dead'));
        return plain.patchStatus(o, p);
      },
    };
    return new ManagedReconciler({
      kind,
      getCached: (key) =>
        this.env.objects.has(key) ? structuredClone(this.env.objects.get(key)!) : undefined,
      storeWritten: () => undefined,
      writer,
      status: new StatusWriter((o, p) => writer.patchStatus(o, p)),
      connectContext: (log) => ({
        log,
        readSecret: (ns, n) =>
          Promise.resolve(ns === NS && secrets[n] ? { ...secrets[n] } : undefined),
        readConfigMap: () => Promise.resolve(undefined),
        getObject: (ref) =>
          this.stage
            .objects?.()
            .find(
              (o) =>
                o.kind === ref.kind &&
                o.metadata.namespace === ref.namespace &&
                o.metadata.name === ref.name,
            ),
      }),
      events: {
        record: (_o, type, reason, message) => this.env.events.push({ type, reason, message }),
      },
      log: pino({ level: 'silent' }),
      signal: new AbortController().signal,
      timings: { afterCreateMs: 0, pendingCreateWindowMs: 60_000 },
      monotonicNow: () => this.clock,
      ...(this.stage.claims ? { claims: this.stage.claims } : {}),
    });
  }

  /** A new process: a fresh reconciler (no memory of pending creates), the same cluster. */
  restart(): void {
    this.dead = false;
    this.reconciler = this.build(this.world.kinds.get(this.stage.kind)!);
  }

  /** The object as the fake apiserver holds it. */
  get obj(): ManagedObject {
    return structuredClone(this.env.objects.get(`${NS}/${this.name}`)!);
  }

  /** One pass. */
  pass(): Promise<ReconcileResult> {
    return this.reconciler.reconcile(`${NS}/${this.name}`);
  }

  /** Passes until Ready=True (at most `max`); the last result. */
  async settle(max = 4): Promise<ReconcileResult> {
    let last: ReconcileResult = { outcome: 'none' };
    for (let i = 0; i < max && !this.ready(); i++) last = await this.pass();
    return last;
  }

  /** Moves the pending-create window's clock. */
  advance(ms: number): void {
    this.clock += ms;
  }

  ready(): boolean {
    return this.condition('Ready')?.status === 'True';
  }

  condition(type: string): { status: string; reason: string; message: string } | undefined {
    return findCondition(this.obj.status?.conditions, type);
  }

  /** The recorded external id. */
  id(field: string): string | undefined {
    const v = this.obj.status?.[field];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  }

  /** Edits the object (the apiserver's metadata or spec), as kubectl would. */
  edit(change: (o: ManagedObject) => void): void {
    const o = this.obj;
    change(o);
    this.env.objects.set(`${NS}/${this.name}`, {
      ...o,
      metadata: { ...o.metadata, resourceVersion: `${Date.now()}` },
    });
  }

  /** Marks the object deleted (the apiserver sets deletionTimestamp; the finalizer holds it). */
  markDeleted(): void {
    this.edit((o) => {
      o.metadata.deletionTimestamp = '2026-01-03T00:00:00Z';
    });
  }

  /** True once the finalizer is gone (the apiserver would then remove the object). */
  released(): boolean {
    return !(this.obj.metadata.finalizers ?? []).length;
  }

  /** Enters this object's claims in `index` (as the informer would). */
  claimIn(index: ClaimIndex): void {
    const kind = this.world.kinds.get(this.stage.kind)!;
    index.set(kind.kind, this.obj, claimsOfObject(kind, this.obj), undefined);
  }
}

/** True when a status merge patch sets Ready=True. */
function reportsReady(patch: Record<string, unknown>): boolean {
  const status = patch.status as { conditions?: { type: string; status: string }[] } | undefined;
  return (status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The platform writes the simulator logged since `from` (an index from {@link callCount}). */
export function writesSince(world: World, from: number): Write[] {
  return world.sim.calls
    .snapshot()
    .log.slice(from)
    .filter((c) => c.method !== 'GET')
    .map((c) => ({ method: c.method, route: c.route }));
}

/** The simulator's call count (a mark for {@link writesSince}). */
export function callCount(world: World): number {
  return world.sim.calls.snapshot().log.length;
}

/** Sets cdn-sim's faults. */
export function setFaults(world: World, faults: FaultConfig): void {
  world.sim.faults.set(faults);
}
