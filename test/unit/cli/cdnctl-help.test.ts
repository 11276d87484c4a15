/**
 * cdnctl's help, version and unknown commands over the whole command table: `--help`/`-h`
 * (and `--version`) of a known command, group or no command exit 0 and describe what was
 * named; an unknown command or verb is a usage error (exit 2) whatever the flags and wherever
 * they stand. In-process: nothing here may reach an API (the environment has neither key nor URL).
 */
import test from 'ava';
import { COMMANDS, EXIT, run } from '../../../src/cli/run.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cdnctl(argv: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: {},
  });
  return { code, stdout, stderr };
}

const usageOf = (c: (typeof COMMANDS)[number]): string =>
  ['cdnctl', c.group, c.verb, ...c.args].filter((w) => w !== '').join(' ');

/** Flag sets that ask for information instead of an action, before or after the names. */
const INFO_FLAGS: Array<{ flags: string[]; prints: 'help' | 'version' }> = [
  { flags: ['--help'], prints: 'help' },
  { flags: ['-h'], prints: 'help' },
  { flags: ['--help', '-o', 'json'], prints: 'help' },
  { flags: ['--version'], prints: 'version' },
];
/** Every flag set an unknown command is tried with: none, information, ordinary options. */
const ANY_FLAGS: string[][] = [[], ...INFO_FLAGS.map((f) => f.flags), ['-o', 'yaml']];

const groups = [...new Set(COMMANDS.map((c) => c.group))];

test('every command: --help, -h and --version exit 0, before or after the names, without arguments', async (t) => {
  for (const c of COMMANDS) {
    const names = [c.group, c.verb].filter((w) => w !== '');
    for (const { flags, prints } of INFO_FLAGS) {
      for (const argv of [
        [...names, ...flags],
        [...flags, ...names],
      ]) {
        const r = await cdnctl(argv);
        const what = argv.join(' ');
        t.is(r.code, EXIT.ok, `${what}: ${r.stderr}`);
        t.is(r.stderr, '', what);
        if (prints === 'version') t.regex(r.stdout, /^cdnctl \S+\n$/, what);
        else t.true(r.stdout.includes(usageOf(c)), `${what} describes ${usageOf(c)}`);
      }
    }
  }
});

test('help of one command describes that command only (and the options)', async (t) => {
  for (const c of COMMANDS) {
    const names = [c.group, c.verb].filter((w) => w !== '');
    const r = await cdnctl([...names, '--help']);
    const others = COMMANDS.filter((o) => o !== c && !usageOf(c).startsWith(usageOf(o)));
    for (const o of others)
      t.false(r.stdout.includes(`${usageOf(o)} `), `${names.join(' ')} --help lists ${usageOf(o)}`);
    t.regex(r.stdout, /Options:/);
  }
});

test('a group with --help lists every command of the group and no other', async (t) => {
  for (const group of groups) {
    const r = await cdnctl([group, '--help']);
    t.is(r.code, EXIT.ok, `${group} --help: ${r.stderr}`);
    for (const c of COMMANDS)
      t.is(r.stdout.includes(usageOf(c)), c.group === group, `${group} --help: ${usageOf(c)}`);
  }
});

test('arguments after a command are not checked by --help (no ID needed, none too many)', async (t) => {
  for (const argv of [
    ['pullzone', 'get', '--help'],
    ['pullzone', 'get', 'not-a-number', '--help'],
    ['shield', 'waf-metrics', '1', '--help'],
    ['export', 'extra', '--help'],
  ]) {
    const r = await cdnctl(argv);
    t.is(r.code, EXIT.ok, `${argv.join(' ')}: ${r.stderr}`);
  }
});

test('an unknown command is a usage error (exit 2) whatever the flags and wherever they stand', async (t) => {
  const unknown: Array<{ names: string[]; message: RegExp }> = [
    { names: ['nonsense'], message: /unknown command "nonsense"/ },
    { names: ['nonsense', 'list'], message: /unknown command "nonsense"/ },
    ...groups
      .filter((g) => COMMANDS.some((c) => c.group === g && c.verb !== ''))
      .map((g) => ({ names: [g, 'frobnicate'], message: new RegExp(`unknown ${g} command`) })),
  ];
  for (const { names, message } of unknown) {
    for (const flags of ANY_FLAGS) {
      for (const argv of [
        [...names, ...flags],
        [...flags, ...names],
      ]) {
        const r = await cdnctl(argv);
        const what = argv.join(' ');
        t.is(r.code, EXIT.usage, what);
        t.regex(r.stderr, message, what);
        t.is(r.stdout, '', `${what} prints no help or version on stdout`);
      }
    }
  }
});

test('no command: --help and --version exit 0, nothing at all is a usage error', async (t) => {
  const help = await cdnctl(['--help']);
  t.is(help.code, EXIT.ok);
  for (const c of COMMANDS) t.true(help.stdout.includes(usageOf(c)), usageOf(c));
  t.is((await cdnctl(['-h'])).code, EXIT.ok);
  t.regex((await cdnctl(['--version'])).stdout, /^cdnctl /);
  t.is((await cdnctl([])).code, EXIT.usage);
  t.is((await cdnctl(['--help', '--bogus'])).code, EXIT.usage, 'an unknown option stays an error');
});
