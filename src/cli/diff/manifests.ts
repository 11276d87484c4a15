/**
 * Reads the manifests `cdnctl diff -f` compares: one file, or every .yaml/.yml/.json file of a
 * directory (not recursive, like `kubectl apply -f DIR`), parsed as YAML 1.1 the way kubectl
 * reads them; `kind: List` objects are unpacked.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UsageError } from '../usage-error.js';

/** One object found in the files. */
export interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  /** File it came from. */
  source: string;
}

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

function filesOf(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (!isDir) return [path];
  return readdirSync(path)
    .filter((f) => MANIFEST_FILE.test(f))
    .sort()
    .map((f) => join(path, f));
}

function objectsOf(value: unknown, source: string): Manifest[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const o = value as Record<string, unknown>;
  if (o.kind === 'List' && Array.isArray(o.items))
    return o.items.flatMap((i) => objectsOf(i, source));
  const meta = o.metadata as Manifest['metadata'] | undefined;
  if (typeof meta?.name !== 'string') {
    throw new UsageError(
      `cannot use ${source}: an object of kind ${String(o.kind)} has no metadata.name`,
    );
  }
  return [{ ...(o as Omit<Manifest, 'source'>), metadata: meta, source }];
}

function parseFile(file: string): Manifest[] {
  const text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  const out: Manifest[] = [];
  for (const doc of parseAllDocuments(text, { version: '1.1' })) {
    if (doc.errors.length > 0) {
      throw new UsageError(`cannot parse ${file}: ${doc.errors[0]?.message.split('\n')[0] ?? ''}`);
    }
    out.push(...objectsOf(doc.toJS(), file));
  }
  return out;
}

/** Every object in `path` (a file, a directory, or `-` for stdin). */
export function readManifests(path: string | undefined): Manifest[] {
  if (!path) throw new UsageError('diff needs -f FILE or -f DIR (the manifests to compare)');
  const files = path === '-' ? ['-'] : filesOf(path);
  return files.flatMap(parseFile);
}
