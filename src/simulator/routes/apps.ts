/**
 * Container applications (`/mc/apps`): list, get, create, replace (PUT), merge patch (PATCH),
 * delete, read one container template. Validation errors: 400 "Problem with validation
 * details" (ErrorDetails with `errors[]`). Not found: ErrorDetails on GET, ProblemDetails on
 * PUT/PATCH/DELETE, as the official document declares per operation.
 */
import { randomUUID } from 'node:crypto';
import {
  errorDetails,
  problem,
  validationProblem,
  emptyStatus,
  type FieldError,
} from '../errors.js';
import type { StoredApp } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { checkCreateBody, checkPatchBody } from './apps-schema.js';
import { buildDraft } from './apps-merge.js';
import { checkDraft, dropAppPullZones, materializeApp } from './apps-model.js';

type Mode = 'create' | 'replace' | 'patch';

function appNotFound(req: SimRequest, kind: 'details' | 'problem'): SimResponse {
  const detail = `Application ${req.params.appId ?? ''} was not found.`;
  return kind === 'details'
    ? errorDetails(404, 'Not Found', detail, req.path)
    : problem(404, 'Not Found', detail, req.path);
}

function save(
  req: SimRequest,
  ctx: SimContext,
  mode: Mode,
  existing: StoredApp | undefined,
): SimResponse {
  const schemaErrors = mode === 'patch' ? checkPatchBody(req.body) : checkCreateBody(req.body);
  if (schemaErrors.length > 0) return validationProblem(400, req.path, schemaErrors);
  const idErrors: FieldError[] = [];
  const draft = buildDraft(req.body as JsonObject, existing, mode, idErrors);
  const errors = [...idErrors, ...checkDraft(draft, ctx.state)];
  if (errors.length > 0)
    return validationProblem(400, req.path, errors, existing ? String(existing.app.id) : undefined);
  const appId = existing ? String(existing.app.id) : randomUUID();
  ctx.state.apps.set(appId, materializeApp(draft, appId, existing, ctx.state));
  ctx.state.touch();
  return { status: mode === 'create' ? 201 : 200, body: { id: appId } };
}

function createApp(req: SimRequest, ctx: SimContext): SimResponse {
  return save(req, ctx, 'create', undefined);
}

function updater(mode: Mode) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const existing = ctx.state.apps.get(req.params.appId ?? '');
    if (!existing) return appNotFound(req, 'problem');
    return save(req, ctx, mode, existing);
  };
}

/** The documented read model: volume templates carry no id (GET .../volumes lists them). */
function readModel(app: JsonObject): JsonObject {
  const copy = structuredClone(app);
  copy.volumes = ((copy.volumes as JsonObject[] | undefined) ?? []).map((v) => ({
    name: v.name,
    size: v.size,
  }));
  return copy;
}

function getApp(req: SimRequest, ctx: SimContext): SimResponse {
  const stored = ctx.state.apps.get(req.params.appId ?? '');
  if (!stored) return appNotFound(req, 'details');
  return { status: 200, body: readModel(stored.app) };
}

function countMounts(app: JsonObject, volume: string): number {
  const containers = (app.containerTemplates as JsonObject[] | undefined) ?? [];
  return containers.filter((c) =>
    ((c.volumeMounts as JsonObject[] | undefined) ?? []).some((m) => m.name === volume),
  ).length;
}

/** `GET /mc/apps/{appId}/volumes`: the volume templates with their ids (no instances simulated). */
function listVolumes(req: SimRequest, ctx: SimContext): SimResponse {
  const stored = ctx.state.apps.get(req.params.appId ?? '');
  if (!stored) return appNotFound(req, 'details');
  const volumes = (stored.app.volumes as JsonObject[] | undefined) ?? [];
  const items = volumes.map((v) => ({
    id: v.id,
    name: v.name,
    size: v.size,
    totalUsage: 0,
    totalInstancesCount: 0,
    attachedInstancesCount: 0,
    containersCount: countMounts(stored.app, String(v.name)),
    volumeInstances: [],
  }));
  const totalStorage = items.reduce((sum, v) => sum + Number(v.size), 0);
  return {
    status: 200,
    body: {
      items,
      meta: { totalItems: items.length },
      cursor: null,
      summary: { totalPods: 0, totalContainers: 0, totalStorage },
    },
  };
}

function deleteApp(req: SimRequest, ctx: SimContext): SimResponse {
  const stored = ctx.state.apps.get(req.params.appId ?? '');
  if (!stored) return appNotFound(req, 'problem');
  dropAppPullZones(ctx.state, stored);
  ctx.state.apps.delete(String(stored.app.id));
  ctx.state.collections.dropApp(String(stored.app.id));
  ctx.state.touch();
  return emptyStatus(200);
}

function getContainer(req: SimRequest, ctx: SimContext): SimResponse {
  const stored = ctx.state.apps.get(req.params.appId ?? '');
  const containers = (stored?.app.containerTemplates as JsonObject[] | undefined) ?? [];
  const container = containers.find((c) => c.id === req.params.containerId);
  if (!container) {
    return errorDetails(
      404,
      'Not Found',
      'Application or container template was not found.',
      req.path,
    );
  }
  return { status: 200, body: structuredClone(container) };
}

function decodeCursor(raw: string | null): number | undefined {
  if (raw === null || raw === '') return 0;
  const n = Number(Buffer.from(raw, 'base64url').toString('utf8'));
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function listItem(app: JsonObject): JsonObject {
  const item: JsonObject = { id: app.id, name: app.name, status: app.status };
  if (app.displayEndpoint !== undefined) item.displayEndpoint = app.displayEndpoint;
  return item;
}

function listApps(req: SimRequest, ctx: SimContext): SimResponse {
  const rawLimit = req.query.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    return validationProblem(400, req.path, [
      { field: 'limit', message: 'must be an integer between 1 and 1000' },
    ]);
  }
  const offset = decodeCursor(req.query.get('nextCursor'));
  if (offset === undefined) {
    return validationProblem(400, req.path, [
      { field: 'nextCursor', message: 'is not a cursor this service issued' },
    ]);
  }
  const apps = [...ctx.state.apps.values()].map((s) => s.app);
  const end = offset + limit;
  return {
    status: 200,
    body: {
      items: apps.slice(offset, end).map(listItem),
      meta: { totalItems: apps.length },
      cursor: end < apps.length ? Buffer.from(String(end)).toString('base64url') : null,
    },
  };
}

/** Container application routes. */
export const APP_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/mc/apps', area: 'mc', handler: listApps },
  { method: 'POST', template: '/mc/apps', area: 'mc', handler: createApp },
  { method: 'GET', template: '/mc/apps/{appId}', area: 'mc', handler: getApp },
  { method: 'PUT', template: '/mc/apps/{appId}', area: 'mc', handler: updater('replace') },
  { method: 'PATCH', template: '/mc/apps/{appId}', area: 'mc', handler: updater('patch') },
  { method: 'DELETE', template: '/mc/apps/{appId}', area: 'mc', handler: deleteApp },
  { method: 'GET', template: '/mc/apps/{appId}/volumes', area: 'mc', handler: listVolumes },
  {
    method: 'GET',
    template: '/mc/apps/{appId}/containers/{containerId}',
    area: 'mc',
    handler: getContainer,
  },
];
