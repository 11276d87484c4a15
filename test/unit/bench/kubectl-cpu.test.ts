import test from 'ava';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childCpuSecondsOfTimes, runKubectlTimed } from '../../../bench/lib/kubectl-cpu.js';

const cases: Array<[string, number]> = [
  ['0m0.010s 0m0.002s\n0m1.500s 0m0.250s\n', 1.75],
  ['0m0.000s 0m0.000s\n2m3.000s 0m1.000s', 124],
];

for (const [text, want] of cases) {
  test(`times output ${JSON.stringify(text.split('\n')[1])}: the children's user + system`, (t) => {
    t.is(Math.round(childCpuSecondsOfTimes(text) * 1000) / 1000, want);
  });
}

test('times output without the children line is refused', (t) => {
  t.throws(() => childCpuSecondsOfTimes('0m0.010s 0m0.002s\n'), { message: /cannot read/ });
});

test('a kubectl that burns CPU and fails: its code, its stderr and its CPU seconds', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdn-kubectl-cpu-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // A stand-in kubectl: spins a fixed count (~0.3 s of CPU however loaded the machine is; a
  // loop bounded by bash's whole-second SECONDS could end at once), echoes its arguments,
  // fails with 3.
  writeFileSync(
    path.join(dir, 'kubectl'),
    '#!/usr/bin/env bash\ni=0\nwhile [ $i -lt 100000 ]; do i=$((i + 1)); done\necho "args: $*"\necho oops >&2\nexit 3\n',
  );
  chmodSync(path.join(dir, 'kubectl'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${dir}:${saved ?? ''}`;
  t.teardown(() => {
    process.env.PATH = saved;
  });
  const r = await runKubectlTimed('/tmp/kc', ['apply', '-f', 'x.yaml']);
  t.is(r.code, 3);
  t.is(r.stdout.trim(), 'args: --kubeconfig /tmp/kc apply -f x.yaml');
  t.is(r.stderr.trim(), 'oops');
  t.true(r.cpuSeconds > 0.05, `cpu ${r.cpuSeconds}`);
});
