/**
 * Cache purge: `POST /pullzone/{id}/purgeCache` (whole zone, or one cache tag) and
 * `POST /purge?url=` (one URL, `*` suffix for a prefix). cdn-sim holds no cache, so a purge
 * changes no state; the call counters (`GET /_sim/calls`) are the record of what was purged.
 *
 * Decisions where the official document is silent: a missing or non-http(s) `url` and a
 * non-boolean `async`/`exactPath` are 400 ApiErrorData (model binding), like other core calls.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { checkCoreModel } from './core-schema.js';
import { badRequest, isResponse, zoneOr404 } from './pullzone-common.js';

function purgeZone(req: SimRequest, ctx: SimContext): SimResponse {
  // The body is optional and nullable: an empty request purges the whole zone.
  const absent = req.body === undefined || req.body === null;
  const problem = absent ? undefined : checkCoreModel('PullZonePurgeModel', req.body);
  if (problem) return badRequest(problem);
  const zone = zoneOr404(req, ctx);
  if (isResponse(zone)) return zone;
  return emptyStatus(204);
}

function booleanProblem(req: SimRequest, name: string): SimResponse | undefined {
  const raw = req.query.get(name);
  if (raw === null || /^(true|false)$/i.test(raw)) return undefined;
  return apiError(400, 'validation.invalid_value', name, `${name} must be true or false`);
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function purgeUrl(req: SimRequest): SimResponse {
  const url = req.query.get('url');
  if (url === null || url === '')
    return apiError(400, 'validation.required', 'url', 'url is required');
  if (!isHttpUrl(url)) {
    return apiError(400, 'validation.invalid_value', 'url', 'url must be an absolute http(s) URL');
  }
  return booleanProblem(req, 'async') ?? booleanProblem(req, 'exactPath') ?? emptyStatus(200);
}

/** Purge routes. */
export const PURGE_ROUTES: RouteDef[] = [
  { method: 'POST', template: '/pullzone/{id}/purgeCache', area: 'core', handler: purgeZone },
  { method: 'POST', template: '/purge', area: 'core', handler: purgeUrl },
];
