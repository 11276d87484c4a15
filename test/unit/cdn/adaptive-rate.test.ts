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
  // The platform accepted 50 answers in the last second while we sent faster.
  accept(rate, c, 50, 1000, false);
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
  accept(rate, c, 50, 1000, false);
  rate.onRefused(c.now());
  accept(rate, c, 100, 2000);
  const near = rate.current;
  t.true(near >= 0.95 * 50 && near <= 51, `2 s after: ${near}`);
  accept(rate, c, 500, 10_000);
  t.true(rate.current > near && rate.current < 50 * 1.1, `10 s later: ${rate.current}`);
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
