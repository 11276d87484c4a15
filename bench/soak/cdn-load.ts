/**
 * The CDN half of the soak: a fixed request mix sent through the operator's own client path
 * (`getCdnClient` of src/controllers/shared/client-pool.ts: one shared CdnClient per account,
 * per-account token bucket and concurrency cap, retry policy, per-attempt timeout, error
 * redaction, metrics hook) against cdn-sim, spread over several accounts. The mix exercises
 * the success path, the error path (404 on a missing zone, 500s and dropped connections the
 * simulator injects and the client retries) and writes.
 */
import type { Logger } from 'pino';
import { CdnApiError } from '../../src/cdn/errors.js';
import type { CdnClient } from '../../src/cdn/client.js';
import { getCdnClient } from '../../src/controllers/shared/client-pool.js';
import type { ControllerDeps } from '../../src/controllers/shared/deps.js';

/** Outcome counters of the load. */
export interface CdnLoadStats {
  /** HTTP attempts reported by the client's request hook (retries included). */
  attempts: number;
  /** Calls (client method invocations) finished. */
  calls: number;
  byOperation: Record<string, number>;
  /** Calls that failed although the mix expected success (after the client's retries). */
  unexpectedFailures: number;
  /** Expected failures (404 on the missing zone). */
  expectedNotFound: number;
  /** Attempts by HTTP status (`none` = no answer: dropped connection or timeout). */
  byStatus: Record<string, number>;
}

/** Zeroed counters. */
export function newCdnLoadStats(): CdnLoadStats {
  return {
    attempts: 0,
    calls: 0,
    byOperation: {},
    unexpectedFailures: 0,
    expectedNotFound: 0,
    byStatus: {},
  };
}

/** Options of {@link runCdnLoad}. */
export interface CdnLoadOptions {
  baseUrl: string;
  apiKeys: string[];
  /** Client-side limit per account, set explicitly high for the soak (the default is 20/s). */
  rateLimit: { requestsPerSecond: number; burst: number; maxConcurrent: number };
  /** Callers in flight across all accounts. */
  concurrency: number;
  /** Stop after this many HTTP attempts. */
  targetAttempts: number;
  /** A process-lifetime signal, as the operator's manager passes to every call. */
  signal: AbortSignal;
  log: Logger;
  shouldStop: () => boolean;
  /** Counters, updated live (the caller samples them). */
  stats: CdnLoadStats;
  /**
   * Every this many attempts the load stops until nothing is in flight and `onCheckpoint`
   * runs: a heap sample there holds no request in progress, so its slope measures what
   * requests leave behind, not how many happened to be in flight (0 = never).
   */
  checkpointEvery?: number;
  onCheckpoint?: () => Promise<void> | void;
}

/** One step of the mix: calls in a cycle of 20. */
type Step = 'get' | 'missing' | 'update' | 'list';
const MIX: Step[] = [...Array<Step>(15).fill('get'), 'missing', 'update', 'update', 'list', 'get'];

/** A zone id no account has: the simulator answers 404. */
const MISSING_ZONE = 2_000_000_000;

interface Account {
  client: CdnClient;
  zoneId: number;
}

/** Creates one pull zone per account and runs the mix until the target; resolves with the stats. */
export async function runCdnLoad(opts: CdnLoadOptions): Promise<CdnLoadStats> {
  const { stats } = opts;
  const deps: ControllerDeps = {
    apiBaseUrl: opts.baseUrl,
    log: opts.log,
    cdnRateLimit: opts.rateLimit,
    onCdnRequest: (e) => {
      stats.attempts++;
      const key = e.status === undefined ? 'none' : String(e.status);
      stats.byStatus[key] = (stats.byStatus[key] ?? 0) + 1;
    },
  };
  const accounts: Account[] = [];
  for (const [i, key] of opts.apiKeys.entries()) {
    const client = getCdnClient(deps, key);
    const zone = await client.addPullZone({
      Name: `soak-${process.pid}-${i}`,
      OriginUrl: 'https://origin.example.com',
    });
    accounts.push({ client, zoneId: zone.Id as number });
  }
  let issued = 0;
  const worker = async (until: number): Promise<void> => {
    while (stats.attempts < until && !opts.shouldStop()) {
      const n = issued++;
      const account = accounts[n % accounts.length] as Account;
      const step = MIX[Math.floor(n / accounts.length) % MIX.length] as Step;
      await callOnce(account, step, n, opts.signal, stats);
    }
  };
  const every = opts.checkpointEvery ?? 0;
  while (stats.attempts < opts.targetAttempts && !opts.shouldStop()) {
    const until =
      every > 0 ? Math.min(opts.targetAttempts, stats.attempts + every) : opts.targetAttempts;
    await Promise.all(Array.from({ length: opts.concurrency }, () => worker(until)));
    await opts.onCheckpoint?.();
  }
  return stats;
}

async function callOnce(
  account: Account,
  step: Step,
  n: number,
  signal: AbortSignal,
  stats: CdnLoadStats,
): Promise<void> {
  stats.byOperation[step] = (stats.byOperation[step] ?? 0) + 1;
  try {
    await send(account, step, n, signal);
    if (step === 'missing') stats.unexpectedFailures++;
  } catch (err) {
    if (step === 'missing' && err instanceof CdnApiError && err.kind === 'notFound')
      stats.expectedNotFound++;
    else stats.unexpectedFailures++;
  }
  stats.calls++;
}

async function send(account: Account, step: Step, n: number, signal: AbortSignal): Promise<void> {
  const { client, zoneId } = account;
  switch (step) {
    case 'get':
      await client.getPullZone(zoneId, { signal });
      return;
    case 'missing':
      await client.getPullZone(MISSING_ZONE, { signal });
      return;
    case 'update':
      await client.updatePullZone(zoneId, { CacheControlMaxAgeOverride: n % 3600 }, { signal });
      return;
    case 'list':
      await client.listPullZones({ page: 1, perPage: 5 }, { signal });
      return;
  }
}
