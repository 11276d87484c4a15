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
  /**
   * Index of the AccessKey the request carried in the configured key list, -1 when it had
   * none or an unknown one (the value itself is never recorded). Lets a test tell apart the
   * callers that share one platform account, e.g. two operator shards with their own keys.
   */
  key: number;
}

/** Optional details of one logged call. */
export type CallDetails = Pick<CallLogEntry, 'name' | 'client' | 'committed'> & { key?: number };

/**
 * One request the official documents, read exactly, reject (strict mode): answered 400, or,
 * with `accepted`, answered anyway because the live platform's binding accepts it (a member
 * name in another case, an unknown member, a null, an enum value in another case).
 */
export interface RejectedCall {
  t: number;
  route: string;
  path: string;
  problems: string[];
  /** The request was bound like the live platform binds it and answered by the handler. */
  accepted?: true;
}

/**
 * Requests that did not match the official documents exactly: total, per route, and the
 * newest ones; `accepted` of them were answered anyway (live binding). A client held to the
 * exact documents (our operator, cdnctl) must leave `count` at 0.
 */
export interface RejectedSnapshot {
  count: number;
  byRoute: Record<string, number>;
  log: RejectedCall[];
  accepted: number;
}

/** Snapshot served by the admin API. */
export interface CallsSnapshot {
  routes: Record<string, RouteCounter>;
  log: CallLogEntry[];
  rejectedByDocument: RejectedSnapshot;
}

function emptyRejections(): RejectedSnapshot {
  return { count: 0, byRoute: {}, log: [], accepted: 0 };
}

/** Rejected requests kept in the log. */
const REJECTED_LOG_LIMIT = 1000;

/** Index of the first entry logged after `since` (the log is in time order). */
function firstAfter(log: CallLogEntry[], since: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((log[mid] as CallLogEntry).t > since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Records calls; keeps the newest `limit` log entries. */
export class CallRecorder {
  private routes = new Map<string, RouteCounter>();
  private log: CallLogEntry[] = [];
  private rejected: RejectedSnapshot = emptyRejections();

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
    const { key = -1, ...rest } = details;
    this.log.push({ t: Date.now(), method, route, path, status, key, ...rest });
    // Trim in batches so recording stays O(1) amortized.
    if (this.log.length > this.limit * 1.25) this.log = this.log.slice(-this.limit);
  }

  /**
   * Counts a request that did not match the official documents exactly (also counted by
   * record()); `accepted` when it was answered anyway after live binding.
   */
  recordRejected(route: string, path: string, problems: string[], accepted = false): void {
    this.rejected.count++;
    this.rejected.byRoute[route] = (this.rejected.byRoute[route] ?? 0) + 1;
    const entry: RejectedCall = { t: Date.now(), route, path, problems };
    if (accepted) {
      entry.accepted = true;
      this.rejected.accepted++;
    }
    this.rejected.log.push(entry);
    if (this.rejected.log.length > REJECTED_LOG_LIMIT) this.rejected.log.shift();
  }

  /**
   * Copy of counters and the newest log entries; with `since` (ms since epoch) only the
   * entries logged after it, so that a poller can tail a long log without copying all of it.
   */
  snapshot(since?: number): CallsSnapshot {
    const log = this.log.slice(-this.limit);
    return {
      routes: Object.fromEntries([...this.routes].map(([k, v]) => [k, structuredClone(v)])),
      log: since === undefined ? log : log.slice(firstAfter(log, since)),
      rejectedByDocument: structuredClone(this.rejected),
    };
  }

  /** Forgets everything. */
  reset(): void {
    this.routes.clear();
    this.log = [];
    this.rejected = emptyRejections();
  }
}
