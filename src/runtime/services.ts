/**
 * Services the manager runs beside its controllers (the DNS-01 solver, issue 52): something
 * that serves on every replica, leader or not, from what the manager already has — its
 * Kubernetes client, the caches of the managed kinds, the connect context — and stops with it.
 * The runtime knows nothing of what a service does.
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

/** What a service gets from the manager when it starts. */
export interface ServiceHost {
  kube: KubeClient;
  log: Logger;
  metrics: OperatorMetrics;
  /** Aborted when the manager stops. */
  signal: AbortSignal;
  /** `--watch-stall-timeout`, for a service's own informers. */
  stallTimeoutMs: number;
  /** The cache of the managed kind `kind` of API group `group`; undefined when not managed. */
  cacheOf(group: string, kind: string): KindCache | undefined;
  /** What a kind's `connect` reads credentials with (Secrets, accounts). */
  connectContext(log: Logger): ConnectContext;
  /**
   * Ends the operator (exit 1, through the graceful stop) for what a service finds wrong after
   * its `start` resolved, e.g. a port it could not listen on once its caches synced.
   */
  fail(err: Error): void;
}

/**
 * A service of the manager. `start` runs once the controllers' informers are started (a
 * rejection fails the manager's start) and must not wait for caches: SIGTERM is handled only
 * once the start resolved, so a wait belongs in the background, reporting through
 * {@link ServiceHost.fail}. `stop` runs during the graceful shutdown, before the Kubernetes
 * client closes.
 */
export interface ManagerService {
  name: string;
  start(host: ServiceHost): Promise<void>;
  stop(): Promise<void>;
}
