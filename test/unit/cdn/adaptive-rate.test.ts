/**
 * AdaptiveRate with a fake clock: growth only while saturated, one decrease per overload
 * episode based on the accepted rate, quick recovery to the known limit then slow probing,
 * floor and ceiling.
 */
import test from 'ava';
import { AdaptiveRate, DECREASE_FACTOR } from '../../../src/cdn/adaptive-rate.js';

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** `n` accepted answers spread over `ms`. */
function accept(
  rate: AdaptiveRate,
  c: ReturnType<typeof clock>,
  n: number,
  ms: number,
  saturated = true,
): void {
  for (let i = 0; i < n; i++) {
    c.advance(ms / n);
    rate.onAccepted(saturated);
  }
}

test('probing: the rate doubles per second while callers wait for tokens', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 20, min: 1, max: Infinity }, c.now);
  accept(rate, c, 100, 1000);
  t.true(Math.abs(rate.current - 40) < 1, String(rate.current));
});

test('an idle account does not inflate its rate', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 20, min: 1, max: Infinity }, c.now);
  accept(rate, c, 50, 10_000, false);
  t.is(rate.current, 20);
});

test('a refusal drops to a share of the accepted rate, once per overload episode', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 100, min: 1, max: Infinity }, c.now);
  // The platform accepted 50 answers in the last second while callers waited for tokens.
  accept(rate, c, 50, 1000);
  const sentBefore = c.now();
  c.advance(10);
  t.true(rate.onRefused(sentBefore));
  t.true(Math.abs(rate.current - 50 * DECREASE_FACTOR) < 2, String(rate.current));
  t.true(Math.abs((rate.knownLimit ?? 0) - 50) < 2);
  const after = rate.current;
  // Requests sent before the decrease are refused too: the same episode, no second decrease.
  c.advance(5);
  t.false(rate.onRefused(sentBefore));
  t.is(rate.current, after);
});

test('after a refusal the rate climbs back near the known limit fast, then probes slowly', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 100, min: 1, max: Infinity }, c.now);
  accept(rate, c, 50, 1000);
  rate.onRefused(c.now());
  accept(rate, c, 100, 2000);
  const near = rate.current;
  t.true(near >= 0.95 * 50 && near <= 51, `2 s after: ${near}`);
  accept(rate, c, 500, 10_000);
  t.true(rate.current > near && rate.current < 50 * 1.1, `10 s later: ${rate.current}`);
});

test('a refusal while callers did not wait for tokens (the demand, not the limit) learns no limit', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 20, min: 1, max: Infinity }, c.now);
  accept(rate, c, 2, 1000, false); // 2 requests/s of demand
  t.true(rate.onRefused(c.now()));
  t.is(rate.knownLimit, undefined);
  // A backlog: the rate doubles per second again instead of probing up from 2/s.
  accept(rate, c, 100, 4000);
  t.true(rate.current >= 20, String(rate.current));
});

test('refusals right after a decrease (the fading tail of a refuse-all spell) learn no lower limit', (t) => {
  const c = clock();
  const rate = new AdaptiveRate({ initial: 50, min: 1, max: Infinity }, c.now);
  accept(rate, c, 50, 1000);
  rate.onRefused(c.now());
  const limit = rate.knownLimit;
  t.true(limit !== undefined && Math.abs(limit - 50) < 2, String(limit));
  // Everything is refused now; the window still holds the accepted answers of before.
  for (let i = 0; i < 20; i++) {
    c.advance(100);
    rate.onRefused(c.now());
  }
  t.is(rate.knownLimit, limit, 'the limit of before the spell stands');
  t.is(rate.current, 1, 'while the rate itself went down to the floor');
});

test('the rate stays within floor and ceiling', (t) => {
  const c = clock();
  const capped = new AdaptiveRate({ initial: 20, min: 1, max: 30 }, c.now);
  accept(capped, c, 500, 5000);
  t.is(capped.current, 30);
  const floored = new AdaptiveRate({ initial: 3, min: 2, max: Infinity }, c.now);
  for (let i = 0; i < 10; i++) {
    c.advance(100);
    floored.onRefused(c.now());
  }
  t.is(floored.current, 2);
});
