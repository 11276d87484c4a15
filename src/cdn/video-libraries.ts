/**
 * Video library endpoints (`/videolibrary...`): list, get, add, update, delete, the allowed and
 * blocked referrers (one hostname per call, the document's only way to change the lists), the
 * watermark and the API key resets. Every key an answer carries is registered with the
 * transport as a secret before the answer reaches the caller, so no error text can carry it.
 * Creates and key resets are retried only after a 429 (a lost answer may have done them);
 * updates and referrer calls set absolute values and are retried like reads.
 */
import { fetchPages, type Paging } from './core-pages.js';
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectArray, expectObject } from './response.js';
import type {
  VideoLibrary,
  VideoLibraryAddRequest,
  VideoLibraryKey,
  VideoLibraryLanguage,
  VideoLibraryReferrerList,
  VideoLibraryUpdate,
} from './video-library-types.js';
import { checkId, checkNonEmpty } from './validate.js';

/** A library as the caller gets it: its keys registered as secrets first. */
function readLibrary(http: HttpTransport, operation: string, body: unknown): VideoLibrary {
  const library = expectObject<VideoLibrary>(http, operation, body);
  for (const key of [library.ApiKey, library.ReadOnlyApiKey, library.ApiAccessKey])
    http.registerSecret(key);
  return library;
}

/** Libraries of the account (`search` filters by name); every page unless one is asked. */
export async function listVideoLibraries(
  http: HttpTransport,
  query: { search?: string } & Paging,
  opts?: CallOptions,
): Promise<VideoLibrary[]> {
  const operation = 'listVideoLibraries';
  const items = await fetchPages<unknown>(
    http,
    { operation, path: '/videolibrary', query: { search: query.search } },
    query,
    opts,
  );
  return items.map((item) => readLibrary(http, operation, item));
}

export async function getVideoLibrary(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<VideoLibrary> {
  const operation = 'getVideoLibrary';
  checkId(http, operation, 'id', id);
  const res = await http.request(
    { operation, method: 'GET', path: pathOf`/videolibrary/${id}` },
    opts,
  );
  return readLibrary(http, operation, res.body);
}

/** `POST /videolibrary`; retried only after a 429 (a lost answer may have created it). */
export async function addVideoLibrary(
  http: HttpTransport,
  body: VideoLibraryAddRequest,
  opts?: CallOptions,
): Promise<VideoLibrary> {
  const operation = 'addVideoLibrary';
  checkNonEmpty(http, operation, 'Name', body.Name);
  const res = await http.request(
    { operation, method: 'POST', path: '/videolibrary', body, idempotent: false },
    opts,
  );
  return readLibrary(http, operation, res.body);
}

/** `POST /videolibrary/{id}`: only the members present change. */
export async function updateVideoLibrary(
  http: HttpTransport,
  id: number,
  body: VideoLibraryUpdate,
  opts?: CallOptions,
): Promise<VideoLibrary> {
  const operation = 'updateVideoLibrary';
  checkId(http, operation, 'id', id);
  const res = await http.request(
    { operation, method: 'POST', path: pathOf`/videolibrary/${id}`, body, idempotent: true },
    opts,
  );
  return readLibrary(http, operation, res.body);
}

/** Deletes a library; the platform deletes its pull zone and storage zone with it. */
export async function deleteVideoLibrary(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteVideoLibrary';
  checkId(http, operation, 'id', id);
  await http.request({ operation, method: 'DELETE', path: pathOf`/videolibrary/${id}` }, opts);
}

const REFERRER_PATHS = {
  allowed: { add: 'addAllowedReferrer', remove: 'removeAllowedReferrer' },
  blocked: { add: 'addBlockedReferrer', remove: 'removeBlockedReferrer' },
} as const;

/** Adds a hostname to, or removes one from, a referrer list (a no-op when already so). */
export async function changeVideoLibraryReferrer(
  http: HttpTransport,
  id: number,
  change: { list: VideoLibraryReferrerList; action: 'add' | 'remove'; hostname: string },
  opts?: CallOptions,
): Promise<void> {
  const suffix = REFERRER_PATHS[change.list][change.action];
  const operation = `${change.action}VideoLibrary${change.list === 'allowed' ? 'Allowed' : 'Blocked'}Referrer`;
  checkId(http, operation, 'id', id);
  checkNonEmpty(http, operation, 'Hostname', change.hostname);
  await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/videolibrary/${id}/${suffix}`,
      body: { Hostname: change.hostname },
      idempotent: true,
    },
    opts,
  );
}

/** Replaces one of the library's keys (read the library for the new one). */
export async function resetVideoLibraryKey(
  http: HttpTransport,
  id: number,
  key: VideoLibraryKey,
  opts?: CallOptions,
): Promise<void> {
  const operation =
    key === 'apiKey' ? 'resetVideoLibraryApiKey' : 'resetVideoLibraryReadOnlyApiKey';
  checkId(http, operation, 'id', id);
  const suffix = key === 'apiKey' ? 'resetApiKey' : 'resetReadOnlyApiKey';
  await http.request(
    { operation, method: 'POST', path: pathOf`/videolibrary/${id}/${suffix}`, idempotent: false },
    opts,
  );
}

/**
 * The largest watermark image the client sends (bytes). The core document states no limit for
 * the library watermark, only a 413 "too large" answer (and 10 MB for the live watermark); a
 * ConfigMap or Secret holds at most 1 MiB, so the same 1 MiB bounds every source the operator
 * reads (docs/videolibrary.md, Watermark image).
 */
export const MAX_WATERMARK_BYTES = 1024 * 1024;

/** A watermark image to upload: its bytes and media type. */
export interface WatermarkImage {
  data: Uint8Array;
  contentType: string;
}

/**
 * Uploads the watermark image, or removes it (`image` null). The document declares no request
 * body; the image goes as the raw body (its bytes, untouched) with its media type, the way the
 * platform's other file uploads take a file. An image over {@link MAX_WATERMARK_BYTES} is refused
 * before anything is sent.
 */
export async function setVideoLibraryWatermark(
  http: HttpTransport,
  id: number,
  image: WatermarkImage | null,
  opts?: CallOptions,
): Promise<void> {
  const operation = image ? 'setVideoLibraryWatermark' : 'deleteVideoLibraryWatermark';
  checkId(http, operation, 'id', id);
  if (image && image.data.byteLength > MAX_WATERMARK_BYTES) {
    throw http.failure(
      operation,
      'invalid',
      `the image is ${image.data.byteLength} bytes, more than the limit of ${MAX_WATERMARK_BYTES} bytes`,
      { field: 'image' },
    );
  }
  const path = pathOf`/videolibrary/${id}/watermark`;
  await http.request(
    image
      ? {
          operation,
          method: 'PUT',
          path,
          rawBody: image.data,
          contentType: image.contentType,
          idempotent: true,
        }
      : { operation, method: 'DELETE', path },
    opts,
  );
}

/** The languages of the player and the transcription. */
export async function listVideoLibraryLanguages(
  http: HttpTransport,
  opts?: CallOptions,
): Promise<VideoLibraryLanguage[]> {
  const operation = 'listVideoLibraryLanguages';
  const res = await http.request(
    { operation, method: 'GET', path: '/videolibrary/languages' },
    opts,
  );
  return expectArray<VideoLibraryLanguage>(http, operation, res.body);
}
