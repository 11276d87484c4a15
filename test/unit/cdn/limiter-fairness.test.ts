/**
 * Fair service in the account limiter (issue 28, item 3): `high` requests still go first, but
 * a `low` waiter is never starved by a busy high queue (aging), and tenants (namespaces) that
 * share one account get fair shares of its rate whatever their number of waiting requests.
 * Before: 123 high requests granted in 5 s at 20 req/s, 0 of 5 low ones.
 * Runs in virtual time, so the counts do not depend on the machine's load.
 */
import test from 'ava';
import type { RateLimitOptions } from '../../../src/cdn/options.js';
import { AccountLimiter } from '../../../src/cdn/rate-limit.js';
import { VirtualTime } from './virtual-time.js';

/** Fixed 20 requests/s (the platform's documented default), one second of burst. */
const FIXED_20: RateLimitOptions = {
  requestsPerSecond: 20,
  minRequestsPerSecond: 20,
  maxRequestsPerSecond: 20,
  burst: 20,
  maxConcurrent: 32,
};

interface Caller {
  priority: 'high' | 'low';
  flow?: string;
}

/**
 * Runs `busy` callers that ask again the moment they are served (a queue that is never empty)
 * for `seconds` of virtual time; returns the grants per label after the first second (the
 * first callers to arrive take the initial burst before the others queue).
 */
async function run(
  busy: Array<Caller & { label: string; count: number }>,
  once: Array<Caller & { label: string; count: number; atMs: number }>,
  seconds: number,
): Promise<Record<string, number>> {
  const clock = new VirtualTime();
  const limiter = new AccountLimiter(FIXED_20, clock);
  const granted: Record<string, number> = {};
  const stop = { now: false };
  const ask = (c: Caller & { label: string }, again: boolean): void => {
    void limiter.acquire(undefined, c.priority, c.flow).then((release) => {
      if (stop.now) return;
      if (clock.now() >= 1000 || !again) granted[c.label] = (granted[c.label] ?? 0) + 1;
      release();
      if (again) ask(c, true);
    });
  };
  for (const c of busy) for (let i = 0; i < c.count; i++) ask(c, true);
  for (const c of once)
    clock.setTimer(() => {
      for (let i = 0; i < c.count; i++) ask(c, false);
    }, c.atMs);
  await clock.run(seconds * 1000);
  stop.now = true;
  return granted;
}

test('a busy high queue does not starve low requests: all 5 are served within 5 s at 20 req/s', async (t) => {
  const granted = await run(
    [{ label: 'high', priority: 'high', count: 10 }],
    [{ label: 'low', priority: 'low', count: 5, atMs: 500 }],
    5,
  );
  t.is(granted.low ?? 0, 5, JSON.stringify(granted));
  t.true((granted.high ?? 0) >= 60, `high still gets most of the rate: ${JSON.stringify(granted)}`);
});

test('tenants sharing an account get fair shares, not shares by number of waiting requests', async (t) => {
  const granted = await run(
    [
      { label: 'team-a', priority: 'high', flow: 'team-a', count: 30 },
      { label: 'team-b', priority: 'high', flow: 'team-b', count: 2 },
    ],
    [],
    5,
  );
  const total = (granted['team-a'] ?? 0) + (granted['team-b'] ?? 0);
  const shareB = (granted['team-b'] ?? 0) / total;
  t.true(shareB >= 0.4, `team-b got ${(shareB * 100).toFixed(0)} % (${JSON.stringify(granted)})`);
});

test('across tenants a change still goes before a create, 2 to 1, and the create is never starved', async (t) => {
  const granted = await run(
    [
      { label: 'changes', priority: 'high', flow: 'team-a', count: 20 },
      { label: 'creates', priority: 'low', flow: 'team-b', count: 20 },
    ],
    [],
    5,
  );
  const ratio = (granted.changes ?? 0) / (granted.creates ?? 1);
  t.true(
    ratio > 1.6 && ratio < 2.4,
    `changes:creates = ${ratio.toFixed(2)} (${JSON.stringify(granted)})`,
  );
});
