/**
 * Storage zone lifecycle (`/storagezone...`): list, add, get, update, delete and the two
 * password resets. The name check (`/storagezone/checkavailability`) lives in
 * storage-video-apikey.ts.
 *
 * Decisions where the official document is silent:
 * - names are unique account-wide, case-insensitive (400 `storagezone.name_taken`);
 * - Region and replication regions must be the codes the document lists (400
 *   `storagezone.invalid_region`);
 * - a replication region cannot be removed once added (400 `storagezone.replication_remove`),
 *   which is how the platform behaves: replicas are only ever added;
 * - a deleted zone is gone with its files (`includeDeleted` is accepted, nothing deleted is
 *   kept); unless `deleteLinkedPullZones=false` (the document's default is true), the pull
 *   zones using it as origin go with it.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { StoredStorageZone } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { checkCoreModel } from './core-schema.js';
import { dropZoneFiles } from '../storage/storage-files.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { badRequest, parseId } from './pullzone-common.js';
import {
  MAIN_REGIONS,
  REPLICATION_REGIONS,
  createStorageZone,
  nameProblem,
  renderStorageZone,
  resetPassword,
} from './storage-zones-model.js';

function zoneOr404(
  raw: string | null | undefined,
  ctx: SimContext,
): StoredStorageZone | SimResponse {
  const id = parseId(raw ?? undefined);
  return (id === undefined ? undefined : ctx.state.storageZones.get(id)) ?? emptyStatus(404);
}

function isResponse(value: StoredStorageZone | SimResponse): value is SimResponse {
  return 'status' in value;
}

function listStorageZones(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 0, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const search = req.query.get('search')?.toLowerCase();
  const zones = [...ctx.state.storageZones.values()];
  const found = search ? zones.filter((z) => z.Name.toLowerCase().includes(search)) : zones;
  const render = (z: StoredStorageZone): JsonObject => renderStorageZone(ctx.state, z);
  if (paging.page === 0) return { status: 200, body: found.map(render) };
  return { status: 200, body: pageOf(found, paging, render) };
}

function regionProblem(
  field: string,
  values: readonly string[],
  allowed: readonly string[],
): SimResponse | undefined {
  const bad = values.find((v) => !allowed.includes(v));
  return bad === undefined
    ? undefined
    : apiError(
        400,
        'storagezone.invalid_region',
        field,
        `${field} value ${bad} is not one of ${allowed.join(', ')}`,
      );
}

function addProblem(body: JsonObject, ctx: SimContext): SimResponse | undefined {
  const name = body.Name as string;
  const invalid = nameProblem(name);
  if (invalid) return apiError(400, 'storagezone.invalid_name', 'Name', invalid);
  const wanted = name.toLowerCase();
  if ([...ctx.state.storageZones.values()].some((z) => z.Name.toLowerCase() === wanted)) {
    return apiError(
      400,
      'storagezone.name_taken',
      'Name',
      `The storage zone name ${name} is already taken`,
    );
  }
  return (
    regionProblem('Region', [body.Region as string], MAIN_REGIONS) ??
    regionProblem(
      'ReplicationRegions',
      (body.ReplicationRegions as string[] | null) ?? [],
      REPLICATION_REGIONS,
    )
  );
}

function addStorageZone(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = checkCoreModel('StorageZoneModelAdd', req.body);
  if (problem) return badRequest(problem);
  const body = req.body as JsonObject;
  const rejected = addProblem(body, ctx);
  if (rejected) return rejected;
  const zone = createStorageZone(ctx.state, body);
  return { status: 201, body: renderStorageZone(ctx.state, zone) };
}

function getStorageZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = zoneOr404(req.params.id, ctx);
  if (isResponse(zone)) return zone;
  return { status: 200, body: renderStorageZone(ctx.state, zone) };
}

function replicationProblem(zone: StoredStorageZone, wanted: string[]): SimResponse | undefined {
  const invalid = regionProblem('ReplicationZones', wanted, REPLICATION_REGIONS);
  if (invalid) return invalid;
  const current = (zone.ReplicationRegions as string[] | undefined) ?? [];
  const removed = current.find((r) => !wanted.includes(r));
  return removed === undefined
    ? undefined
    : apiError(
        400,
        'storagezone.replication_remove',
        'ReplicationZones',
        `Replication region ${removed} cannot be removed from a storage zone`,
      );
}

function updateStorageZone(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = checkCoreModel('StorageZoneSettingsModel', req.body);
  if (problem) return badRequest(problem);
  const zone = zoneOr404(req.params.id, ctx);
  if (isResponse(zone)) return zone;
  const body = req.body as JsonObject;
  const replicas = body.ReplicationZones as string[] | null | undefined;
  if (replicas) {
    const rejected = replicationProblem(zone, replicas);
    if (rejected) return rejected;
    zone.ReplicationRegions = [...new Set(replicas)];
  }
  for (const field of ['OriginUrl', 'Custom404FilePath', 'Rewrite404To200']) {
    if (body[field] !== undefined && body[field] !== null) zone[field] = body[field];
  }
  zone.DateModified = new Date().toISOString();
  ctx.state.touch();
  return emptyStatus(204);
}

function deleteStorageZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = zoneOr404(req.params.id, ctx);
  if (isResponse(zone)) return zone;
  ctx.state.storageZones.delete(zone.Id);
  dropZoneFiles(ctx.state, zone.Id);
  // The document's default is true: only an explicit false keeps the linked pull zones.
  if (req.query.get('deleteLinkedPullZones')?.toLowerCase() !== 'false') {
    for (const [id, pullZone] of ctx.state.pullZones) {
      if (pullZone.record.StorageZoneId === zone.Id) ctx.state.pullZones.delete(id);
    }
  }
  ctx.state.touch();
  return emptyStatus(204);
}

function resetHandler(field: 'Password' | 'ReadOnlyPassword', from: 'path' | 'query') {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = zoneOr404(from === 'path' ? req.params.id : req.query.get('id'), ctx);
    if (isResponse(zone)) return zone;
    resetPassword(zone, field);
    ctx.state.touch();
    return emptyStatus(204);
  };
}

/** Storage zone lifecycle routes. */
export const STORAGE_ZONE_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/storagezone', area: 'core', handler: listStorageZones },
  { method: 'POST', template: '/storagezone', area: 'core', handler: addStorageZone },
  { method: 'GET', template: '/storagezone/{id}', area: 'core', handler: getStorageZone },
  { method: 'POST', template: '/storagezone/{id}', area: 'core', handler: updateStorageZone },
  { method: 'DELETE', template: '/storagezone/{id}', area: 'core', handler: deleteStorageZone },
  {
    method: 'POST',
    template: '/storagezone/{id}/resetPassword',
    area: 'core',
    handler: resetHandler('Password', 'path'),
  },
  {
    method: 'POST',
    template: '/storagezone/resetReadOnlyPassword',
    area: 'core',
    handler: resetHandler('ReadOnlyPassword', 'query'),
  },
];
