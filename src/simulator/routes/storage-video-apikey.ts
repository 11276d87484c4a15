/**
 * Storage zone name check and API key listing (the video library routes: video-libraries.ts).
 */
import { apiError } from '../errors.js';
import type { ApiKeyConfig } from '../auth.js';
import type { RouteDef, SimContext, SimRequest, SimResponse, JsonObject } from '../types.js';
import { checkModel } from './body.js';
import { badRequest } from './pullzone-common.js';
import { pageQueryProblem } from './paging.js';

function checkStorageZoneAvailability(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = checkModel(req.body, { Name: { type: 'string', required: true } });
  if (problem) return badRequest(problem);
  const wanted = String((req.body as JsonObject).Name).toLowerCase();
  const taken = [...ctx.state.storageZones.values()].some((z) => z.Name.toLowerCase() === wanted);
  return { status: 200, body: { Available: !taken } };
}

/** `GET /apikey` over the keys configured at start. */
export function createApiKeyRoute(keys: readonly ApiKeyConfig[]): RouteDef {
  const items = keys.map((k, i) => ({ Id: i + 1, Key: k.key, Roles: k.roles ?? [] }));
  const handler = (req: SimRequest): SimResponse => {
    const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
    if ('errorKey' in paging) return apiError(400, paging.errorKey, paging.field, paging.message);
    const start = (paging.page - 1) * paging.perPage;
    return {
      status: 200,
      body: {
        Items: items.slice(start, start + paging.perPage),
        CurrentPage: paging.page,
        TotalItems: items.length,
        HasMoreItems: start + paging.perPage < items.length,
      },
    };
  };
  return { method: 'GET', template: '/apikey', area: 'core', handler };
}

/** The storage zone name check (the video library routes: video-libraries.ts). */
export const STORAGE_VIDEO_ROUTES: RouteDef[] = [
  {
    method: 'POST',
    template: '/storagezone/checkavailability',
    area: 'core',
    handler: checkStorageZoneAvailability,
  },
];
