/**
 * Releases of an edge script (compute document): publishing the current code as a new release,
 * publishing an earlier release again (a rollback, by its `Uuid`), the releases and the live
 * one. A new release is retried only after a 429 (a lost answer may have published it, and a
 * second publish makes a second release); publishing an earlier one sets the live release and
 * is retried like a read.
 */
import { CdnApiError } from './errors.js';
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { fetchPages } from './core-pages.js';
import { expectObject } from './response.js';
import type { EdgeScriptPublish, EdgeScriptRelease } from './edge-script-types.js';
import { checkId, checkNonEmpty } from './validate.js';

/** Publishes the current code as a new release, or the release `releaseUuid` names again. */
export async function publishEdgeScript(
  http: HttpTransport,
  id: number,
  publish: EdgeScriptPublish,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'publishEdgeScript';
  checkId(http, operation, 'id', id);
  const uuid = publish.releaseUuid;
  if (uuid !== undefined) checkNonEmpty(http, operation, 'releaseUuid', uuid);
  const path =
    uuid === undefined
      ? pathOf`/compute/script/${id}/publish`
      : pathOf`/compute/script/${id}/publish/${uuid}`;
  const body = publish.note === undefined ? {} : { Note: publish.note };
  await http.request(
    { operation, method: 'POST', path, body, idempotent: uuid !== undefined },
    opts,
  );
}

/** Every release of a script, newest first as the platform lists them; all pages followed. */
export async function listEdgeScriptReleases(
  http: HttpTransport,
  id: number,
  opts?: PagedCallOptions,
): Promise<EdgeScriptRelease[]> {
  const operation = 'listEdgeScriptReleases';
  checkId(http, operation, 'id', id);
  return fetchPages<EdgeScriptRelease>(
    http,
    { operation, path: pathOf`/compute/script/${id}/releases`, query: {} },
    { perPage: opts?.pageSize },
    opts,
  );
}

/**
 * The live release, or undefined on 404: the document answers 404 both while nothing was ever
 * published and for a script that does not exist (getEdgeScript tells them apart).
 */
export async function getActiveEdgeScriptRelease(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<EdgeScriptRelease | undefined> {
  const operation = 'getActiveEdgeScriptRelease';
  checkId(http, operation, 'id', id);
  try {
    const path = pathOf`/compute/script/${id}/releases/active`;
    const res = await http.request({ operation, method: 'GET', path }, opts);
    return expectObject<EdgeScriptRelease>(http, operation, res.body);
  } catch (err) {
    if (err instanceof CdnApiError && err.kind === 'notFound') return undefined;
    throw err;
  }
}
