/**
 * Cache purge: a whole pull zone (`POST /pullzone/{id}/purgeCache`, optionally one cache tag)
 * or one URL (`POST /purge?url=`, a trailing `*` purges a prefix). Purges are retried only
 * after a 429 (refused before any work): the caller decides whether a purge whose answer was
 * lost is sent again.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import type { PurgeUrlOptions } from './types.js';
import { checkId, checkNonEmpty } from './validate.js';

export async function purgePullZone(
  http: HttpTransport,
  id: number,
  cacheTag: string | undefined,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'purgePullZone';
  checkId(http, operation, 'id', id);
  if (cacheTag !== undefined) checkNonEmpty(http, operation, 'CacheTag', cacheTag);
  await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/pullzone/${id}/purgeCache`,
      body: cacheTag === undefined ? {} : { CacheTag: cacheTag },
      idempotent: false,
    },
    opts,
  );
}

function checkUrl(http: HttpTransport, url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw http.failure('purgeUrl', 'invalid', `url must be an absolute http(s) URL, got ${url}`, {
      field: 'url',
    });
  }
}

export async function purgeUrl(
  http: HttpTransport,
  url: string,
  options: PurgeUrlOptions,
  opts?: CallOptions,
): Promise<void> {
  checkUrl(http, url);
  await http.request(
    {
      operation: 'purgeUrl',
      method: 'POST',
      path: '/purge',
      query: { url, async: options.async, exactPath: options.exactPath },
      idempotent: false,
    },
    opts,
  );
}
