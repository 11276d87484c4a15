/**
 * Access lists of a shield zone (`/shield/shield-zone/{shieldZoneId}/access-lists...`).
 *
 * - Curated lists come from the simulator's catalogue (shield-access-list-model.ts); each
 *   zone has one configuration per curated list (`configurationId`, `isEnabled`, `action`),
 *   made the first time a route of the zone's access lists is called.
 * - Custom lists (`name`, `type`, newline-separated `content`) get their own configuration
 *   at create, disabled with action None until it is configured.
 * - Answers are `{data, error}` envelopes; the list of all lists is
 *   `AccessListsDetailsResponse`; deletes answer a bare `GenericRequestResponse`.
 * - Plan: enabling a curated list whose `requiredPlan` is above the zone's plan, or going
 *   beyond the plan's custom list or entry limit, is refused with 403 `shield.plan_required`.
 */
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';
import {
  ACCESS_LIST_ACTIONS,
  ACCESS_LIST_TYPES,
  CUSTOM_LIST_LIMITS,
  MANAGED_LISTS,
  accessListEnums,
  checksumOf,
  entriesOf,
  entryProblem,
  managedDetails,
} from './shield-access-list-model.js';
import {
  findShieldZone,
  genericResult,
  isObject,
  limitRefusal,
  planOf,
  planRefusal,
  shieldFailure,
  zoneNotFound,
} from './shield-common.js';

type ZoneHandler = (req: SimRequest, ctx: SimContext, zone: JsonObject) => SimResponse;

/** When the simulator's curated lists were last refreshed (fixed: they never change). */
const CATALOGUE_UPDATED = '2026-01-01T00:00:00Z';

function invalid(message: string): SimResponse {
  return shieldFailure('error', 400, 'validation.invalid_value', message);
}

function listNotFound(raw: string | undefined): SimResponse {
  return shieldFailure(
    'error',
    404,
    'shield.access_list_not_found',
    `access list ${raw ?? ''} does not exist`,
  );
}

function zoneIdOf(zone: JsonObject): number {
  return zone.shieldZoneId as number;
}

/** Creates the zone's curated list configurations that do not exist yet. */
function ensureManagedConfigs(ctx: SimContext, zone: JsonObject): void {
  const configs = ctx.state.collections.of('accessListConfigs');
  const have = new Set(
    ctx.state.collections
      .ofShieldZone('accessListConfigs', zoneIdOf(zone))
      .filter((c) => c.managed === true)
      .map((c) => c.listId),
  );
  let created = false;
  for (const list of MANAGED_LISTS) {
    if (have.has(list.listId)) continue;
    const configurationId = ctx.state.allocateId('accessList');
    configs.set(String(configurationId), {
      configurationId,
      shieldZoneId: zoneIdOf(zone),
      listId: list.listId,
      managed: true,
      isEnabled: false,
      action: 0,
    });
    created = true;
  }
  if (created) ctx.state.touch();
}

/** Wraps a handler: the zone must exist; its curated configurations are made first. */
function withZone(handler: ZoneHandler) {
  return (req: SimRequest, ctx: SimContext): SimResponse => {
    const zone = findShieldZone(ctx, req.params.shieldZoneId);
    if (!zone) return zoneNotFound('error', req.params.shieldZoneId);
    ensureManagedConfigs(ctx, zone);
    return handler(req, ctx, zone);
  };
}

function configOfList(ctx: SimContext, zone: JsonObject, listId: unknown): JsonObject | undefined {
  return ctx.state.collections
    .ofShieldZone('accessListConfigs', zoneIdOf(zone))
    .find((c) => c.listId === listId);
}

function customLists(ctx: SimContext, zone: JsonObject): JsonObject[] {
  return ctx.state.collections.ofShieldZone('accessLists', zoneIdOf(zone));
}

function customListOf(
  ctx: SimContext,
  zone: JsonObject,
  raw: string | undefined,
): JsonObject | undefined {
  const id = parseId(raw);
  const list =
    id === undefined ? undefined : ctx.state.collections.of('accessLists').get(String(id));
  return list && list.shieldZoneId === zoneIdOf(zone) ? list : undefined;
}

/** `CustomAccessList` read model of a stored list. */
function customForm(list: JsonObject): JsonObject {
  const { shieldZoneId: _zone, configurationId: _config, ...rest } = list;
  return structuredClone(rest);
}

function customDetails(ctx: SimContext, zone: JsonObject, list: JsonObject): JsonObject {
  const config = configOfList(ctx, zone, list.id) ?? {};
  return {
    listId: list.id,
    configurationId: list.configurationId,
    name: list.name,
    description: list.description ?? null,
    isEnabled: config.isEnabled ?? false,
    type: list.type,
    category: 0,
    action: config.action ?? 0,
    requiredPlan: 0,
    entryCount: list.entryCount,
    updateFrequency: null,
    lastUpdated: list.lastModified,
  };
}

const listAll: ZoneHandler = (_req, ctx, zone) => {
  const managedLists = MANAGED_LISTS.map((list) =>
    managedDetails(list, configOfList(ctx, zone, list.listId) ?? {}, CATALOGUE_UPDATED),
  );
  const custom = customLists(ctx, zone);
  const limits = CUSTOM_LIST_LIMITS[planOf(zone)] ?? CUSTOM_LIST_LIMITS[0]!;
  return {
    status: 200,
    body: {
      managedLists,
      customLists: custom.map((list) => customDetails(ctx, zone, list)),
      customEntryCount: custom.reduce((n, list) => n + (list.entryCount as number), 0),
      customEntryLimit: limits.entries,
      customListCount: custom.length,
      customListLimit: limits.lists,
    },
  };
};

/** A refusal when the zone's custom lists would exceed the plan's limits, else undefined. */
function limitProblem(
  ctx: SimContext,
  zone: JsonObject,
  addedLists: number,
  entriesAfter: (list: JsonObject) => number,
  newEntries: number,
): SimResponse | undefined {
  const limits = CUSTOM_LIST_LIMITS[planOf(zone)] ?? CUSTOM_LIST_LIMITS[0]!;
  const lists = customLists(ctx, zone);
  if (lists.length + addedLists > limits.lists)
    return limitRefusal('error', zone, 'custom access lists', limits.lists);
  const entries = lists.reduce((n, list) => n + entriesAfter(list), 0) + newEntries;
  if (entries > limits.entries)
    return limitRefusal('error', zone, 'custom access list entries', limits.entries);
  return undefined;
}

function contentProblem(type: number, body: JsonObject): string | undefined {
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string')
    return 'content must be a string of entries, one per line';
  const problem = entryProblem(type, body.content);
  if (problem) return problem;
  if (typeof body.checksum === 'string' && body.checksum !== checksumOf(body.content))
    return 'checksum does not match the content';
  return undefined;
}

function createProblem(body: JsonObject): string | undefined {
  if (typeof body.name !== 'string' || body.name.trim() === '') return 'name is required';
  if (!ACCESS_LIST_TYPES.includes(body.type as number))
    return `type must be one of ${ACCESS_LIST_TYPES.join(', ')}`;
  if (
    body.description !== undefined &&
    body.description !== null &&
    typeof body.description !== 'string'
  )
    return 'description must be a string';
  return contentProblem(body.type as number, body);
}

function withContent(list: JsonObject, content: string | null): void {
  list.content = content ?? '';
  list.checksum = checksumOf(list.content as string);
  list.entryCount = entriesOf(content).length;
  list.lastModified = new Date().toISOString();
}

const createList: ZoneHandler = (req, ctx, zone) => {
  const body = req.body;
  if (!isObject(body)) return invalid('body must be a JSON object');
  const problem = createProblem(body);
  if (problem) return invalid(problem);
  const entries = entriesOf(body.content as string | null).length;
  const refusal = limitProblem(ctx, zone, 1, (l) => l.entryCount as number, entries);
  if (refusal) return refusal;
  const id = ctx.state.allocateId('accessList');
  const configurationId = ctx.state.allocateId('accessList');
  const list: JsonObject = {
    id,
    shieldZoneId: zoneIdOf(zone),
    configurationId,
    name: body.name,
    description: body.description ?? null,
    type: body.type,
  };
  withContent(list, (body.content as string | null | undefined) ?? null);
  ctx.state.collections.of('accessLists').set(String(id), list);
  ctx.state.collections.of('accessListConfigs').set(String(configurationId), {
    configurationId,
    shieldZoneId: zoneIdOf(zone),
    listId: id,
    managed: false,
    isEnabled: false,
    action: 0,
  });
  ctx.state.touch();
  return { status: 200, body: { data: customForm(list) } };
};

const getList: ZoneHandler = (req, ctx, zone) => {
  const list = customListOf(ctx, zone, req.params.id);
  return list ? { status: 200, body: { data: customForm(list) } } : listNotFound(req.params.id);
};

function nameProblem(name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  return typeof name !== 'string' || name.trim() === '' ? 'name must not be blank' : undefined;
}

/** Replaces a list's entries when the plan's entry limit allows; a refusal otherwise. */
function replaceEntries(
  ctx: SimContext,
  zone: JsonObject,
  list: JsonObject,
  content: string,
): SimResponse | undefined {
  const others = (l: JsonObject): number => (l.id === list.id ? 0 : (l.entryCount as number));
  const refusal = limitProblem(ctx, zone, 0, others, entriesOf(content).length);
  if (!refusal) withContent(list, content);
  return refusal;
}

const updateList: ZoneHandler = (req, ctx, zone) => {
  const list = customListOf(ctx, zone, req.params.id);
  if (!list) return listNotFound(req.params.id);
  const body = req.body;
  if (!isObject(body)) return invalid('body must be a JSON object');
  const content = typeof body.content === 'string' ? body.content : undefined;
  const problem =
    nameProblem(body.name) ??
    contentProblem(list.type as number, { ...body, content: content ?? list.content });
  if (problem) return invalid(problem);
  const refusal = content === undefined ? undefined : replaceEntries(ctx, zone, list, content);
  if (refusal) return refusal;
  if (typeof body.name === 'string') list.name = body.name;
  ctx.state.touch();
  return { status: 200, body: { data: customForm(list) } };
};

const deleteList: ZoneHandler = (req, ctx, zone) => {
  const list = customListOf(ctx, zone, req.params.id);
  if (!list) {
    return {
      status: 404,
      body: genericResult(
        404,
        'shield.access_list_not_found',
        `access list ${req.params.id ?? ''} does not exist`,
      ),
    };
  }
  ctx.state.collections.of('accessLists').delete(String(list.id));
  ctx.state.collections.of('accessListConfigs').delete(String(list.configurationId));
  ctx.state.touch();
  return { status: 200, body: genericResult(200, null, null) };
};

function configurationProblem(body: JsonObject): string | undefined {
  if (
    body.isEnabled !== undefined &&
    body.isEnabled !== null &&
    typeof body.isEnabled !== 'boolean'
  )
    return 'isEnabled must be a boolean';
  if (
    body.action !== undefined &&
    body.action !== null &&
    !ACCESS_LIST_ACTIONS.includes(body.action as number)
  )
    return `action must be one of ${ACCESS_LIST_ACTIONS.join(', ')}`;
  return undefined;
}

function zoneConfiguration(
  req: SimRequest,
  ctx: SimContext,
  zone: JsonObject,
): JsonObject | undefined {
  const id = parseId(req.params.id);
  const config =
    id === undefined ? undefined : ctx.state.collections.of('accessListConfigs').get(String(id));
  return config && config.shieldZoneId === zoneIdOf(zone) ? config : undefined;
}

/** A refusal when `body` enables a curated list the zone's plan does not include. */
function curatedPlanRefusal(
  config: JsonObject,
  zone: JsonObject,
  body: JsonObject,
): SimResponse | undefined {
  if (config.managed !== true || body.isEnabled !== true) return undefined;
  const list = MANAGED_LISTS.find((l) => l.listId === config.listId);
  if (!list || list.requiredPlan <= planOf(zone)) return undefined;
  return planRefusal('error', zone, `the curated access list ${list.name}`, list.requiredPlan);
}

const updateConfiguration: ZoneHandler = (req, ctx, zone) => {
  const config = zoneConfiguration(req, ctx, zone);
  if (!config) {
    const message = `access list configuration ${req.params.id ?? ''} does not exist`;
    return shieldFailure('error', 404, 'shield.access_list_not_found', message);
  }
  const body = req.body;
  if (!isObject(body)) return invalid('body must be a JSON object');
  const problem = configurationProblem(body);
  if (problem) return invalid(problem);
  const refusal = curatedPlanRefusal(config, zone, body);
  if (refusal) return refusal;
  if (typeof body.isEnabled === 'boolean') config.isEnabled = body.isEnabled;
  if (typeof body.action === 'number') config.action = body.action;
  ctx.state.touch();
  return { status: 200, body: { data: { isEnabled: config.isEnabled, action: config.action } } };
};

const getEnums = (): SimResponse => ({ status: 200, body: accessListEnums() });

function route(method: string, template: string, handler: RouteDef['handler']): RouteDef {
  return { method, template, area: 'shield', handler };
}

const BASE = '/shield/shield-zone/{shieldZoneId}/access-lists';

/** Access list routes. */
export const ACCESS_LIST_ROUTES: RouteDef[] = [
  route('GET', BASE, withZone(listAll)),
  route('POST', BASE, withZone(createList)),
  route('GET', `${BASE}/enums`, getEnums),
  route('PATCH', `${BASE}/configurations/{id}`, withZone(updateConfiguration)),
  route('GET', `${BASE}/{id}`, withZone(getList)),
  route('PATCH', `${BASE}/{id}`, withZone(updateList)),
  route('DELETE', `${BASE}/{id}`, withZone(deleteList)),
];
