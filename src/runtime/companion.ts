/**
 * A companion: a controller that is not a reconciled kind but runs beside them under the same
 * manager (its Kubernetes client, leader election, readiness and shutdown). The composition
 * controller of CdnPolicies (src/composition/) is one; the runtime knows nothing of what a
 * companion does, only when to start and stop it.
 */
import type { Logger } from 'pino';
import type { KubeClient } from './kube-client.js';

/** What the manager gives a companion. */
export interface CompanionContext {
  client: KubeClient;
  log: Logger;
  /** Aborted when the manager stops. */
  signal: AbortSignal;
  /** The namespaces the operator watches (`''`: all). */
  namespaces: string[];
  /** False while this replica does not lead: a companion writes nothing then. */
  mayWrite(): boolean;
  stallTimeoutMs: number;
  /** How often a companion checks its objects again without a change. */
  resyncMs: number;
}

/** See the module comment. */
export interface Companion {
  readonly name: string;
  /** Starts watching (every replica, so that a takeover starts warm). */
  start(ctx: CompanionContext): Promise<void>;
  /** Starts working (the leader only, once every cache is synced). */
  startWorkers(): void;
  /** True once its caches are synced (readiness). */
  hasSynced(): boolean;
  /** Stops working and watching. */
  stop(): Promise<void>;
}
