/**
 * A companion: something the manager runs beside the reconciled kinds, under the same manager
 * (its Kubernetes client, caches, leader election, readiness and shutdown). The composition
 * controller of CdnPolicies (src/composition/) and the DNS-01 solver (src/solver/) are two; the
 * runtime knows nothing of what a companion does, only when to start and stop it.
 *
 * A companion with {@link Companion.startWorkers} works on the leader only (it watches on every
 * replica, so that a takeover starts warm); one without serves on every replica. One with
 * {@link Companion.hasSynced} gates readiness; one without does not.
 */
import type { Logger } from 'pino';
import type { KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import type { ConnectContext, ManagedObject } from './types.js';

/** The cache of one managed kind: the objects of the namespaces the operator watches. */
export interface KindCache {
  list(): ManagedObject[];
  hasSynced(): boolean;
  waitForSync(): Promise<void>;
}

/** What the manager gives a companion when it starts. */
export interface CompanionContext {
  client: KubeClient;
  /** The manager's logger, bound to the companion's name. */
  log: Logger;
  metrics: OperatorMetrics;
  /** Aborted when the manager stops. */
  signal: AbortSignal;
  /** The namespaces the operator watches (`''`: all). */
  namespaces: string[];
  /** False while this replica does not lead: a companion writes nothing to Kubernetes then. */
  mayWrite(): boolean;
  /** `--watch-stall-timeout`, for a companion's own informers. */
  stallTimeoutMs: number;
  /** How often a companion checks its objects again without a change. */
  resyncMs: number;
  /** The cache of the managed kind `kind` of API group `group`; undefined when not managed. */
  cacheOf(group: string, kind: string): KindCache | undefined;
  /** What a kind's `connect` reads credentials with (Secrets, accounts). */
  connectContext(log: Logger): ConnectContext;
  /**
   * Ends the operator (exit 1, through the graceful stop) for what a companion finds wrong after
   * its `start` resolved, e.g. a port it could not listen on once its caches synced.
   */
  fail(err: Error): void;
}

/** See the module comment. */
export interface Companion {
  readonly name: string;
  /**
   * Starts watching or serving, on every replica, once the kinds' informers are started and
   * before leader election. A rejection fails the manager's start. It must not wait for caches:
   * SIGTERM is handled only once the manager's start resolved, so a wait belongs in the
   * background, reporting through {@link CompanionContext.fail}.
   */
  start(ctx: CompanionContext): Promise<void>;
  /** Starts working: on the leader only, once every cache is synced. Absent: none to start. */
  startWorkers?(): void;
  /** True once its caches are synced. Absent: the companion does not gate readiness. */
  hasSynced?(): boolean;
  /**
   * Stops working and watching or serving: in the graceful shutdown, after the kinds' watches
   * stop and before the Kubernetes client closes.
   */
  stop(): Promise<void>;
}
