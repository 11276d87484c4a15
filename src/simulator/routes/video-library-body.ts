/**
 * Body checks of the video library routes against the core document's own models
 * (`VideoLibraryCreateModel`, `VideoLibraryUpdateModel`, the referrer models), read from the
 * committed API model. In strict mode the document gate has already refused a body the document
 * does not allow; this check gives the same answer without it (`--no-strict`), so a handler only
 * ever reads members of the right type. Then the rules the document states in prose only.
 */
import { apiError } from '../errors.js';
import { API_MODEL, type ApiDocuments } from '../documents/load.js';
import { fieldOf } from '../documents/gate.js';
import { DocumentSchemas } from '../documents/schemas.js';
import type { JsonObject, SimResponse } from '../types.js';
import { REPLICATION_REGIONS } from './storage-zones-model.js';

let schemas: DocumentSchemas | undefined;

/** The core document compiled once, on first use. */
function coreSchemas(): DocumentSchemas {
  schemas ??= new DocumentSchemas({ core: API_MODEL.core } as ApiDocuments, []);
  return schemas;
}

/** The 400 of the first problem of `body` against the core model `model`, or undefined. */
export function modelProblem(model: string, body: unknown): SimResponse | undefined {
  const problems = coreSchemas().validatePointer(
    `openapi-core.json#/components/schemas/${model}`,
    body,
  );
  const first = problems[0];
  if (!first) return undefined;
  const field = fieldOf(first.pointer);
  const key = first.keyword === 'required' ? 'validation.required' : 'validation.invalid_value';
  return apiError(400, key, field, `${field} ${first.message}`);
}

/** Resolutions the document lists for `EnabledResolutions`. */
export const RESOLUTIONS = ['240p', '360p', '480p', '720p', '1080p', '1440p', '2160p'] as const;

/** Codecs the document names for `OutputCodecs`; the free tier supports x264 only. */
export const CODECS = ['x264', 'vp9', 'hevc', 'av1'] as const;

function listProblem(
  field: string,
  raw: unknown,
  allowed: readonly string[],
): SimResponse | undefined {
  if (typeof raw !== 'string') return undefined;
  const values = raw.split(',').map((v) => v.trim());
  const bad = values.find((v) => !allowed.includes(v));
  if (bad === undefined && values.length > 0) return undefined;
  return apiError(
    400,
    'videolibrary.invalid_value',
    field,
    `${field} must be a comma-separated list of ${allowed.join(', ')} with at least one entry, got ${JSON.stringify(raw)}`,
  );
}

function tierProblem(body: JsonObject, live: JsonObject): SimResponse | undefined {
  const tier = (body.EncodingTier ?? live.EncodingTier ?? 0) as number;
  if (tier === 1) return undefined;
  const codecs = (body.OutputCodecs ?? live.OutputCodecs ?? 'x264') as string;
  if (codecs.split(',').some((c) => c.trim() !== 'x264'))
    return apiError(
      400,
      'videolibrary.premium_required',
      'OutputCodecs',
      `OutputCodecs ${codecs} needs EncodingTier Premium: the free tier encodes x264 only`,
    );
  if ((body.JitEncodingEnabled ?? live.JitEncodingEnabled) === true)
    return apiError(
      400,
      'videolibrary.premium_required',
      'JitEncodingEnabled',
      'JitEncodingEnabled needs EncodingTier Premium',
    );
  return undefined;
}

function regionProblem(body: JsonObject): SimResponse | undefined {
  const regions = (body.ReplicationRegions as string[] | null | undefined) ?? [];
  const bad = regions.find((r) => !(REPLICATION_REGIONS as readonly string[]).includes(r));
  return bad === undefined
    ? undefined
    : apiError(
        400,
        'videolibrary.invalid_region',
        'ReplicationRegions',
        `ReplicationRegions value ${bad} is not one of ${REPLICATION_REGIONS.join(', ')}`,
      );
}

function nameProblem(body: JsonObject): SimResponse | undefined {
  return typeof body.Name === 'string' && body.Name.trim() === ''
    ? apiError(400, 'validation.required', 'Name', 'Name must not be empty')
    : undefined;
}

/**
 * The rules of a create or update body (after the model check) that the document states in
 * prose: resolutions and codecs from its lists, codecs and JIT encoding beyond x264 only on the
 * premium tier (judged with the library's live values), replication regions of storage.
 */
export function settingsProblem(body: JsonObject, live: JsonObject = {}): SimResponse | undefined {
  return (
    nameProblem(body) ??
    listProblem('EnabledResolutions', body.EnabledResolutions, RESOLUTIONS) ??
    listProblem('OutputCodecs', body.OutputCodecs, CODECS) ??
    tierProblem(body, live) ??
    regionProblem(body)
  );
}
