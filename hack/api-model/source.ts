/**
 * Where the official OpenAPI documents are read from when the API model is generated or checked
 * for drift: `CDN_SIM_OPENAPI_DIR`, else `../shared/reference/openapi` beside the package root.
 * Only the generators and the drift test read them; the simulator, the CRD generator and the
 * tests read the committed model (src/simulator/generated/api-model/).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCUMENT_FILES } from '../../src/simulator/documents/load.js';
import type { Area } from '../../src/simulator/types.js';
import { toApiModel } from './strip.js';

type Json = Record<string, unknown>;

/** The package root (this file is hack/api-model/source.ts). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The directory holding the official documents (it may not exist: a plain clone has none). */
export function officialDocumentsDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.CDN_SIM_OPENAPI_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(PACKAGE_ROOT, '..', 'shared', 'reference', 'openapi');
}

/** Whether every official document is present in `dir`. */
export function hasOfficialDocuments(dir: string): boolean {
  return Object.values(DOCUMENT_FILES).every((file) => existsSync(path.join(dir, file)));
}

/** The model of each area, generated from the documents in `dir`. */
export function generateApiModels(dir: string): Record<Area, Json> {
  const out = {} as Record<Area, Json>;
  for (const [area, file] of Object.entries(DOCUMENT_FILES) as [Area, string][]) {
    const full = path.join(dir, file);
    let document: Json;
    try {
      document = JSON.parse(readFileSync(full, 'utf8')) as Json;
    } catch (err) {
      throw new Error(`cannot read the official documents: ${full}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    out[area] = toApiModel(document);
  }
  return out;
}
