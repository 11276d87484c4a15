/**
 * The manager wires everything together: Kubernetes client, one {@link Controller} per
 * managed kind, one {@link ClusterController} per watched cluster-scoped kind (Namespaces,
 * CdnAccounts), Secret/ConfigMap caches for references and connection Secrets, events, metrics
 * and health servers, leader election and graceful shutdown.
 *
 * Informers run on every replica (a standby takes over with warm caches); workers run only
 * while this replica leads (or always, without leader election), and only after every cache
 * has synced. On SIGTERM: stop taking keys, let in-flight reconciles finish within the
 * shutdown timeout (then cancel them through `ExternalContext.signal` and let them end),
 * release the lease, stop watches, companions (companion.ts: the CdnPolicy composition, the
 * DNS-01 solver) and servers. A companion that fails after its start ends the operator like a
 * lost lease (exit 1).
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { KubeObject } from './cache.js';
import { ClaimIndex } from './claims.js';
import { claimsOfObject } from './claims-policy.js';
import { ownershipOf } from './claims-status.js';
import { ClusterController } from './cluster-controller.js';
import { createSecretAccess, type SecretAccess } from './connection-secret.js';
import { Controller } from './controller.js';
import { EventRecorder } from './events.js';
import {
  evaluateChecks,
  parseBindAddress,
  startHttpServer,
  type Check,
  type HttpServer,
} from './health.js';
import { KubeClient, isKubeStatus, loadKubeConfig, type KubeRequestEvent } from './kube-client.js';
import { LeaderElector } from './leader-election.js';
import { OperatorMetrics } from './metrics.js';
import { REPORTING_CONTROLLER } from './reasons.js';
import { TokenBucket } from './rate-limiter.js';
import type { ReconcilerTimings } from './reconciler.js';
import { ReferenceIndex, referenceKey } from './references.js';
import { CONFIG_MAPS, SECRETS, apiVersionOf, objectKey, resourcePath } from './resource.js';
import { SecondaryCache } from './secondary.js';
import { PageObserver } from './observe-by-pages.js';
import type { Companion, CompanionContext, KindCache } from './companion.js';
import type {
  ClusterKind,
  ClusterObject,
  ConnectContext,
  ManagedKind,
  ManagedObject,
  ObjectReference,
} from './types.js';

/** The part of the operator configuration the manager uses (see src/config.ts). */
export interface ManagerConfig {
  kubeconfig?: string;
  namespaces: string[];
  /** Namespaces whose Secrets/ConfigMaps are cached; unset: `namespaces`. */
  secretNamespaces?: string[];
  labelSelector?: string;
  workers: number;
  maxConcurrentReconciles?: number;
  pollIntervalMs: number;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  leaderElectionId: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  shutdownTimeoutMs: number;
  rateLimit: number;
  rateLimitBurst: number;
  watchStallTimeoutMs: number;
  /**
   * Share of each account's request rate the list sweeps of observe by pages may use
   * (`--sweep-read-share`); 0 or unset: every drift check reads by id.
   */
  sweepReadShare?: number;
  /** Least time between the starts of two sweeps of one account and type (`--sweep-interval`). */
  sweepIntervalMs?: number;
}

/** Default of {@link ManagerConfig.sweepIntervalMs}. */
export const DEFAULT_SWEEP_INTERVAL_MS = 50_000;

/** Options of {@link Manager}. */
export interface ManagerOptions {
  config: ManagerConfig;
  kinds: ManagedKind[];
  /** Cluster-scoped kinds watched beside the managed ones (see types.ts ClusterKind). */
  clusterKinds?: ClusterKind[];
  /** Run beside the kinds (companion.ts): the CdnPolicy composition, the DNS-01 solver. */
  companions?: Companion[];
  log: Logger;
  /** Share a metrics registry (main.ts hooks the CDN client into it before kinds exist). */
  metrics?: OperatorMetrics;
  /** Override reconciler timings (tests). */
  timings?: Partial<ReconcilerTimings>;
  kubeConfig?: KubeConfig;
  identity?: string;
}

/** See the module comment. */
export class Manager {
  readonly metrics: OperatorMetrics;
  readonly controllers = new Map<string, Controller>();
  readonly clusterControllers = new Map<string, ClusterController>();
  readonly identity: string;
  /** Bound ports of the HTTP servers (after start). */
  readonly ports: { metrics?: number; health?: number } = {};
  private client?: KubeClient;
  /** The leader election's own client (its own connections). */
  private leaseClient?: KubeClient;
  private readonly abort = new AbortController();
  private readonly refs = new ReferenceIndex();
  /** One owner per platform resource across all kinds and namespaces (claims.ts). */
  private readonly claims = new ClaimIndex();
  /** Observe by pages (observe-by-pages.ts), when `--sweep-read-share` is above 0. */
  private pages?: PageObserver;
  private secrets?: SecondaryCache;
  private configMaps?: SecondaryCache;
  private elector?: LeaderElector;
  private servers: HttpServer[] = [];
  private workersStarted = false;
  private stopping?: Promise<boolean>;
  private fatal?: (code: number) => void;
  /** Resolves with a non-zero exit code when the manager must end on its own (lost lease). */
  readonly fatalExit: Promise<number>;
  private readonly log: Logger;

  constructor(private readonly opts: ManagerOptions) {
    this.metrics = opts.metrics ?? new OperatorMetrics();
    this.identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    this.log = opts.log;
    this.fatalExit = new Promise((resolve) => (this.fatal = resolve));
    // Every in-flight CDN attempt listens on this signal for as long as it runs (removed after).
    setMaxListeners(10_000, this.abort.signal);
  }

  /** The Kubernetes client (after start). */
  get kube(): KubeClient {
    if (!this.client) throw new Error('cannot use the Kubernetes client: manager not started');
    return this.client;
  }

  /** Starts servers, caches, leader election and (when leading) workers. */
  async start(): Promise<void> {
    const { config } = this.opts;
    const kc = this.opts.kubeConfig ?? loadKubeConfig(config.kubeconfig);
    const countRequest = (e: KubeRequestEvent): void =>
      this.metrics.kubeRequests.inc({ verb: e.verb, resource: e.resource, code: e.code });
    this.client = await KubeClient.create(kc, countRequest);
    // The lease has connections of its own: a renewal never waits behind the passes' requests
    // for one of the shared client's bounded connections (kube-client.ts KUBE_REQUEST_SOCKETS).
    this.leaseClient = await KubeClient.create(kc, countRequest);
    const events = new EventRecorder({
      client: this.client,
      log: this.log,
      controller: REPORTING_CONTROLLER,
      instance: this.identity.slice(0, 128),
      onEmit: (reason, type) => this.metrics.eventsEmitted.inc({ reason, type }),
    });
    this.createSecondaryCaches();
    this.createClusterControllers();
    this.createControllers(events);
    await this.startServers();
    this.metrics.leader.set(config.leaderElect ? 0 : 1);
    this.secrets?.start();
    this.configMaps?.start();
    for (const c of this.clusterControllers.values()) c.startInformer();
    for (const c of this.controllers.values()) c.startInformers();
    await this.startCompanions();
    if (config.leaderElect) this.startLeaderElection();
    else void this.startWorkers();
    this.log.info(
      {
        kinds: this.opts.kinds.map((k) => k.name),
        namespaces: config.namespaces,
        leaderElect: config.leaderElect,
        identity: this.identity,
      },
      'Manager started',
    );
  }

  /** Before leader election: a companion's workers start only once it has started. */
  private async startCompanions(): Promise<void> {
    for (const c of this.opts.companions ?? []) await c.start(this.companionContext(c.name));
  }

  /** What a companion starts with (companion.ts). */
  private companionContext(name: string): CompanionContext {
    const { config } = this.opts;
    const log = this.log.child({ companion: name });
    return {
      client: this.kube,
      log,
      metrics: this.metrics,
      signal: this.abort.signal,
      namespaces: config.namespaces,
      mayWrite: () => this.isLeader(),
      stallTimeoutMs: config.watchStallTimeoutMs,
      resyncMs: config.pollIntervalMs,
      cacheOf: (group, kind) => this.cacheOf(group, kind),
      connectContext: (l) => this.connectContext(l),
      fail: (err) => {
        log.error({ err: err.message }, 'A companion of the operator failed');
        this.fatal?.(1);
      },
    };
  }

  private createControllers(events: EventRecorder): void {
    const { config } = this.opts;
    const limiter =
      config.rateLimit > 0 ? new TokenBucket(config.rateLimit, config.rateLimitBurst) : undefined;
    const secretAccess = this.connectionSecretAccess();
    this.pages = this.createPageObserver();
    const pages = this.pages;
    for (const kind of this.opts.kinds) {
      this.controllers.set(
        kind.name,
        new Controller({
          kind,
          client: this.kube,
          namespaces: config.namespaces,
          ...(config.labelSelector ? { labelSelector: config.labelSelector } : {}),
          workers: config.workers,
          ...(config.maxConcurrentReconciles !== undefined
            ? { concurrentReconciles: config.maxConcurrentReconciles }
            : {}),
          ...(limiter ? { limiter } : {}),
          metrics: this.metrics,
          events,
          log: this.log,
          signal: this.abort.signal,
          timings: { pollIntervalMs: config.pollIntervalMs, ...this.opts.timings },
          stallTimeoutMs: config.watchStallTimeoutMs,
          connectContext: (log) => this.connectContext(log),
          ...(config.leaderElect ? { mayWrite: () => this.isLeader() } : {}),
          claims: this.claims,
          ...(kind.connectionSecret && secretAccess ? { secrets: secretAccess } : {}),
          ...(pages ? { pages } : {}),
          onChange: (obj, event) => this.managedChanged(kind, obj, event),
        }),
      );
    }
  }

  /** The page observer every kind shares, or undefined when sweeps are off. */
  private createPageObserver(): PageObserver | undefined {
    const { config } = this.opts;
    const share = config.sweepReadShare ?? 0;
    if (share <= 0) return undefined;
    const m = this.metrics;
    return new PageObserver({
      readShare: share,
      minIntervalMs: config.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS,
      signal: this.abort.signal,
      log: this.log,
      hooks: {
        onPage: (type) => m.sweepPages.inc({ type }),
        onSweep: (type, outcome, seconds) => {
          m.sweeps.inc({ type, outcome });
          if (outcome === 'complete') m.sweepDuration.observe({ type }, seconds);
        },
        onRead: (type, result) => m.sweptReads.inc({ type, result }),
      },
      // A resource that changed between two sweeps is checked now, ahead of the polls.
      onChanged: (objects) => {
        for (const o of objects) this.controllers.get(o.kind)?.enqueueDriftCheck(o.key);
      },
    });
  }

  /** Reads and writes of connection Secrets, through the Secret cache (connection-secret.ts). */
  private connectionSecretAccess(): SecretAccess | undefined {
    if (!this.opts.kinds.some((k) => k.connectionSecret)) return undefined;
    return createSecretAccess(this.kube, this.secrets ?? this.fallbackCache(SECRETS));
  }

  private createClusterControllers(): void {
    const { config } = this.opts;
    for (const kind of this.opts.clusterKinds ?? []) {
      this.clusterControllers.set(
        kind.name,
        new ClusterController({
          kind,
          client: this.kube,
          metrics: this.metrics,
          log: this.log,
          signal: this.abort.signal,
          stallTimeoutMs: config.watchStallTimeoutMs,
          resyncMs: config.pollIntervalMs,
          connectContext: (log) => this.connectContext(log),
          ...(config.leaderElect ? { mayWrite: () => this.isLeader() } : {}),
          onChange: (obj, event, relevant) => this.clusterChanged(kind, obj, event, relevant),
        }),
      );
    }
  }

  private createSecondaryCaches(): void {
    const needed =
      this.opts.kinds.some((k) => k.references !== undefined || k.connectionSecret) ||
      (this.opts.clusterKinds ?? []).some((k) => k.references !== undefined);
    if (!needed) return;
    const { config } = this.opts;
    const trigger = (obj: KubeObject, apiVersion: string, kind: string): void =>
      this.triggerDependents({
        apiVersion,
        kind,
        namespace: obj.metadata.namespace ?? '',
        name: obj.metadata.name,
      });
    // Only where the operator may list them (RBAC): without --secret-namespace, the watched ones.
    const where = config.secretNamespaces ?? config.namespaces;
    const referenced =
      (kind: string) =>
      (namespace: string, name: string): boolean =>
        this.refs.dependentsOf({ apiVersion: 'v1', kind, namespace, name }).length > 0;
    this.secrets = new SecondaryCache(
      this.kube,
      SECRETS,
      where,
      this.log,
      this.metrics,
      (o) => trigger(o, 'v1', 'Secret'),
      config.watchStallTimeoutMs,
      referenced('Secret'),
    );
    this.configMaps = new SecondaryCache(
      this.kube,
      CONFIG_MAPS,
      where,
      this.log,
      this.metrics,
      (o) => trigger(o, 'v1', 'ConfigMap'),
      config.watchStallTimeoutMs,
      referenced('ConfigMap'),
    );
  }

  private managedChanged(
    kind: ManagedKind,
    obj: ManagedObject,
    event: 'add' | 'update' | 'delete',
  ): void {
    const dep = {
      controller: kind.name,
      key: objectKey(obj.metadata.namespace, obj.metadata.name),
    };
    if (event === 'delete') this.refs.remove(dep);
    else this.refs.set(dep, indexedReferences(kind, obj));
    this.updateClaims(kind, obj, event);
    this.triggerDependents({
      apiVersion: apiVersionOf(kind),
      kind: kind.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    });
  }

  /** Keeps the claim index in step; objects refused for a claim that changed are retried. */
  private updateClaims(
    kind: ManagedKind,
    obj: ManagedObject,
    event: 'add' | 'update' | 'delete',
  ): void {
    const contenders =
      event === 'delete'
        ? this.claims.remove(kind.kind, obj)
        : this.claims.set(kind.kind, obj, claimsOfObject(kind, obj), ownershipOf(obj).account);
    for (const c of contenders) {
      for (const ctl of this.controllers.values())
        if (ctl.kind.kind === c.kind) ctl.enqueue(objectKey(c.namespace, c.name), 'high');
    }
  }

  private triggerDependents(ref: ObjectReference): void {
    for (const d of this.refs.dependentsOf(ref)) {
      this.controllers.get(d.controller)?.enqueue(d.key, 'high');
      this.clusterControllers.get(d.controller)?.enqueue(d.key.slice(1));
    }
  }

  /**
   * A cluster-scoped object changed: its own references are indexed (an account's Secret), and
   * when its labels or spec changed, the managed objects that name it in `references` are
   * queued. Those are found by a scan, not an index: a few cluster objects (namespaces,
   * accounts) are each named by many objects, and an index entry per object would cost memory
   * for every object to save work on rare admin changes.
   */
  private clusterChanged(
    kind: ClusterKind,
    obj: ClusterObject,
    event: 'add' | 'update' | 'delete',
    relevant: boolean,
  ): void {
    if (kind.references) {
      const dep = { controller: kind.name, key: objectKey('', obj.metadata.name) };
      if (event === 'delete') this.refs.remove(dep);
      else this.refs.set(dep, kind.references(obj));
    }
    if (!relevant) return;
    const wanted = referenceKey({
      apiVersion: apiVersionOf(kind),
      kind: kind.kind,
      namespace: '',
      name: obj.metadata.name,
    });
    for (const c of this.controllers.values()) {
      if (!c.kind.references) continue;
      for (const o of c.list()) {
        const refs = c.kind.references(o);
        if (refs.some((r) => r.namespace === '' && referenceKey(r) === wanted))
          c.enqueue(objectKey(o.metadata.namespace, o.metadata.name), 'high');
      }
    }
  }

  private connectContext(log: Logger): ConnectContext {
    return {
      log,
      readSecret: (ns, name) =>
        (this.secrets ?? this.fallbackCache(SECRETS)).readData(ns, name, true),
      readConfigMap: (ns, name) =>
        (this.configMaps ?? this.fallbackCache(CONFIG_MAPS)).readData(ns, name, false),
      readBytes: (kind, ns, name) =>
        kind === 'Secret'
          ? (this.secrets ?? this.fallbackCache(SECRETS)).readBytes(ns, name, true)
          : (this.configMaps ?? this.fallbackCache(CONFIG_MAPS)).readBytes(ns, name, false),
      getObject: (ref) => this.getObject(ref),
      readClusterObject: (type, name) => this.readClusterObject(type, name),
    };
  }

  private cacheOf(group: string, kind: string): KindCache | undefined {
    for (const c of this.controllers.values())
      if (c.kind.group === group && c.kind.kind === kind) return c;
    return undefined;
  }

  private async readClusterObject(
    type: { group: string; version: string; plural: string },
    name: string,
  ): Promise<ClusterObject | undefined> {
    for (const c of this.clusterControllers.values()) {
      if (c.kind.group === type.group && c.kind.plural === type.plural && c.hasSynced())
        return c.get(name);
    }
    try {
      return await this.kube.request<ClusterObject>({
        method: 'GET',
        path: resourcePath({ ...type, kind: '' }, '', name),
      });
    } catch (err) {
      if (isKubeStatus(err, 404)) return undefined;
      throw err;
    }
  }

  /** A non-started cache: every read is a GET (used when no kind declares references). */
  private fallbackCache(type: typeof SECRETS): SecondaryCache {
    const cache = new SecondaryCache(
      this.kube,
      type,
      ['\u0000none'],
      this.log,
      this.metrics,
      () => undefined,
    );
    if (type === SECRETS) this.secrets = cache;
    else this.configMaps = cache;
    return cache;
  }

  private getObject(ref: ObjectReference): ManagedObject | undefined {
    for (const c of this.controllers.values()) {
      if (c.kind.kind === ref.kind && apiVersionOf(c.kind) === ref.apiVersion)
        return c.get(`${ref.namespace}/${ref.name}`);
    }
    return undefined;
  }

  private async startWorkers(): Promise<void> {
    await Promise.all([
      ...[...this.controllers.values()].map((c) => c.waitForSync()),
      ...[...this.clusterControllers.values()].map((c) => c.waitForSync()),
    ]);
    if (this.stopping || this.workersStarted) return;
    this.workersStarted = true;
    for (const c of this.clusterControllers.values()) c.startWorkers();
    for (const c of this.controllers.values()) c.startWorkers();
    this.pages?.start();
    for (const c of this.opts.companions ?? []) c.startWorkers?.();
    this.log.info({ workers: this.opts.config.workers }, 'Workers started');
  }

  private startLeaderElection(): void {
    const { config } = this.opts;
    this.elector = new LeaderElector({
      client: this.leaseClient ?? this.kube,
      namespace: config.leaderElectionNamespace,
      name: config.leaderElectionId,
      identity: this.identity,
      leaseDurationMs: config.leaseDurationMs,
      renewDeadlineMs: config.renewDeadlineMs,
      retryPeriodMs: config.retryPeriodMs,
      log: this.log,
      onStartedLeading: () => {
        this.metrics.leader.set(1);
        void this.startWorkers();
      },
      onStoppedLeading: () => {
        this.metrics.leader.set(0);
        // Stop reconciling at once; the process exits so it can rejoin as a clean standby.
        for (const c of this.controllers.values()) c.queue.shutdown();
        for (const c of this.clusterControllers.values()) c.queue?.shutdown();
        this.abort.abort();
        this.fatal?.(1);
      },
    });
    this.elector.start();
  }

  /** The readiness checks behind /readyz. */
  readinessChecks(): Check[] {
    return [
      { name: 'informers', check: () => (this.cachesSynced() ? undefined : 'caches not synced') },
      {
        name: 'leader-election',
        check: () =>
          !this.elector || this.elector.isHealthy() ? undefined : 'cannot reach the lease',
      },
      { name: 'shutdown', check: () => (this.stopping ? 'shutting down' : undefined) },
    ];
  }

  private cachesSynced(): boolean {
    return (
      [...this.controllers.values()].every((c) => c.hasSynced()) &&
      [...this.clusterControllers.values()].every((c) => c.hasSynced()) &&
      (this.opts.companions ?? []).every((c) => c.hasSynced?.() ?? true) &&
      (this.secrets?.hasSynced() ?? true) &&
      (this.configMaps?.hasSynced() ?? true)
    );
  }

  /** True while this replica reconciles (leader, or leader election off). */
  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : true;
  }

  private async startServers(): Promise<void> {
    const { config } = this.opts;
    const metricsBind = parseBindAddress(config.metricsBindAddress);
    if (metricsBind) {
      const s = await startHttpServer(metricsBind, {
        '/metrics': async () => {
          this.updateResourceGauge();
          return {
            status: 200,
            body: await this.metrics.render(),
            contentType: this.metrics.registry.contentType,
          };
        },
      });
      this.servers.push(s);
      this.ports.metrics = s.port;
      this.log.info({ server: 'metrics', host: metricsBind.host, port: s.port }, 'Serving metrics');
    }
    const healthBind = parseBindAddress(config.healthProbeBindAddress);
    if (healthBind) {
      const s = await startHttpServer(healthBind, {
        '/healthz': () => Promise.resolve({ status: 200, body: 'ok\n' }),
        '/readyz': () => Promise.resolve(evaluateChecks(this.readinessChecks())),
      });
      this.servers.push(s);
      this.ports.health = s.port;
      this.log.info(
        { server: 'health', host: healthBind.host, port: s.port },
        'Serving health probes',
      );
    }
  }

  private updateResourceGauge(): void {
    for (const c of this.controllers.values()) {
      for (const [ready, n] of Object.entries(c.readyCounts()))
        this.metrics.resources.set({ controller: c.kind.name, ready }, n);
    }
  }

  /** Graceful stop; resolves true when every in-flight reconcile finished in time. Idempotent. */
  stop(): Promise<boolean> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  /** Waits (bounded) for the passes cancelled by the shutdown to end. */
  private async awaitCancelledPasses(): Promise<void> {
    const ended = await Promise.all(
      [...this.controllers.values()].map((c) => c.queue.drain(CANCEL_GRACE_MS)),
    );
    if (!ended.every(Boolean))
      this.log.warn({ graceMs: CANCEL_GRACE_MS }, 'Cancelled reconciles still running');
  }

  private async doStop(): Promise<boolean> {
    const timeoutMs = this.opts.config.shutdownTimeoutMs;
    const inFlight = [...this.controllers.values()].reduce((n, c) => n + c.queue.inFlight(), 0);
    this.log.info({ inFlight, timeoutMs }, 'Shutting down: draining in-flight reconciles');
    const drained = (
      await Promise.all(
        [...this.controllers.values(), ...this.clusterControllers.values()].map((c) =>
          c.stopWorkers(timeoutMs),
        ),
      )
    ).every(Boolean);
    if (!drained)
      this.log.warn({ timeoutMs }, 'Shutdown deadline reached: cancelling in-flight reconciles');
    this.abort.abort();
    // The lease goes only once the cancelled passes have ended: their platform calls are
    // aborted and their failure path records in status what they know (a create whose outcome
    // is unknown), so the standby that takes over at once never acts on an object whose pass
    // still runs here.
    if (!drained) await this.awaitCancelledPasses();
    await this.elector?.stop();
    this.metrics.leader.set(0);
    await Promise.all([...this.controllers.values()].map((c) => c.stopInformers()));
    await Promise.all([...this.clusterControllers.values()].map((c) => c.stopInformer()));
    // Before the Kubernetes client closes: a companion's own informers and calls use it.
    await Promise.all((this.opts.companions ?? []).map((c) => c.stop()));
    await this.secrets?.stop();
    await this.configMaps?.stop();
    await Promise.all(this.servers.map((s) => s.close()));
    this.client?.close();
    this.leaseClient?.close();
    this.log.info({ drained }, 'Shutdown complete');
    return drained;
  }
}

/** How long cancelled passes get to end (failure status write) before the lease is released. */
export const CANCEL_GRACE_MS = 5_000;

/** Options of {@link runOperator}. */
export interface RunOptions {
  log: Logger;
  /** Cluster-scoped kinds to watch (see {@link ManagerOptions.clusterKinds}). */
  clusterKinds?: ClusterKind[];
  /** Run beside the kinds (see {@link ManagerOptions.companions}). */
  companions?: Companion[];
  metrics?: OperatorMetrics;
  timings?: Partial<ReconcilerTimings>;
}

/**
 * Runs the operator until SIGTERM/SIGINT (graceful stop, exit code 0, or 1 when in-flight
 * reconciles had to be cancelled) or until leadership is lost (exit code 1). Returns the
 * exit code; the caller exits the process.
 */
export async function runOperator(
  config: ManagerConfig,
  kinds: ManagedKind[],
  opts: RunOptions,
): Promise<number> {
  const manager = new Manager({
    config,
    kinds,
    ...(opts.clusterKinds ? { clusterKinds: opts.clusterKinds } : {}),
    ...(opts.companions ? { companions: opts.companions } : {}),
    log: opts.log,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
    ...(opts.timings ? { timings: opts.timings } : {}),
  });
  let signalled: (sig: string) => void = () => undefined;
  const signal = new Promise<string>((resolve) => (signalled = resolve));
  const onSignal = (sig: NodeJS.Signals): void => signalled(sig);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await manager.start();
    const outcome = await Promise.race([
      signal.then((s) => ({ signal: s })),
      manager.fatalExit.then((code) => ({ code })),
    ]);
    if ('signal' in outcome) {
      opts.log.info({ signal: outcome.signal }, 'Received signal');
      return (await manager.stop()) ? 0 : 1;
    }
    await manager.stop();
    return outcome.code;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

/**
 * The references of a managed object the index keeps: the kind's namespaced ones and its
 * connection Secret (a deleted or edited Secret is restored at once). Cluster-scoped ones
 * (namespace '') are found by a scan when they change (see Manager.clusterChanged).
 */
function indexedReferences(kind: ManagedKind, obj: ManagedObject): ObjectReference[] {
  const refs = (kind.references?.(obj) ?? []).filter((r) => r.namespace !== '');
  const secret = kind.connectionSecret?.nameOf(obj);
  if (secret !== undefined)
    refs.push({
      apiVersion: 'v1',
      kind: 'Secret',
      namespace: obj.metadata.namespace,
      name: secret,
    });
  return refs;
}
