/**
 * `make test` needs nothing the README's prerequisites do not name (issue 53). The Argo CD
 * health tests used to start Debian's `lua5.1`, which only `.ci/run` installed: CI passed while
 * a plain clone on a machine with the README's prerequisites failed 230 unit tests. These checks
 * keep the list true: every program the test code starts by name is a prerequisite (or part of
 * every Linux system); every Debian package `.ci/run` installs is one; and every Go tool the
 * tests build through hack/build-binaries.sh is built by the Makefile before the suite starts.
 */
import test from 'ava';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_TOOLS, E2E_TOOLS, ROOT, run } from './tools.js';

/** Programs of every Linux system's base, which the README's "Linux" names. */
const BASE_SYSTEM: Record<string, string> = {
  sh: 'the POSIX shell, /bin/sh on every Linux system',
  tar: 'in every Linux base system (Debian: Essential)',
};

/** A call that starts a program named by a string literal: `spawn('kubectl', ...)`. */
const STARTS =
  /(?<![\w.])(spawn|spawnSync|execFile|execFileSync|execFileAsync|run)\(\s*'([^'\s]+)'/g;

/** The README's prerequisites paragraph. */
async function readPrerequisites(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const paragraph = readme.split(/\n\s*\n/).find((p) => p.startsWith('Prerequisites:'));
  if (paragraph === undefined)
    throw new Error('cannot read the prerequisites: README.md has no "Prerequisites:" paragraph');
  return paragraph;
}

/** Whether `text` names `tool` as a word (`lua5.1`, `containernetworking-plugins`). */
function namesTool(text: string, tool: string): boolean {
  const escaped = tool.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-]|\\.\\w)`).test(text);
}

/** Whether a bare `run(...)` in this source starts a process (not, say, `slots.run`). */
function runStartsProcesses(source: string): boolean {
  return (
    source.includes("'node:child_process'") ||
    /import \{[^}]*\brun\b[^}]*\} from '[^']*\/packaging\/tools\.js'|from '\.\/tools\.js'/.test(
      source,
    )
  );
}

/** Each program the test code starts by name, with the files that start it. */
async function findStartedPrograms(): Promise<Map<string, string[]>> {
  const dir = join(ROOT, 'test');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'));
  const started = new Map<string, string[]>();
  for (const file of files) {
    const source = await readFile(join(dir, file), 'utf8');
    for (const [, call, program] of source.matchAll(STARTS)) {
      if (call === 'run' && !runStartsProcesses(source)) continue;
      started.set(program!, [...(started.get(program!) ?? []), `test/${file}`]);
    }
  }
  return started;
}

test('every program the tests start by name is a README prerequisite', async (t) => {
  const prerequisites = await readPrerequisites();
  const started = await findStartedPrograms();
  // The scan must see what we know the suites start, or it proves nothing.
  for (const known of ['kubectl', 'openssl', 'make'])
    t.true(started.has(known), `the scan finds ${known}: ${[...started.keys()].join(', ')}`);
  const unnamed = [...started]
    .filter(([program]) => !(program in BASE_SYSTEM) && !namesTool(prerequisites, program))
    .map(([program, files]) => `${program} (${[...new Set(files)].join(', ')})`);
  t.deepEqual(
    unnamed,
    [],
    'name each in the README prerequisites, or build it from Go (BUILT_TOOLS, make test-tools)',
  );
});

test('every Debian package .ci/run installs is a README prerequisite', async (t) => {
  const prerequisites = await readPrerequisites();
  const script = await readFile(join(ROOT, '.ci/run'), 'utf8');
  const body = /\ninstall_debian\(\) \{\n([\s\S]*?)\n\}\n/.exec(script)?.[1] ?? '';
  const packages = [...body.matchAll(/"[^"\s:$]+:([a-z0-9.+-]+)"/g)].map((m) => m[1]!);
  t.true(packages.includes('openssl'), `install_debian lists its packages: ${packages.join(', ')}`);
  t.deepEqual(
    packages.filter((p) => !namesTool(prerequisites, p)),
    [],
    'a package only CI installs fails a plain clone: name it in the README prerequisites',
  );
});

for (const target of ['test-unit', 'test-e2e']) {
  test(`make ${target} builds every Go tool the tests run before they start`, async (t) => {
    // `make -n` prints the recipes of the target and its prerequisites without running them;
    // the variables of an enclosing make (`make test-unit` running this suite) are left out.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL'].includes(name),
      ),
    );
    const r = await run('make', ['-n', '--no-print-directory', target], { env });
    t.is(r.code, 0, r.stderr);
    const built = new Set(
      r.stdout
        .split('\n')
        .flatMap(
          (l) => /hack\/build-binaries\.sh((?: +[\w-]+)+)/.exec(l)?.[1]!.trim().split(/ +/) ?? [],
        ),
    );
    const wanted: readonly string[] =
      target === 'test-e2e' ? [...BUILT_TOOLS, ...E2E_TOOLS] : BUILT_TOOLS;
    t.deepEqual(
      wanted.filter((tool) => !built.has(tool)),
      [],
      `built by make ${target}: ${[...built].join(', ')}`,
    );
  });
}
