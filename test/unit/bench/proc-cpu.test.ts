import test from 'ava';
import { cpuSecondsOf, cpuSecondsOfStat } from '../../../bench/lib/proc-cpu.js';

test('cpuSecondsOfStat adds utime and stime, even when the command name has spaces and parens', (t) => {
  // Fields 14 (utime) = 250 and 15 (stime) = 50 ticks: 3 s.
  const line =
    '4242 (kube apiserver (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 1000 1 1';
  t.is(cpuSecondsOfStat(line), 3);
});

test('cpuSecondsOfStat refuses a line it cannot read', (t) => {
  t.throws(() => cpuSecondsOfStat('garbage'), { message: /cannot read CPU times/ });
});

test('cpuSecondsOf reads this process and grows with work', async (t) => {
  const before = await cpuSecondsOf([process.pid]);
  const until = Date.now() + 300;
  let x = 0;
  while (Date.now() < until) x += Math.sqrt(x + 1);
  const after = await cpuSecondsOf([process.pid, 2 ** 22 + 1]);
  t.true(after > before, `${before} -> ${after} (${x > 0})`);
});
