/**
 * Finds and reads the official OpenAPI documents (core, Magic Containers, Shield). They are
 * never copied into the repository: cdn-sim reads them from a directory at start, by default
 * `../shared/reference/openapi` next to the package root, or `CDN_SIM_OPENAPI_DIR`, or the
 * `--openapi-dir` flag.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Area } from '../types.js';

/** One parsed document per area. */
export type ApiDocuments = Record<Area, Record<string, unknown>>;

/** File name of each area's document. */
export const DOCUMENT_FILES: Record<Area, string> = {
  core: 'core-api.json',
  mc: 'magic-containers-api.json',
  shield: 'shield-api.json',
};

function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

/** The directory cdn-sim reads the documents from when none is given. */
export function defaultDocumentsDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CDN_SIM_OPENAPI_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(packageRoot(), '..', 'shared', 'reference', 'openapi');
}

/** Reads the three documents; throws `cannot read the official documents ...` when one is missing. */
export function loadDocuments(dir: string): ApiDocuments {
  const out: Partial<ApiDocuments> = {};
  for (const [area, file] of Object.entries(DOCUMENT_FILES) as [Area, string][]) {
    const full = path.join(dir, file);
    try {
      out[area] = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new Error(
        `cannot read the official documents: ${full}: ${(err as Error).message} (pass --openapi-dir DIR or --no-strict)`,
        { cause: err },
      );
    }
  }
  return out as ApiDocuments;
}
