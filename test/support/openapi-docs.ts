/**
 * The API documents the tests check requests and responses against: the committed structural
 * model (src/simulator/generated/api-model/, generated from the official OpenAPI documents), or
 * the full official documents when `CDN_SIM_OPENAPI_DIR` names their directory, the same choice
 * cdn-sim makes (src/simulator/documents/load.ts). Nothing outside the repository is needed.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defaultDocumentsDir, loadDocuments } from '../../src/simulator/documents/load.js';

/** API area: core (api.bunny.net), Magic Containers (`/mc`), Shield (`/shield`). */
export type ApiArea = 'core' | 'mc' | 'shield';

/** Absolute path of the repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let documents: ReturnType<typeof loadDocuments> | undefined;

/** Parsed document of one area (loaded once; the model is frozen, callers must not mutate it). */
export function loadOpenApiDocument(area: ApiArea): Record<string, unknown> {
  documents ??= loadDocuments(defaultDocumentsDir());
  return documents[area];
}
