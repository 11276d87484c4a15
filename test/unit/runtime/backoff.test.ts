import test from 'ava';
import { ItemBackoff, computeBackoff, jitterDuration } from '../../../src/runtime/backoff.js';
import { formatDuration, parseDuration } from '../../../src/runtime/duration.js';

const opts = { baseMs: 1000, maxMs: 300_000, jitter: 0.2 };

test('backoff doubles from 1 s and is capped at 5 min', (t) => {
  const mid = (): number => 0.5;
  t.deepEqual(
    [0, 1, 2, 3, 8, 9, 50].map((n) => computeBackoff(n, opts, mid)),
    [1000, 2000, 4000, 8000, 256_000, 300_000, 300_000],
  );
});

test('jitter spreads ±20 % but never above the cap', (t) => {
  t.is(
    computeBackoff(0, opts, () => 0),
    800,
  );
  t.is(
    computeBackoff(0, opts, () => 1),
    1200,
  );
  t.is(
    computeBackoff(20, opts, () => 1),
    300_000,
    'cap holds with positive jitter',
  );
  t.is(
    jitterDuration(600_000, 0.1, () => 0),
    540_000,
  );
});

test('ItemBackoff counts per key', (t) => {
  const b = new ItemBackoff({ ...opts, jitter: 0 });
  b.next('a');
  b.next('a');
  t.is(b.next('b'), 1000, 'keys are independent');
  t.is(b.count('a'), 2);
  b.reset('a');
  t.is(b.next('a'), 1000);
});

const durations: Array<[string, number, string]> = [
  ['500ms', 500, 'milliseconds'],
  ['30s', 30_000, 'seconds'],
  ['10m', 600_000, 'minutes'],
  ['1h30m', 5_400_000, 'compound'],
  ['1.5s', 1500, 'fraction'],
];
for (const [input, ms, why] of durations) {
  test(`parseDuration ${input} (${why})`, (t) => t.is(parseDuration(input), ms));
}

test('parseDuration rejects missing units and garbage with the value in the message', (t) => {
  t.throws(() => parseDuration('30'), { message: /invalid duration "30": missing unit/ });
  t.throws(() => parseDuration('5 minutes'), { message: /invalid duration "5 minutes"/ });
  t.throws(() => parseDuration(''), { message: /invalid duration/ });
});

test('formatDuration', (t) => {
  t.is(formatDuration(90_000), '1m30s');
  t.is(formatDuration(250), '250ms');
});
