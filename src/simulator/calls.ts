/**
 * Per-route call counters and a bounded call log (`GET /_sim/calls`). Route names are the
 * templated paths (`POST /pullzone/{id}`); status 0 means the connection was dropped.
 */

/** Counter of one route. */
export interface RouteCounter {
  count: number;
  byStatus: Record<string, number>;
}

/** One logged call. */
export interface CallLogEntry {
  t: number;
  method: string;
  route: string;
  path: string;
  status: number;
  /** The `Name`/`name` member of a write's JSON body (which object a create was for). */
  name?: string;
  /** The `X-Sim-Client` request header: a caller's tag (e.g. one per operator replica). */
  client?: string;
  /** A write applied and then left unanswered (commit-then-drop): status is 0, the state changed. */
  committed?: true;
}

/** Optional details of one logged call. */
export type CallDetails = Pick<CallLogEntry, 'name' | 'client' | 'committed'>;

/** One request the official document rejects (strict mode). */
export interface RejectedCall {
  t: number;
  route: string;
  path: string;
  problems: string[];
}

/** Requests the official documents reject: total, per route, and the newest ones. */
export interface RejectedSnapshot {
  count: number;
  byRoute: Record<string, number>;
  log: RejectedCall[];
}

/** Snapshot served by the admin API. */
export interface CallsSnapshot {
  routes: Record<string, RouteCounter>;
  log: CallLogEntry[];
  rejectedByDocument: RejectedSnapshot;
}

/** Rejected requests kept in the log. */
const REJECTED_LOG_LIMIT = 1000;

/** Records calls; keeps the newest `limit` log entries. */
export class CallRecorder {
  private routes = new Map<string, RouteCounter>();
  private log: CallLogEntry[] = [];
  private rejected: RejectedSnapshot = { count: 0, byRoute: {}, log: [] };

  constructor(private readonly limit = 10_000) {}

  /** Counts one call. `route` is `METHOD /template`. */
  record(
    method: string,
    route: string,
    path: string,
    status: number,
    details: CallDetails = {},
  ): void {
    let counter = this.routes.get(route);
    if (!counter) {
      counter = { count: 0, byStatus: {} };
      this.routes.set(route, counter);
    }
    counter.count++;
    counter.byStatus[status] = (counter.byStatus[status] ?? 0) + 1;
    this.log.push({ t: Date.now(), method, route, path, status, ...details });
    // Trim in batches so recording stays O(1) amortized.
    if (this.log.length > this.limit * 1.25) this.log = this.log.slice(-this.limit);
  }

  /** Counts a request the official document rejects (also counted by record()). */
  recordRejected(route: string, path: string, problems: string[]): void {
    this.rejected.count++;
    this.rejected.byRoute[route] = (this.rejected.byRoute[route] ?? 0) + 1;
    this.rejected.log.push({ t: Date.now(), route, path, problems });
    if (this.rejected.log.length > REJECTED_LOG_LIMIT) this.rejected.log.shift();
  }

  /** Copy of counters and the newest log entries. */
  snapshot(): CallsSnapshot {
    return {
      routes: Object.fromEntries([...this.routes].map(([k, v]) => [k, structuredClone(v)])),
      log: this.log.slice(-this.limit),
      rejectedByDocument: structuredClone(this.rejected),
    };
  }

  /** Forgets everything. */
  reset(): void {
    this.routes.clear();
    this.log = [];
    this.rejected = { count: 0, byRoute: {}, log: [] };
  }
}
