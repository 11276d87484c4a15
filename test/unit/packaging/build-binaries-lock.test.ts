/**
 * hack/build-binaries.sh run twice at once on one cache (CI's `make binaries` beside an e2e run
 * started by hand) must build once and succeed twice. Both used to build into the same `.tmp`
 * path; the slower one's `mv` then failed after minutes of work and failed the whole CI run.
 * A fake `go` on PATH stands in for the compiler: it sleeps, then writes its `-o` file.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './tools.js';

const FAKE_GO = `#!/usr/bin/env bash
set -eu
echo build >> "$FAKE_GO_LOG"
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out=$2; shift; fi
  shift
done
sleep 1
printf '#!/bin/sh\\n' > "$out"
chmod +x "$out"
`;

function run(env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(ROOT, 'hack/build-binaries.sh'), 'etcd'], { env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? 1, stderr }));
  });
}

test('two builds of one binary at once: one compiles, both succeed', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cdn-build-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'go'), FAKE_GO);
  chmodSync(path.join(dir, 'go'), 0o755);
  const log = path.join(dir, 'go.log');
  writeFileSync(log, '');
  const env = {
    ...process.env,
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    CDN_OPERATOR_CACHE: path.join(dir, 'cache'),
    FAKE_GO_LOG: log,
  };
  const [a, b] = await Promise.all([run(env), run(env)]);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  t.is(
    readFileSync(log, 'utf8').trim().split('\n').length,
    1,
    'the second run reuses the first build',
  );
});
