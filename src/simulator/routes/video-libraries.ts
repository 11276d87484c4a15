/**
 * Video library routes (`/videolibrary...`, the core document's "Stream Video Library"): list,
 * add, get, update, delete, the allowed and blocked referrers, the watermark (and the live
 * thumbnail and watermark the document hides), the two API key resets, the languages and the
 * transcribing and DRM statistics. The record and the pull zone and storage zone that come with
 * a library: video-library-model.ts.
 *
 * Decisions where the official document is silent: adding a referrer the list has, or removing
 * one it lacks, changes nothing and answers 200; an image upload is the raw body, whatever its
 * Content-Type, kept with the state (bytes, size, digest, media type) and never answered back (the
 * document has no read of it); statistics are zero (cdn-sim plays no video).
 */
import { createHash } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import type { StoredVideoLibrary } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { badRequest, parseId } from './pullzone-common.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { modelProblem, settingsProblem } from './video-library-body.js';
import {
  createLibrary,
  deleteLibrary,
  renderLibrary,
  resetKey,
  updateLibrary,
} from './video-library-model.js';

type LibraryHandler = (
  req: SimRequest,
  ctx: SimContext,
  library: StoredVideoLibrary,
) => SimResponse;

/** A handler of `/videolibrary/{id}...`: 404 (with `body404` or none) for an unknown id. */
function withLibrary(handler: LibraryHandler, body404 = false): RouteDef['handler'] {
  return (req, ctx) => {
    const id = parseId(req.params.id);
    const library = id === undefined ? undefined : ctx.state.videoLibraries.get(id);
    if (library) return handler(req, ctx, library);
    return body404
      ? apiError(
          404,
          'videolibrary.not_found',
          'id',
          `Video library ${req.params.id} was not found`,
        )
      : emptyStatus(404);
  };
}

function listLibraries(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const search = req.query.get('search')?.toLowerCase();
  const all = [...ctx.state.videoLibraries.values()]
    .filter((l) => !search || l.Name.toLowerCase().includes(search))
    .sort((a, b) => a.Id - b.Id)
    .map((l) => renderLibrary(ctx.state, l));
  return { status: 200, body: pageOf(all, paging) };
}

function addLibrary(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = modelProblem('VideoLibraryCreateModel', req.body);
  if (problem) return problem;
  const body = req.body as JsonObject;
  const rejected = settingsProblem(body);
  if (rejected) return rejected;
  const library = createLibrary(ctx.state, body);
  return { status: 201, body: renderLibrary(ctx.state, library) };
}

const getLibrary: LibraryHandler = (_req, ctx, library) => ({
  status: 200,
  body: renderLibrary(ctx.state, library),
});

const postLibrary: LibraryHandler = (req, ctx, library) => {
  const problem = modelProblem('VideoLibraryUpdateModel', req.body);
  if (problem) return problem;
  const body = req.body as JsonObject;
  const rejected = settingsProblem(body, library);
  if (rejected) return rejected;
  updateLibrary(ctx.state, library, body);
  return { status: 200, body: renderLibrary(ctx.state, library) };
};

const removeLibrary: LibraryHandler = (_req, ctx, library) => {
  deleteLibrary(ctx.state, library);
  return emptyStatus(204);
};

/** Adds to or removes from one referrer list (`Hostname`; see the module comment). */
function referrerHandler(
  list: 'AllowedReferrers' | 'BlockedReferrers',
  action: 'add' | 'remove',
): LibraryHandler {
  const model = `${action === 'add' ? 'Add' : 'Remove'}${list === 'AllowedReferrers' ? 'Allowed' : 'Blocked'}ReferrerRequestModel`;
  return (req, ctx, library) => {
    const problem = modelProblem(model, req.body);
    if (problem) return problem;
    const value = (req.body as JsonObject).Hostname as string;
    const current = (library[list] as string[] | undefined) ?? [];
    const has = current.includes(value);
    if (action === 'add' && !has) library[list] = [...current, value];
    if (action === 'remove' && has) library[list] = current.filter((v) => v !== value);
    if (has !== (action === 'add')) ctx.state.touch();
    return emptyStatus(200);
  };
}

/**
 * The largest image upload taken (bytes): the document's 10 MB of the live watermark, the one
 * limit it states; a larger body is answered 413 before the handler runs (server.ts).
 */
export const MAX_IMAGE_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Uploads of an image: `member` keeps its bytes (base64, saved with the state), size, digest
 * and media type. Taken leniently like the platform: the raw body whatever its Content-Type;
 * only an empty body is refused.
 */
function uploadHandler(member: 'watermark' | 'liveThumbnail' | 'liveWatermark'): LibraryHandler {
  return (req, ctx, library) => {
    const bytes = req.rawBytes ?? Buffer.alloc(0);
    if (bytes.length === 0)
      return apiError(400, 'validation.required', 'body', 'the image is required (request body)');
    const contentType = req.headers['content-type'] ?? 'application/octet-stream';
    library.uploads = {
      ...(library.uploads as JsonObject),
      [member]: {
        bytes: bytes.length,
        digest: createHash('sha256').update(bytes).digest('hex'),
        contentType,
        data: bytes.toString('base64'),
      },
    };
    if (member === 'watermark') {
      library.HasWatermark = true;
      library.WatermarkVersion = Number(library.WatermarkVersion ?? 0) + 1;
    }
    ctx.state.touch();
    return emptyStatus(204);
  };
}

function removeUpload(member: 'watermark' | 'liveThumbnail' | 'liveWatermark'): LibraryHandler {
  return (_req, ctx, library) => {
    const uploads = { ...(library.uploads as JsonObject) };
    delete uploads[member];
    library.uploads = uploads;
    if (member === 'watermark') library.HasWatermark = false;
    ctx.state.touch();
    return emptyStatus(204);
  };
}

function keyReset(member: 'ApiKey' | 'ReadOnlyApiKey'): LibraryHandler {
  return (_req, ctx, library) => {
    resetKey(ctx.state, library, member);
    return emptyStatus(204);
  };
}

/** Languages of the player and the transcription (a subset of the platform's). */
const LANGUAGES: readonly [string, string][] = [
  ['en', 'English'],
  ['de', 'German'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['it', 'Italian'],
  ['nl', 'Dutch'],
  ['pl', 'Polish'],
  ['pt', 'Portuguese'],
  ['sl', 'Slovenian'],
  ['ja', 'Japanese'],
];

function listLanguages(): SimResponse {
  return {
    status: 200,
    body: LANGUAGES.map(([ShortCode, Name]) => ({
      ShortCode,
      Name,
      SupportPlayerTranslation: true,
      SupportTranscribing: true,
      TranscribingAccuracy: 90,
    })),
  };
}

const transcribingStatistics: LibraryHandler = () => ({
  status: 200,
  body: { TotalTranscriptionSeconds: 0, TranscriptionSecondsChart: {} },
});

const drmStatistics: LibraryHandler = () => ({
  status: 200,
  body: { TotalLicensesIssued: 0, LicensesIssuedChart: {} },
});

function route(
  method: string,
  template: string,
  handler: RouteDef['handler'],
  upload = false,
): RouteDef {
  return {
    method,
    template,
    area: 'core',
    handler,
    ...(upload ? { rawBody: 'binary' as const, maxBodyBytes: MAX_IMAGE_UPLOAD_BYTES } : {}),
  };
}

const ID = '/videolibrary/{id}';

/** Every "Stream Video Library" operation of the core document. */
export const VIDEO_LIBRARY_ROUTES: RouteDef[] = [
  route('GET', '/videolibrary', listLibraries),
  route('POST', '/videolibrary', addLibrary),
  route('GET', '/videolibrary/languages', listLanguages),
  route('GET', ID, withLibrary(getLibrary, true)),
  route('POST', ID, withLibrary(postLibrary)),
  route('DELETE', ID, withLibrary(removeLibrary)),
  route(
    'POST',
    `${ID}/addAllowedReferrer`,
    withLibrary(referrerHandler('AllowedReferrers', 'add')),
  ),
  route(
    'POST',
    `${ID}/removeAllowedReferrer`,
    withLibrary(referrerHandler('AllowedReferrers', 'remove')),
  ),
  route(
    'POST',
    `${ID}/addBlockedReferrer`,
    withLibrary(referrerHandler('BlockedReferrers', 'add')),
  ),
  route(
    'POST',
    `${ID}/removeBlockedReferrer`,
    withLibrary(referrerHandler('BlockedReferrers', 'remove')),
  ),
  route('PUT', `${ID}/watermark`, withLibrary(uploadHandler('watermark')), true),
  route('DELETE', `${ID}/watermark`, withLibrary(removeUpload('watermark'))),
  route('PUT', `${ID}/live/thumbnail`, withLibrary(uploadHandler('liveThumbnail')), true),
  route('DELETE', `${ID}/live/thumbnail`, withLibrary(removeUpload('liveThumbnail'))),
  route('PUT', `${ID}/live/watermark`, withLibrary(uploadHandler('liveWatermark')), true),
  route('DELETE', `${ID}/live/watermark`, withLibrary(removeUpload('liveWatermark'))),
  route('POST', `${ID}/resetApiKey`, withLibrary(keyReset('ApiKey'))),
  route('POST', `${ID}/resetReadOnlyApiKey`, withLibrary(keyReset('ReadOnlyApiKey'))),
  route('GET', `${ID}/transcribing/statistics`, withLibrary(transcribingStatistics)),
  route('GET', `${ID}/drm/statistics`, withLibrary(drmStatistics)),
];
