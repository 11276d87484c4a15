/**
 * The API documents cdn-sim checks requests against and projects responses onto (core, Magic
 * Containers, Shield, Compute). By default they are the committed structural model
 * (src/simulator/generated/api-model/, generated from the official OpenAPI documents by
 * `make generate`: the same OpenAPI 3 shape, no prose), so a plain clone and the published
 * package need nothing outside themselves. `--openapi-dir DIR` or `CDN_SIM_OPENAPI_DIR` loads
 * the full official documents from a directory instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Area } from '../types.js';
import { CORE_API_MODEL } from '../generated/api-model/core.js';
import { MC_API_MODEL } from '../generated/api-model/mc.js';
import { SHIELD_API_MODEL } from '../generated/api-model/shield.js';
import { COMPUTE_API_MODEL } from '../generated/api-model/compute.js';

/** One parsed document per area. */
export type ApiDocuments = Record<Area, Record<string, unknown>>;

/** File name of each area's official document (in `--openapi-dir`). */
export const DOCUMENT_FILES: Record<Area, string> = {
  core: 'core-api.json',
  mc: 'magic-containers-api.json',
  shield: 'shield-api.json',
  compute: 'compute-api.json',
};

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/**
 * The committed model of every area, frozen: it is shared by every simulator and test in the
 * process, so a caller that must change it (a contract exception) works on a clone.
 */
export const API_MODEL: Readonly<ApiDocuments> = deepFreeze({
  core: CORE_API_MODEL,
  mc: MC_API_MODEL,
  shield: SHIELD_API_MODEL,
  compute: COMPUTE_API_MODEL,
});

/**
 * The directory named by `CDN_SIM_OPENAPI_DIR`, or undefined: the committed model is the
 * default and needs no directory.
 */
export function defaultDocumentsDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.CDN_SIM_OPENAPI_DIR;
  return fromEnv ? path.resolve(fromEnv) : undefined;
}

/**
 * The full official documents read from `dir`, or the committed model when `dir` is
 * undefined. Throws `cannot read the official documents ...` when a file in `dir` is missing.
 */
export function loadDocuments(dir: string | undefined): ApiDocuments {
  if (dir === undefined) return API_MODEL;
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
