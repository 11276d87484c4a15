/**
 * Loads the official OpenAPI documents from `../shared/reference/openapi/` (relative to the repo
 * root, resolved from this file's location). They are never copied into the repository.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** API area: core (api.bunny.net), Magic Containers (`/mc`), Shield (`/shield`). */
export type ApiArea = 'core' | 'mc' | 'shield';

const FILES: Record<ApiArea, string> = {
  core: 'core-api.json',
  mc: 'magic-containers-api.json',
  shield: 'shield-api.json',
};

/** Absolute path of the repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Directory holding the official documents. */
export const OPENAPI_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'reference', 'openapi');

const cache = new Map<ApiArea, Record<string, unknown>>();

/** Parsed official document of one area (cached; callers must not mutate it). */
export function loadOpenApiDocument(area: ApiArea): Record<string, unknown> {
  let doc = cache.get(area);
  if (!doc) {
    doc = JSON.parse(readFileSync(path.join(OPENAPI_DIR, FILES[area]), 'utf8')) as Record<
      string,
      unknown
    >;
    cache.set(area, doc);
  }
  return doc;
}
