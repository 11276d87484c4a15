import test from 'ava';
import { CdnApiError, type CdnErrorKind } from '../../../src/cdn/errors.js';
import type { RetryOptions } from '../../../src/cdn/options.js';
import { backoffDelay, parseRetryAfter, retryDelay, sleep } from '../../../src/cdn/retry.js';

const opts: RetryOptions = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 5000 };
const err = (kind: CdnErrorKind, retryAfterMs?: number): CdnApiError =>
  new CdnApiError({
    operation: 'op',
    kind,
    message: 'm',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

test('backoffDelay grows exponentially, is capped and stays within [half, full] of the step', (t) => {
  for (const [attempt, full] of [
    [1, 100],
    [2, 200],
    [3, 400],
    [5, 1000],
    [10, 1000],
  ] as const) {
    t.is(
      backoffDelay(attempt, opts, () => 0),
      full / 2,
      `attempt ${attempt} lower bound`,
    );
    t.is(
      backoffDelay(attempt, opts, () => 1),
      full,
      `attempt ${attempt} upper bound`,
    );
  }
});

const decisions: Array<{
  name: string;
  kind: CdnErrorKind;
  idempotent: boolean;
  attempt: number;
  elapsed: number;
  retryAfter?: number;
  retry: boolean;
}> = [
  {
    name: 'GET on server error is retried',
    kind: 'server',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retry: true,
  },
  {
    name: 'GET on network error is retried',
    kind: 'network',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retry: true,
  },
  {
    name: 'GET on timeout is retried',
    kind: 'timeout',
    idempotent: true,
    attempt: 2,
    elapsed: 0,
    retry: true,
  },
  {
    name: 'GET on 429 is retried',
    kind: 'rateLimited',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retry: true,
  },
  {
    name: 'write on server error is not retried (could duplicate)',
    kind: 'server',
    idempotent: false,
    attempt: 1,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'write on 429 is retried (the platform refused it unprocessed)',
    kind: 'rateLimited',
    idempotent: false,
    attempt: 1,
    elapsed: 0,
    retry: true,
  },
  {
    name: 'write on 429 stops at the attempt limit',
    kind: 'rateLimited',
    idempotent: false,
    attempt: 4,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'write on timeout is not retried (it may have been applied)',
    kind: 'timeout',
    idempotent: false,
    attempt: 1,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'invalid is never retried',
    kind: 'invalid',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'notFound is never retried',
    kind: 'notFound',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'attempts used up',
    kind: 'server',
    idempotent: true,
    attempt: 4,
    elapsed: 0,
    retry: false,
  },
  {
    name: 'budget exhausted',
    kind: 'server',
    idempotent: true,
    attempt: 1,
    elapsed: 4990,
    retry: false,
  },
  {
    name: 'Retry-After beyond the budget fails now',
    kind: 'rateLimited',
    idempotent: true,
    attempt: 1,
    elapsed: 0,
    retryAfter: 6000,
    retry: false,
  },
];

for (const d of decisions) {
  test(`retryDelay: ${d.name}`, (t) => {
    const delay = retryDelay(
      {
        error: err(d.kind, d.retryAfter),
        attempt: d.attempt,
        elapsedMs: d.elapsed,
        idempotent: d.idempotent,
      },
      opts,
      () => 0.5,
    );
    t.is(delay !== undefined, d.retry);
  });
}

test('retryDelay waits at least the Retry-After', (t) => {
  const delay = retryDelay(
    { error: err('rateLimited', 1500), attempt: 1, elapsedMs: 0, idempotent: true },
    opts,
    () => 0,
  );
  t.is(delay, 1500);
});

test('parseRetryAfter reads seconds and HTTP dates', (t) => {
  const now = Date.parse('2026-08-01T00:00:00Z');
  t.is(parseRetryAfter('2', now), 2000);
  t.is(parseRetryAfter('0.5', now), 500);
  t.is(parseRetryAfter('Sat, 01 Aug 2026 00:00:03 GMT', now), 3000);
  t.is(
    parseRetryAfter('Fri, 31 Jul 2026 00:00:00 GMT', now),
    0,
    'a date in the past means no wait',
  );
  t.is(parseRetryAfter(null, now), undefined);
  t.is(parseRetryAfter('soon', now), undefined);
});

test('sleep rejects when aborted', async (t) => {
  const ac = new AbortController();
  const p = sleep(10_000, ac.signal);
  ac.abort(new Error('stop'));
  await t.throwsAsync(p, { message: 'stop' });
});
