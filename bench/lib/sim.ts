/**
 * cdn-sim for the bench: started as a child process (bench/lib/sim-main.ts) and driven
 * through its admin API (`/_sim/calls`, `/_sim/faults`, `/_sim/state`, `/_sim/reset`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallLogEntry, CallsSnapshot } from '../../src/simulator/calls.js';
import type { FaultConfig } from '../../src/simulator/faults.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Platform calls split into reads (GET) and writes (everything else). */
export interface CallCounts {
  reads: number;
  /** Write attempts, whatever the answer (429 and 5xx included). */
  writes: number;
  /** Writes answered 2xx (committed on the platform). */
  writesOk?: number;
  total: number;
  /** By `METHOD /template`. */
  byRoute: Record<string, number>;
  /** By HTTP status (0 = connection dropped). */
  byStatus: Record<string, number>;
}

/** A running simulator process and its admin client. */
export class SimProcess {
  private constructor(
    readonly url: string,
    readonly adminToken: string,
    private readonly child: ChildProcess,
  ) {}

  /** Starts the simulator with the given API keys and faults. */
  static async start(opts: {
    apiKeys: string[];
    faults?: FaultConfig;
    callLogLimit?: number;
    /** Check requests against the official documents (default true; the soak turns it off for speed). */
    strict?: boolean;
  }): Promise<SimProcess> {
    const adminToken = randomBytes(16).toString('hex');
    const options = {
      apiKeys: opts.apiKeys.map((key) => ({ key })),
      adminToken,
      faults: opts.faults ?? {},
      callLogLimit: opts.callLogLimit ?? 500_000,
      ...(opts.strict === false ? { strict: false } : {}),
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(ROOT, 'bench/lib/sim-main.ts'), JSON.stringify(options)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const url = await new Promise<string>((resolveUrl, reject) => {
      let out = '';
      let err = '';
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /SIM-READY (\S+)/.exec(out);
        if (m) resolveUrl(m[1] as string);
      });
      child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      child.on('exit', (code) => reject(new Error(`cdn-sim exited with ${code}: ${err}`)));
    });
    child.stdout?.resume();
    child.stderr?.resume();
    return new SimProcess(url, adminToken, child);
  }

  private async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}/_sim/${path}`, {
      method,
      headers: { 'X-Sim-Admin-Token': this.adminToken, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`cannot ${method} /_sim/${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Counters and the call log. */
  calls(): Promise<CallsSnapshot> {
    return this.admin('GET', 'calls');
  }

  /** Log entries recorded after `since` (ms since epoch); counters are ignored. */
  async logSince(since: number): Promise<CallLogEntry[]> {
    return (await this.admin<CallsSnapshot>('GET', `calls?since=${since}`)).log;
  }

  /** Seeds platform state (`POST /_sim/seed`, e.g. `pullZoneSeries`); answers what was made. */
  seed<T>(body: Record<string, unknown>): Promise<T> {
    return this.admin('POST', 'seed', body);
  }

  /** Replaces the fault configuration (`{}` clears every fault). */
  async setFaults(faults: FaultConfig): Promise<void> {
    await this.admin('PUT', 'faults', faults);
  }

  /** Empties the platform state (keys, faults and the call log stay). */
  async resetState(): Promise<void> {
    await this.admin('POST', 'reset');
  }

  /** The platform state dump. */
  state(): Promise<Record<string, unknown>> {
    return this.admin('GET', 'state');
  }

  /** Stops the process. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** Counts log entries (optionally within [from, to]) into reads and writes. */
export function countCalls(log: CallLogEntry[], from = -Infinity, to = Infinity): CallCounts {
  const c: CallCounts = { reads: 0, writes: 0, total: 0, byRoute: {}, byStatus: {} };
  for (const e of log) {
    if (e.t < from || e.t > to) continue;
    c.total++;
    if (e.method === 'GET') c.reads++;
    else c.writes++;
    c.byRoute[e.route] = (c.byRoute[e.route] ?? 0) + 1;
    c.byStatus[e.status] = (c.byStatus[e.status] ?? 0) + 1;
  }
  return c;
}

/** Counter deltas (route counters, exact even when the log was trimmed) between snapshots. */
export function diffCounters(before: CallsSnapshot, after: CallsSnapshot): CallCounts {
  const c: CallCounts = { reads: 0, writes: 0, writesOk: 0, total: 0, byRoute: {}, byStatus: {} };
  for (const [route, counter] of Object.entries(after.routes)) {
    const prev = before.routes[route];
    const n = counter.count - (prev?.count ?? 0);
    if (n === 0) continue;
    c.byRoute[route] = n;
    c.total += n;
    if (route.startsWith('GET ')) c.reads += n;
    else c.writes += n;
    for (const [status, count] of Object.entries(counter.byStatus)) {
      const d = count - (prev?.byStatus[status] ?? 0);
      if (d !== 0) c.byStatus[status] = (c.byStatus[status] ?? 0) + d;
      if (!route.startsWith('GET ') && /^2\d\d$/.test(status)) c.writesOk = (c.writesOk ?? 0) + d;
    }
  }
  return c;
}

/** Clears the sim's counters and call log (before a phase that polls the log). */
export async function resetCalls(sim: SimProcess): Promise<void> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    method: 'DELETE',
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  if (!res.ok) throw new Error(`cannot reset sim calls: ${res.status}`);
}

/**
 * Accumulates the sim's call log from a start time on, fetching only new entries each time
 * (`GET /_sim/calls?since=`), so that a long phase can be polled without copying the whole log.
 */
export class CallTail {
  readonly entries: CallLogEntry[] = [];
  private last: number;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sim: SimProcess,
    readonly from: number,
  ) {
    this.last = from - 1;
  }

  /**
   * Fetches entries logged since the previous call; returns the new ones. Entries of the
   * newest millisecond are held back while it is recent (more may still be logged in it),
   * unless `final`.
   */
  poll(final = false): Promise<CallLogEntry[]> {
    // One fetch at a time: overlapping polls would add the same entries twice.
    const next = this.chain.then(() => this.fetchNew(final));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async fetchNew(final: boolean): Promise<CallLogEntry[]> {
    const fresh = (await this.sim.logSince(this.last)).filter((e) => e.t > this.last);
    const newest = fresh.length > 0 ? (fresh[fresh.length - 1] as CallLogEntry).t : this.last;
    const settled = final || newest < Date.now() - 100;
    const cut = settled ? newest : Math.max(this.last, newest - 1);
    const kept = fresh.filter((e) => e.t <= cut);
    this.entries.push(...kept);
    this.last = cut;
    return kept;
  }
}
