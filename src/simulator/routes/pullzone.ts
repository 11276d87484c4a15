/**
 * Pull zone lifecycle: list, get, add, update (`POST /pullzone/{id}`), delete.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { RouteDef, SimContext, SimRequest, SimResponse, JsonObject } from '../types.js';
import type { StoredPullZone } from '../state.js';
import {
  applySettings,
  createPullZone,
  pullZoneNameProblem,
  removePullZone,
  renderPullZone,
} from './pullzone-model.js';
import { validateSettings } from './pullzone-settings.js';
import { badRequest, isResponse, zoneOr404 } from './pullzone-common.js';
import { pageOf, pageQueryProblem } from './paging.js';

function wantsCertificates(req: SimRequest): boolean {
  return req.query.get('includeCertificate')?.toLowerCase() === 'true';
}

function matchesSearch(record: JsonObject, search: string | null): boolean {
  if (!search) return true;
  return String(record.Name).toLowerCase().includes(search.toLowerCase());
}

/**
 * The whole list as a plain array without `page` (or `page=0`), as the document says, unless a
 * `search` is given: live clients (the vendor's Terraform provider among them) read
 * `?search=NAME` as the paged form, first page (docs/simulator.md, "GET /pullzone answer form").
 */
function listPullZones(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 0, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const search = req.query.get('search');
  const zones = [...ctx.state.pullZones.values()];
  const found = search ? zones.filter((z) => matchesSearch(z.record, search)) : zones;
  const render = (z: StoredPullZone): JsonObject => renderPullZone(z, wantsCertificates(req));
  if (paging.page === 0 && !search) return { status: 200, body: found.map(render) };
  return { status: 200, body: pageOf(found, { ...paging, page: paging.page || 1 }, render) };
}

function getPullZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = zoneOr404(req, ctx);
  if (isResponse(zone)) return zone;
  return { status: 200, body: renderPullZone(zone, wantsCertificates(req)) };
}

function addPullZone(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = validateSettings(req.body, ['Name']);
  if (problem) return badRequest(problem);
  const body = req.body as JsonObject;
  const invalidName = pullZoneNameProblem(body.Name);
  if (invalidName) return invalidName;
  const name = body.Name as string;
  if (ctx.state.findPullZoneByName(name)) {
    return apiError(
      400,
      'pullzone.name_taken',
      'Name',
      `The pull zone name ${name} is already taken`,
    );
  }
  const zone = createPullZone(ctx.state, name, body);
  return { status: 201, body: renderPullZone(zone) };
}

function updatePullZone(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = validateSettings(req.body);
  if (problem) return badRequest(problem);
  const zone = zoneOr404(req, ctx);
  if (isResponse(zone)) return zone;
  applySettings(zone, req.body as JsonObject);
  ctx.state.touch();
  return { status: 200, body: renderPullZone(zone) };
}

function deletePullZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = zoneOr404(req, ctx);
  if (isResponse(zone)) return zone;
  // A shield zone belongs to its pull zone; it goes with it.
  removePullZone(ctx.state, Number(zone.record.Id));
  return emptyStatus(204);
}

/** Pull zone lifecycle routes. */
export const PULL_ZONE_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/pullzone', area: 'core', handler: listPullZones },
  { method: 'POST', template: '/pullzone', area: 'core', handler: addPullZone },
  { method: 'GET', template: '/pullzone/{id}', area: 'core', handler: getPullZone },
  { method: 'POST', template: '/pullzone/{id}', area: 'core', handler: updatePullZone },
  { method: 'DELETE', template: '/pullzone/{id}', area: 'core', handler: deletePullZone },
];
