/**
 * `cdnctl migrate PATH...`: the manifest files under each path (a file, or a folder searched
 * recursively for *.yaml and *.yml, skipping dot folders and node_modules) migrated in place
 * (rewrite-manifest.ts), the way a GitOps user reviews it: `git diff`, then commit. All or
 * nothing: every file is migrated in memory first, and when one cannot be (not YAML, a field
 * that cannot move) nothing is written. Each file is written whole through a temporary file and
 * a rename, so no reader ever sees half a file. `dryRun` writes nothing and reports the same.
 */
import { readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateManifestText, SkippedTemplate } from './rewrite-manifest.js';

/** What happened to one file. */
export interface FileOutcome {
  file: string;
  changes: string[];
  /** Why the file was left alone on purpose (a Helm template). */
  skipped?: string;
  /** Why the file cannot be migrated (`cannot migrate FILE: why`). */
  error?: string;
  /** The migrated text (when there are changes). */
  text?: string;
}

/** Every outcome and the exit code: 0, or 1 when a file cannot be migrated. */
export interface FilesReport {
  outcomes: FileOutcome[];
  written: boolean;
  exitCode: 0 | 1;
}

const MANIFEST = /\.ya?ml$/i;

/** The manifest files under `path` (itself when a file), sorted. */
export function listManifestFiles(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new Error(
      `cannot migrate ${path}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      { cause: e },
    );
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const child = join(path, e.name);
      if (e.isDirectory()) return listManifestFiles(child);
      return e.isFile() && MANIFEST.test(e.name) ? [child] : [];
    });
}

/** Migrates one file in memory. */
export function migrateFile(file: string): FileOutcome {
  try {
    const { text, changes } = migrateManifestText(readFileSync(file, 'utf8'));
    return changes.length > 0 ? { file, changes, text } : { file, changes };
  } catch (e) {
    const why = (e as Error).message;
    if (e instanceof SkippedTemplate) return { file, changes: [], skipped: why };
    return { file, changes: [], error: `cannot migrate ${file}: ${why}` };
  }
}

function writeWhole(file: string, text: string): void {
  const tmp = `${file}.cdnctl-migrate.tmp`;
  writeFileSync(tmp, text, { mode: statSync(file).mode });
  renameSync(tmp, file);
}

/** See the module comment. */
export function migrateFiles(paths: readonly string[], dryRun: boolean): FilesReport {
  if (paths.length === 0) throw new Error('cannot migrate: name at least one file or folder');
  const files = [...new Set(paths.flatMap(listManifestFiles))];
  const outcomes = files.map(migrateFile);
  const failed = outcomes.some((o) => o.error !== undefined);
  const written = !dryRun && !failed;
  if (written) for (const o of outcomes) if (o.text !== undefined) writeWhole(o.file, o.text);
  return { outcomes, written, exitCode: failed ? 1 : 0 };
}

/** The report printed: a line per changed, skipped or failed file, then a summary. */
export function renderFilesReport(
  report: FilesReport,
  dryRun: boolean,
): { text: string; notes: string } {
  const lines: string[] = [];
  const notes: string[] = [];
  for (const o of report.outcomes) {
    if (o.error) notes.push(`error: ${o.error}`);
    else if (o.skipped) notes.push(`warning: skipped ${o.file}: ${o.skipped}`);
    else if (o.changes.length > 0) {
      lines.push(`${o.file}: ${o.changes.length} change(s)`, ...o.changes.map((c) => `  ${c}`));
    }
  }
  const changed = report.outcomes.filter((o) => o.changes.length > 0).length;
  const verb = report.written ? 'migrated' : dryRun ? 'would migrate' : 'not written (errors)';
  lines.push(`${changed} of ${report.outcomes.length} file(s) ${verb}`);
  return { text: `${lines.join('\n')}\n`, notes: notes.length > 0 ? `${notes.join('\n')}\n` : '' };
}
