/**
 * Leader election on a coordination.k8s.io/v1 Lease, following client-go's algorithm:
 *
 * - a candidate acquires the lease when it does not exist, is free (empty holder), or its
 *   record has not changed for `leaseDurationMs` as measured on the candidate's own clock
 *   (so clock skew between nodes does not matter);
 * - the leader renews every `retryPeriodMs`; if it cannot renew for `renewDeadlineMs` it
 *   gives up leadership (`onStoppedLeading`) — renewDeadline < leaseDuration guarantees it
 *   stops before anyone else may take over;
 * - writes use the lease's resourceVersion, so two candidates cannot both win;
 * - `release()` on graceful shutdown empties the holder so a standby takes over at once.
 *
 * Every duration (renew deadline, the age of another holder's record, readiness contact) is
 * measured on a monotonic clock (`performance.now`, like client-go's monotonic `time.Time`
 * readings): a wall clock stepped back by NTP or an operator must not keep a deposed leader
 * leading, and one stepped forward must not depose a healthy one. The wall clock is used only
 * for the timestamps written into the Lease record.
 */
import type { Logger } from 'pino';
import { microTime } from './events.js';
import { KubeApiError, type KubeClient } from './kube-client.js';
import { LEASES, resourcePath } from './resource.js';
import { setSafeTimeout } from '../common/timers.js';

/** Options of {@link LeaderElector}. */
export interface LeaderElectionOptions {
  client: KubeClient;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  log: Logger;
  onStartedLeading(): void;
  onStoppedLeading(): void;
  /** Monotonic milliseconds (tests); default `performance.now`. Never the wall clock. */
  monotonicNow?: () => number;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: LeaseSpec;
}

/** See the module comment. */
export class LeaderElector {
  private leading = false;
  private stopped = false;
  private observedRecord = '';
  private observedAt = 0;
  private lastRenew = 0;
  private lastContact = 0;
  private timer?: NodeJS.Timeout;
  private lease?: Lease;
  /** Monotonic clock: every deadline and age is measured on it. */
  private readonly now: () => number;

  constructor(private readonly opts: LeaderElectionOptions) {
    this.now = opts.monotonicNow ?? ((): number => performance.now());
  }

  /**
   * True while this process holds the lease and renewed it within the renew deadline, judged
   * on the monotonic clock at the moment of asking: after SIGSTOP, a long GC pause or a partition,
   * timers and the next renewal attempt may run only after other work resumed, and that work
   * must already see that leadership is gone (fencing).
   */
  isLeader(): boolean {
    if (!this.leading) return false;
    if (this.now() - this.lastRenew <= this.opts.renewDeadlineMs) return true;
    this.loseLeadership();
    return false;
  }

  /** Healthy when leading, or when the last attempt reached the API server recently. */
  isHealthy(): boolean {
    return this.leading || this.now() - this.lastContact < this.opts.leaseDurationMs;
  }

  /** Starts competing for the lease. */
  start(): void {
    void this.tick();
  }

  /** Stops competing; releases the lease if held. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
    if (this.leading) await this.release();
  }

  private schedule(): void {
    if (this.stopped) return;
    const jitter = this.leading ? 1 : 1 + Math.random() * 0.2;
    this.timer = setSafeTimeout(() => void this.tick(), this.opts.retryPeriodMs * jitter);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.lost) return;
    // A renewal counts from when it was sent, not from when its answer arrived late.
    const sentAt = this.now();
    const ok = await this.tryAcquireOrRenew();
    if (this.stopped || this.lost) return;
    const now = this.now();
    if (ok) {
      this.lastRenew = sentAt;
      if (!this.leading) {
        this.leading = true;
        this.opts.log.info(
          { lease: this.opts.name, identity: this.opts.identity },
          'Acquired leader lease',
        );
        this.opts.onStartedLeading();
      }
      this.armDeadline();
    } else if (this.leading && now - this.lastRenew > this.opts.renewDeadlineMs) {
      this.loseLeadership();
      return;
    }
    this.schedule();
  }

  /** Set once leadership was lost: the process exits and rejoins as a clean standby. */
  private lost = false;
  private deadline?: NodeJS.Timeout;

  /** Fires at the renew deadline unless a renewal re-arms it first (a hung request included). */
  private armDeadline(): void {
    clearTimeout(this.deadline);
    this.deadline = setSafeTimeout(() => {
      if (this.leading && this.now() - this.lastRenew > this.opts.renewDeadlineMs)
        this.loseLeadership();
    }, this.opts.renewDeadlineMs + 1);
    this.deadline.unref();
  }

  /** Stops leading once: callers stop dispatching and abort in-flight work. */
  private loseLeadership(): void {
    if (!this.leading) return;
    this.leading = false;
    this.lost = true;
    clearTimeout(this.deadline);
    clearTimeout(this.timer);
    this.opts.log.error(
      { lease: this.opts.name },
      'Lost leader lease: cannot renew within the deadline',
    );
    this.opts.onStoppedLeading();
  }

  private path(name?: string): string {
    return resourcePath(LEASES, this.opts.namespace, name);
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.now();
    const timeoutMs = Math.max(1000, this.opts.retryPeriodMs);
    let lease: Lease;
    try {
      lease = await this.opts.client.request<Lease>({
        method: 'GET',
        path: this.path(this.opts.name),
        timeoutMs,
      });
      this.lastContact = this.now();
    } catch (err) {
      if (!(err instanceof KubeApiError && err.statusCode === 404)) {
        this.opts.log.debug({ err }, 'Cannot read leader lease');
        return false;
      }
      this.lastContact = this.now();
      return this.create(timeoutMs);
    }
    if (this.heldByOther(lease.spec ?? {}, now)) return false;
    return this.claim(lease, timeoutMs);
  }

  /** True when another holder's record changed within its lease duration (local monotonic clock). */
  private heldByOther(spec: LeaseSpec, now: number): boolean {
    const record = JSON.stringify(spec);
    if (record !== this.observedRecord) {
      this.observedRecord = record;
      this.observedAt = now;
    }
    const holder = spec.holderIdentity ?? '';
    const durationMs = (spec.leaseDurationSeconds ?? this.opts.leaseDurationMs / 1000) * 1000;
    return holder !== '' && holder !== this.opts.identity && this.observedAt + durationMs > now;
  }

  private async claim(lease: Lease, timeoutMs: number): Promise<boolean> {
    const stamp = microTime(Date.now());
    const spec = lease.spec ?? {};
    const mine = spec.holderIdentity === this.opts.identity;
    const transitions = spec.leaseTransitions ?? 0;
    const next: Lease = {
      ...lease,
      spec: {
        holderIdentity: this.opts.identity,
        leaseDurationSeconds: Math.round(this.opts.leaseDurationMs / 1000),
        acquireTime: mine && spec.acquireTime ? spec.acquireTime : stamp,
        renewTime: stamp,
        leaseTransitions: mine ? transitions : transitions + 1,
      },
    };
    try {
      this.lease = await this.opts.client.request<Lease>({
        method: 'PUT',
        path: this.path(this.opts.name),
        body: next,
        timeoutMs,
      });
      this.observedRecord = JSON.stringify(this.lease.spec);
      this.observedAt = this.now();
      return true;
    } catch (err) {
      this.opts.log.debug({ err }, 'Cannot update leader lease');
      return false;
    }
  }

  private async create(timeoutMs: number): Promise<boolean> {
    const stamp = microTime(Date.now());
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.opts.name, namespace: this.opts.namespace },
      spec: {
        holderIdentity: this.opts.identity,
        leaseDurationSeconds: Math.round(this.opts.leaseDurationMs / 1000),
        acquireTime: stamp,
        renewTime: stamp,
        leaseTransitions: 0,
      },
    };
    try {
      this.lease = await this.opts.client.request<Lease>({
        method: 'POST',
        path: this.path(),
        body: lease,
        timeoutMs,
      });
      return true;
    } catch (err) {
      this.opts.log.debug({ err }, 'Cannot create leader lease');
      return false;
    }
  }

  private async release(): Promise<void> {
    this.leading = false;
    if (!this.lease) return;
    const now = microTime(Date.now());
    try {
      await this.opts.client.request({
        method: 'PUT',
        path: this.path(this.opts.name),
        body: {
          ...this.lease,
          spec: {
            ...this.lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: now,
            acquireTime: now,
          },
        },
        timeoutMs: 2000,
      });
      this.opts.log.info({ lease: this.opts.name }, 'Released leader lease');
    } catch (err) {
      this.opts.log.warn({ err }, 'Cannot release leader lease');
    }
  }
}
