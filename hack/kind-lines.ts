/**
 * Prints, per kind folder under src/controllers/, the files and lines written by hand (every
 * tracked .ts file: nothing in a kind folder is generated), and the places outside the folder
 * that name the kind (source, tests, docs, examples; generated CRDs and chart copies left out),
 * so a kind's cost is measured, not guessed (issue 43). `--base REV` adds the figures at REV
 * and the change. The last lines give the kit's size and what a new simple kind costs: the
 * test's Gadget (a real kind on the kit, test/unit/controllers/fixtures/gadget/).
 *
 * Usage: node --import tsx hack/kind-lines.ts [--base REV] [--outside]
 */
import { execFileSync } from 'node:child_process';

/** The folder of the test's Gadget: the measure of a new simple kind on the kit. */
const GADGET_FOLDER = 'test/unit/controllers/fixtures/gadget';

const SKIP_OUTSIDE = [
  /^crds\//,
  /^deploy\//,
  /^src\/cdn\/generated\//,
  /^src\/simulator\/generated\//,
];

function git(args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Tracked .ts files under `dir` at `rev` (the work tree when undefined). */
function filesOf(dir: string, rev?: string): string[] {
  const out = rev ? git(['ls-tree', '-r', '--name-only', rev, dir]) : git(['ls-files', dir]);
  return out.split('\n').filter((f) => f.endsWith('.ts'));
}

function linesOf(file: string, rev?: string): number {
  const text = rev ? git(['show', `${rev}:${file}`]) : git(['show', `:${file}`]);
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Kind folders: every folder of src/controllers but the shared ones. */
function kindFolders(rev?: string): string[] {
  const dirs = new Set(
    filesOf('src/controllers', rev)
      .map((f) => f.split('/')[2])
      .filter((d): d is string => d !== undefined && !d.endsWith('.ts')),
  );
  return [...dirs].filter((d) => !['shared', 'kit'].includes(d)).sort();
}

interface Figures {
  files: number;
  lines: number;
}

/** Files and lines of the .ts files under `dir` (undefined when there are none). */
function figuresAt(dir: string, rev?: string): Figures | undefined {
  const files = filesOf(dir, rev);
  if (files.length === 0) return undefined;
  return { files: files.length, lines: files.reduce((n, f) => n + linesOf(f, rev), 0) };
}

function figuresOf(kind: string, rev?: string): Figures | undefined {
  return figuresAt(`src/controllers/${kind}`, rev);
}

/** Files outside the kind's folder that name its kind (`StorageZone`) or folder. */
function outside(kind: string): string[] {
  const hits = git(['grep', '-l', '-i', '-e', kind, '--', '.']).split('\n').filter(Boolean);
  return hits.filter(
    (f) => !f.startsWith(`src/controllers/${kind}/`) && !SKIP_OUTSIDE.some((r) => r.test(f)),
  );
}

/** One row: the kind's figures, with those at `base` and the change, or the outside count. */
function rowOf(kind: string, base: string | undefined, places: readonly string[]): string {
  const now = figuresOf(kind) ?? { files: 0, lines: 0 };
  const row = `${kind.padEnd(20)} ${String(now.files).padStart(5)} ${String(now.lines).padStart(6)}`;
  if (!base) return `${row}  ${String(places.length).padStart(7)}`;
  const then = figuresOf(kind, base);
  const change = then ? `${Math.round(((now.lines - then.lines) / then.lines) * 100)}%` : 'new';
  return `${row}  | ${String(then?.files ?? 0).padStart(12)} ${String(then?.lines ?? 0).padStart(6)} | ${change}`;
}

function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--base');
  const base = at >= 0 ? args[at + 1] : undefined;
  const showOutside = args.includes('--outside');
  console.log(
    base
      ? `${'kind'.padEnd(20)} files  lines  | at ${base}: files  lines | change`
      : `${'kind'.padEnd(20)} files  lines  outside`,
  );
  for (const kind of kindFolders()) {
    const places = outside(kind);
    console.log(rowOf(kind, base, places));
    if (showOutside) for (const p of places) console.log(`    ${p}`);
  }
  const kit = figuresAt('src/controllers/kit') ?? { files: 0, lines: 0 };
  console.log(`kit: ${kit.files} files, ${kit.lines} lines (shared by every kind)`);
  const gadget = figuresAt(GADGET_FOLDER) ?? { files: 0, lines: 0 };
  console.log(
    `a new simple kind: ${gadget.files} files, ${gadget.lines} lines (the test's Gadget, ${GADGET_FOLDER}/)`,
  );
}

main();
