/**
 * The sweeps of one account and resource type (observe by pages, docs/scaling.md): the whole
 * listing read page by page into the swept-record cache, again and again while objects of that
 * type on that account exist.
 *
 * - **Budget:** pages are paced to `readShare` of the account's request rate (read before every
 *   page: the rate adapts), and a sweep starts at most every `minIntervalMs`. The pages go
 *   through the account's limiter like every request, so sweeps and writes together stay
 *   within the account's rate, and the pacing leaves the rest of it to the writes.
 * - **Failures:** a failed page (a 429 among them: the listing sends background reads, which
 *   neither pause the account nor lower its rate) ends the sweep without pruning anything, and
 *   the next sweep waits an exponential backoff (1 s doubling up to 5 min). Only sweeps back
 *   off; the writes never wait for it.
 * - **Changes:** a record that differs from the previous sweep's is reported (`changed`) as
 *   soon as its page is read, and one a complete sweep no longer lists when the sweep ends, so
 *   that its object is observed at once instead of at its next poll. Reporting per page keeps a
 *   drift's latency within one sweep period: waiting for the sweep's end added the time of all
 *   its later pages (100 of them at 100,000 zones).
 */
import type { Logger } from 'pino';
import type { SweptRecords } from './swept-records.js';
import type { SweepSource } from './types.js';

/** Longest backoff of the sweeps of one store after failures. */
export const MAX_SWEEP_BACKOFF_MS = 300_000;
const FIRST_SWEEP_BACKOFF_MS = 1_000;

/** Observability of the sweeps (metrics.ts). */
export interface SweepHooks {
  onPage?(type: string): void;
  onSweep?(type: string, outcome: 'complete' | 'failed', seconds: number): void;
}

/** What the sweeps of one store need. */
export interface SweeperDeps {
  store: string;
  records: SweptRecords;
  /** The latest source declared for the store (the kind binds it to the account's client). */
  source(): SweepSource | undefined;
  /** True while objects of the store's account and type exist: sweeps stop otherwise. */
  active(): boolean;
  /** Share of the account's request rate the pages may use (0 < share <= 1). */
  readShare: number;
  minIntervalMs: number;
  /** Monotonic milliseconds. */
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  signal: AbortSignal;
  log: Logger;
  hooks?: SweepHooks;
  /** Ids whose record changed or vanished between two sweeps. */
  changed(ids: readonly string[]): void;
}

/** Runs the sweeps of one store until it is inactive or the signal aborts. Never throws. */
export async function runSweeps(deps: SweeperDeps): Promise<void> {
  let backoffMs = 0;
  for (let source = deps.source(); source && live(deps); source = deps.source()) {
    const started = deps.now();
    const first: FirstPage = {};
    backoffMs = await sweepOrBackOff(deps, source, started, backoffMs, first);
    if (deps.signal.aborted) return;
    // The interval runs from the first page's answer, not from the loop: a first page held by
    // the account's limiter must not bring the next sweep's first page closer than the interval.
    const wait = Math.max((first.at ?? started) + deps.minIntervalMs - deps.now(), backoffMs);
    if (wait > 0) await deps.sleep(wait, deps.signal);
  }
}

/** When a sweep's first page was answered (monotonic ms), once it was. */
interface FirstPage {
  at?: number;
}

function live(deps: SweeperDeps): boolean {
  return !deps.signal.aborted && deps.active();
}

/** One sweep; answers the backoff before the next (0 after a complete sweep). */
async function sweepOrBackOff(
  deps: SweeperDeps,
  source: SweepSource,
  started: number,
  backoffMs: number,
  first: FirstPage,
): Promise<number> {
  const seconds = (): number => (deps.now() - started) / 1000;
  try {
    await sweepOnce(deps, source, started, first);
    deps.hooks?.onSweep?.(source.type, 'complete', seconds());
    return 0;
  } catch (err) {
    if (deps.signal.aborted) return 0;
    deps.hooks?.onSweep?.(source.type, 'failed', seconds());
    const next = Math.min(MAX_SWEEP_BACKOFF_MS, Math.max(FIRST_SWEEP_BACKOFF_MS, backoffMs * 2));
    deps.log.debug(
      { type: source.type, error: (err as Error).message, backoffMs: next },
      'Sweep failed, backing off',
    );
    return next;
  }
}

/**
 * One sweep: every page, paced; reports the ids whose record changed after each page, and
 * those that vanished once the sweep is complete (a failed sweep proves no absence).
 */
async function sweepOnce(
  deps: SweeperDeps,
  source: SweepSource,
  started: number,
  first: FirstPage,
): Promise<void> {
  let lastPageAt = Number.NEGATIVE_INFINITY;
  for (let page = 1, more = true; more; page++) {
    await pace(deps, source, lastPageAt);
    lastPageAt = deps.now();
    const listed = await source.listPage(page, deps.signal);
    first.at ??= deps.now();
    deps.hooks?.onPage?.(source.type);
    report(deps, store(deps, source, listed.items, started));
    more = listed.more;
  }
  report(deps, deps.records.finish(deps.store, started));
}

function report(deps: SweeperDeps, ids: readonly string[]): void {
  if (ids.length > 0) deps.changed(ids);
}

/** Waits until the next page keeps the sweep within its share of the account's rate. */
async function pace(deps: SweeperDeps, source: SweepSource, lastPageAt: number): Promise<void> {
  const gapMs = 1000 / (deps.readShare * Math.max(0.001, await source.accountRate()));
  const wait = lastPageAt + gapMs - deps.now();
  if (wait > 0) await deps.sleep(wait, deps.signal);
  if (deps.signal.aborted) throw new Error('cannot sweep: shutting down');
}

/** Stores one page's records; answers the ids whose record changed. */
function store(
  deps: SweeperDeps,
  source: SweepSource,
  items: readonly unknown[],
  started: number,
): string[] {
  const changed: string[] = [];
  for (const item of items) {
    const record = source.toRecord ? source.toRecord(item) : item;
    if (record === undefined) continue;
    const id = source.idOf(item);
    if (deps.records.put(deps.store, id, record, started) === 'changed') changed.push(id);
  }
  return changed;
}
