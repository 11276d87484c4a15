/**
 * Prometheus metrics of the operator (prom-client, one registry per manager so tests can run
 * several managers in one process). Names are prefixed `cdn_operator_`; docs/runtime.md
 * lists them.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A CDN API request as reported by the CDN client's `onRequest` hook. */
export interface CdnRequestEvent {
  operation: string;
  method: string;
  status: number | undefined;
  kind?: string;
  durationMs: number;
  attempt?: number;
}

/** The current request rate of one CDN account (from the CDN client's limiter registry). */
export interface AccountRate {
  /** Account fingerprint (a hash of the API key, never the key). */
  account: string;
  requestsPerSecond: number;
}

/** All metrics of one manager. */
export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller' | 'class'>;
  readonly reconcileDuration: Histogram<'controller'>;
  readonly externalCalls: Counter<'controller' | 'operation'>;
  readonly statusWrites: Counter<'controller'>;
  readonly kubeWrites: Counter<'controller' | 'operation'>;
  readonly queueDepth: Gauge<'name'>;
  readonly queueAdds: Counter<'name'>;
  readonly queueRetries: Counter<'name'>;
  readonly queueLatency: Histogram<'name'>;
  readonly cdnRequests: Counter<'operation' | 'method' | 'status' | 'kind'>;
  readonly cdnRequestDuration: Histogram<'operation'>;
  readonly kubeRequests: Counter<'verb' | 'resource' | 'code'>;
  readonly informerRestarts: Counter<'resource' | 'reason'>;
  readonly informerRelists: Counter<'resource' | 'reason'>;
  readonly handlerErrors: Counter<'resource'>;
  readonly eventsEmitted: Counter<'reason' | 'type'>;
  readonly leader: Gauge;
  readonly resources: Gauge<'controller' | 'ready'>;
  readonly accountRate: Gauge<'account'>;
  readonly sweepPages: Counter<'type'>;
  readonly sweeps: Counter<'type' | 'outcome'>;
  readonly sweepDuration: Histogram<'type'>;
  readonly sweptReads: Counter<'type' | 'result'>;
  #accountRates: () => AccountRate[] = () => [];

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    const r = [this.registry];
    this.reconcileTotal = new Counter({
      name: 'cdn_operator_reconcile_total',
      help: 'Reconcile passes by controller and result (success, error, requeue, conflict).',
      labelNames: ['controller', 'result'],
      registers: r,
    });
    this.reconcileErrors = new Counter({
      name: 'cdn_operator_reconcile_errors_total',
      help: 'Failed reconcile passes by controller and error class.',
      labelNames: ['controller', 'class'],
      registers: r,
    });
    this.reconcileDuration = new Histogram({
      name: 'cdn_operator_reconcile_duration_seconds',
      help: 'Duration of a reconcile pass.',
      labelNames: ['controller'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: r,
    });
    this.externalCalls = new Counter({
      name: 'cdn_operator_external_calls_total',
      help: 'ExternalClient calls by controller and operation (observe, create, update, delete).',
      labelNames: ['controller', 'operation'],
      registers: r,
    });
    this.statusWrites = new Counter({
      name: 'cdn_operator_status_writes_total',
      help: 'Writes to the status subresource by controller.',
      labelNames: ['controller'],
      registers: r,
    });
    this.kubeWrites = new Counter({
      name: 'cdn_operator_object_writes_total',
      help: 'Metadata writes (finalizer, create-pending marker) by controller and operation.',
      labelNames: ['controller', 'operation'],
      registers: r,
    });
    this.queueDepth = new Gauge({
      name: 'cdn_operator_workqueue_depth',
      help: 'Keys waiting in the work queue.',
      labelNames: ['name'],
      registers: r,
    });
    this.queueAdds = new Counter({
      name: 'cdn_operator_workqueue_adds_total',
      help: 'Keys added to the work queue.',
      labelNames: ['name'],
      registers: r,
    });
    this.queueRetries = new Counter({
      name: 'cdn_operator_workqueue_retries_total',
      help: 'Keys re-queued with backoff after an error.',
      labelNames: ['name'],
      registers: r,
    });
    this.queueLatency = new Histogram({
      name: 'cdn_operator_workqueue_queue_duration_seconds',
      help: 'Time a key waited in the queue before a worker took it.',
      labelNames: ['name'],
      buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60],
      registers: r,
    });
    this.cdnRequests = new Counter({
      name: 'cdn_operator_cdn_api_requests_total',
      help: 'CDN management API requests by operation, method, HTTP status (or "error") and kind.',
      labelNames: ['operation', 'method', 'status', 'kind'],
      registers: r,
    });
    this.cdnRequestDuration = new Histogram({
      name: 'cdn_operator_cdn_api_request_duration_seconds',
      help: 'CDN management API request duration.',
      labelNames: ['operation'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: r,
    });
    this.kubeRequests = new Counter({
      name: 'cdn_operator_kube_api_requests_total',
      help: 'Kubernetes API requests by verb, resource and HTTP code.',
      labelNames: ['verb', 'resource', 'code'],
      registers: r,
    });
    this.informerRestarts = new Counter({
      name: 'cdn_operator_informer_watch_restarts_total',
      help: 'Watches restarted by reason (error, gone, stalled).',
      labelNames: ['resource', 'reason'],
      registers: r,
    });
    this.informerRelists = new Counter({
      name: 'cdn_operator_informer_relists_total',
      help: 'Full lists by reason (initial, gone).',
      labelNames: ['resource', 'reason'],
      registers: r,
    });
    this.handlerErrors = new Counter({
      name: 'cdn_operator_informer_handler_errors_total',
      help: 'Exceptions thrown by informer event handlers.',
      labelNames: ['resource'],
      registers: r,
    });
    this.eventsEmitted = new Counter({
      name: 'cdn_operator_events_total',
      help: 'Kubernetes Events emitted (after deduplication).',
      labelNames: ['reason', 'type'],
      registers: r,
    });
    this.leader = new Gauge({
      name: 'cdn_operator_leader',
      help: '1 while this process holds the leader lease (or leader election is off).',
      registers: r,
    });
    this.resources = new Gauge({
      name: 'cdn_operator_resources',
      help: 'Managed resources by controller and Ready condition status.',
      labelNames: ['controller', 'ready'],
      registers: r,
    });
    this.accountRate = new Gauge({
      name: 'cdn_operator_cdn_api_rate_limit',
      help: 'Current adaptive CDN API request rate per account in requests/s (account: fingerprint of the key).',
      labelNames: ['account'],
      registers: r,
      collect: () => this.#collectAccountRates(),
    });
    this.sweepPages = new Counter({
      name: 'cdn_operator_sweep_pages_total',
      help: 'List pages read by the sweeps of observe by pages, by resource type.',
      labelNames: ['type'],
      registers: r,
    });
    this.sweeps = new Counter({
      name: 'cdn_operator_sweeps_total',
      help: 'Sweeps of observe by pages by resource type and outcome (complete, failed).',
      labelNames: ['type', 'outcome'],
      registers: r,
    });
    this.sweepDuration = new Histogram({
      name: 'cdn_operator_sweep_duration_seconds',
      help: 'Duration of a complete sweep (every page of one account and type).',
      labelNames: ['type'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: r,
    });
    this.sweptReads = new Counter({
      name: 'cdn_operator_swept_reads_total',
      help: "Reads of an object's own resource offered to the swept-record cache, by type and result (hit: answered from a sweep; miss: read by id).",
      labelNames: ['type', 'result'],
      registers: r,
    });
    if (opts.defaultMetrics ?? true)
      collectDefaultMetrics({ register: this.registry, prefix: 'cdn_operator_' });
  }

  /** Where the account rate gauge reads the current rates at each scrape. */
  setAccountRateSource(source: () => AccountRate[]): void {
    this.#accountRates = source;
  }

  #collectAccountRates(): void {
    this.accountRate.reset();
    for (const r of this.#accountRates())
      this.accountRate.set({ account: r.account }, r.requestsPerSecond);
  }

  /** Records one CDN API request (hook for the CDN client's `onRequest`). */
  recordCdnRequest(e: CdnRequestEvent): void {
    const status = e.status === undefined ? 'error' : String(e.status);
    this.cdnRequests.inc({ operation: e.operation, method: e.method, status, kind: e.kind ?? '' });
    this.cdnRequestDuration.observe({ operation: e.operation }, e.durationMs / 1000);
  }

  /** The informer hooks that count restarts, relists and handler errors of `resource`. */
  informerHooks(resource: string): {
    onRestart(reason: string): void;
    onRelist(reason: string): void;
    onHandlerError(): void;
  } {
    return {
      onRestart: (reason) => this.informerRestarts.inc({ resource, reason }),
      onRelist: (reason) => this.informerRelists.inc({ resource, reason }),
      onHandlerError: () => this.handlerErrors.inc({ resource }),
    };
  }

  /** Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
