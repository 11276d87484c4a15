import test from 'ava';
import {
  AccountLimiter,
  LIMITER_IDLE_MS,
  limiterCount,
  limiterFor,
  pruneIdleLimiters,
  TokenBucket,
} from '../../../src/cdn/rate-limit.js';
import type { RateLimitOptions } from '../../../src/cdn/options.js';

test('token bucket: burst is free, then one token per 1/rate seconds', (t) => {
  let now = 0;
  const bucket = new TokenBucket(10, 3, () => now);
  t.deepEqual([bucket.take(), bucket.take(), bucket.take()], [0, 0, 0], 'burst of 3');
  t.is(bucket.take(), 100, 'empty: next token in 100 ms at 10/s');
  now = 50;
  t.is(bucket.take(), 50, 'half a token back, 50 ms to go');
  now = 100;
  t.is(bucket.take(), 0, 'a token is back');
  now = 10_000;
  t.deepEqual(
    [bucket.take(), bucket.take(), bucket.take(), bucket.take()],
    [0, 0, 0, 100],
    'a long pause refills only up to the burst',
  );
});

/** Fixed-rate options (floor = start = ceiling), as the tests before the adaptive rate used. */
function fixed(rps: number, burst: number, maxConcurrent: number): RateLimitOptions {
  return {
    requestsPerSecond: rps,
    minRequestsPerSecond: rps,
    maxRequestsPerSecond: rps,
    burst,
    maxConcurrent,
  };
}

test('account limiter caps concurrency and serves waiters of one priority in order', async (t) => {
  const limiter = new AccountLimiter(fixed(1000, 1000, 2));
  const r1 = await limiter.acquire();
  await limiter.acquire();
  const order: number[] = [];
  const p3 = limiter.acquire().then((r) => (order.push(3), r));
  const p4 = limiter.acquire().then((r) => (order.push(4), r));
  t.is(limiter.inFlight, 2);
  r1();
  r1(); // a second call of the same release must not free another slot
  const r3 = await p3;
  t.deepEqual(order, [3]);
  r3();
  await p4;
  t.deepEqual(order, [3, 4]);
});

test('account limiter: an aborted waiter leaves the queue', async (t) => {
  const limiter = new AccountLimiter(fixed(1000, 1000, 1));
  const release = await limiter.acquire();
  const ac = new AbortController();
  const waiting = limiter.acquire(ac.signal);
  ac.abort(new Error('gone'));
  await t.throwsAsync(waiting, { message: 'gone' });
  release();
  t.is(limiter.inFlight, 0, 'the slot went back to the pool, not to the aborted waiter');
  t.is(limiter.waiting, 0);
});

for (const c of [
  { why: 'waiting for a concurrency slot', options: fixed(1000, 1000, 1) },
  { why: 'waiting for a token', options: fixed(4, 1, 10) },
]) {
  test(`account limiter: a high-priority caller goes before low ones already ${c.why}`, async (t) => {
    const limiter = new AccountLimiter(c.options);
    const first = await limiter.acquire(undefined, 'low'); // holds the slot or the only token
    const order: string[] = [];
    const take = (name: string, priority: 'high' | 'low'): Promise<void> =>
      limiter.acquire(undefined, priority).then((release) => {
        order.push(name);
        release();
      });
    const lows = Array.from({ length: 4 }, (_, i) => take(`create-${i}`, 'low'));
    const high = take('update', 'high');
    first();
    await Promise.all([...lows, high]);
    t.is(order[0], 'update', order.join(', '));
  });
}

test('limiterFor shares one limiter per account id; first options win', (t) => {
  const a = limiterFor('acct-share-test', fixed(5, 5, 2));
  const b = limiterFor('acct-share-test', fixed(50, 50, 20));
  const c = limiterFor('acct-other-test', fixed(5, 5, 2));
  t.is(a, b);
  t.not(a, c);
  t.is(b.options.maxConcurrent, 2);
});

test('account limiter: pauseFor holds callers back', async (t) => {
  const limiter = new AccountLimiter(fixed(100, 100, 5));
  limiter.pauseFor(150);
  const started = Date.now();
  const release = await limiter.acquire();
  release();
  t.true(Date.now() - started >= 140, 'waited for the pause');
});

test('account limiter: a pause that starts while a caller waits for a slot still holds it back', async (t) => {
  // The chaos suite found requests sent inside a Retry-After window: they had passed the pause
  // check and were queued for a concurrency slot when the 429 arrived.
  const limiter = new AccountLimiter(fixed(1000, 1000, 1));
  const first = await limiter.acquire();
  const waiting = limiter.acquire();
  limiter.pauseFor(200); // the in-flight request got a 429 with Retry-After
  const pausedAt = Date.now();
  first();
  const second = await waiting;
  second();
  t.true(Date.now() - pausedAt >= 190, 'the queued caller waited out the Retry-After');
});

test('limiters of accounts unused for an hour are dropped from the registry', (t) => {
  const opts = fixed(1, 1, 1);
  const before = limiterCount();
  for (let i = 0; i < 100; i++) limiterFor(`idle-account-${i}`, opts);
  t.is(limiterCount(), before + 100);
  pruneIdleLimiters(Date.now() + LIMITER_IDLE_MS + 1, true);
  t.true(limiterCount() <= before, String(limiterCount()));
});

test('with a ceiling, the burst after an idle period is at most one second of it', (t) => {
  const cases: Array<{ max: number; burst: number; want: number }> = [
    { max: 20, burst: 40, want: 20 }, // a known 20/s quota: 40 at once would be half refused
    { max: 100, burst: 40, want: 40 },
    { max: 0.5, burst: 40, want: 1 },
    { max: Infinity, burst: 40, want: 40 },
  ];
  for (const c of cases) {
    const now = 0;
    const limiter = new AccountLimiter(
      {
        requestsPerSecond: Math.min(20, c.max),
        minRequestsPerSecond: Math.min(1, c.max),
        maxRequestsPerSecond: c.max,
        burst: c.burst,
        maxConcurrent: 1000,
      },
      { now: () => now, setTimer: () => undefined, clearTimer: () => undefined },
    );
    let free = 0;
    while (limiter.bucket.take() === 0 && free < 1000) free++;
    t.is(free, c.want, `max ${c.max}, burst ${c.burst}`);
  }
});
