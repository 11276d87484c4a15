/**
 * Helpers shared by the shield rule, access list and zone configuration routes: the zone a
 * request names, the zone's plan, the `GenericRequestResponse` error member in its three
 * placements (`error`, `errorResponse`, or the whole body) and the `page`/`perPage` paging of
 * the shield lists.
 */
import type { JsonObject, SimContext, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';

/** Where an operation's answer carries its `GenericRequestResponse`. */
export type ErrorPlacement = 'error' | 'errorResponse' | 'body';

/** Plan names by `ShieldPlanType` value (0 Basic .. 3 Enterprise). */
export const PLAN_NAMES = ['Basic', 'Advanced', 'Business', 'Enterprise'] as const;

/** The errorKey of a refusal because the zone's plan does not include the feature or count. */
export const PLAN_REQUIRED = 'shield.plan_required';

/** True for a plain JSON object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `GenericRequestResponse` reporting a failure (or success) with its status. */
export function genericResult(
  status: number,
  errorKey: string | null,
  message: string | null,
): JsonObject {
  return { statusCode: status, success: status < 400, message, errorKey };
}

/** An error answer with the result in the operation's placement. */
export function shieldFailure(
  placement: ErrorPlacement,
  status: number,
  errorKey: string,
  message: string,
): SimResponse {
  const result = genericResult(status, errorKey, message);
  return { status, body: placement === 'body' ? result : { [placement]: result } };
}

/** The shield zone with id `raw` (a path segment or a body number), or undefined. */
export function findShieldZone(ctx: SimContext, raw: unknown): JsonObject | undefined {
  const id = typeof raw === 'number' ? raw : parseId(typeof raw === 'string' ? raw : undefined);
  return id === undefined ? undefined : ctx.state.shieldZones.get(id);
}

/** 404 for an unknown shield zone, in the operation's placement. */
export function zoneNotFound(placement: ErrorPlacement, raw: unknown): SimResponse {
  return shieldFailure(
    placement,
    404,
    'shield.zone_not_found',
    `shield zone ${String(raw)} does not exist`,
  );
}

/** The zone's plan type (0 Basic when unset). */
export function planOf(zone: JsonObject): number {
  return typeof zone.planType === 'number' ? zone.planType : 0;
}

/** Name of a plan value. */
export function planName(plan: number): string {
  return PLAN_NAMES[plan] ?? `plan ${plan}`;
}

/**
 * 403 for a feature the zone's plan does not include: the message names the feature, the
 * zone's plan and the lowest plan that has it.
 */
export function planRefusal(
  placement: ErrorPlacement,
  zone: JsonObject,
  what: string,
  needed: number,
  errorKey = PLAN_REQUIRED,
): SimResponse {
  const message = `${what} needs the ${planName(needed)} plan or higher; shield zone ${String(
    zone.shieldZoneId,
  )} is on the ${planName(planOf(zone))} plan`;
  return shieldFailure(placement, 403, errorKey, message);
}

/** 403 when a zone already has `limit` items of a kind its plan counts. */
export function limitRefusal(
  placement: ErrorPlacement,
  zone: JsonObject,
  what: string,
  limit: number,
): SimResponse {
  const message = `the ${planName(planOf(zone))} plan of shield zone ${String(
    zone.shieldZoneId,
  )} allows ${limit} ${what}; a higher plan raises the limit`;
  return shieldFailure(placement, 403, PLAN_REQUIRED, message);
}

function positiveInt(raw: string | null, fallback: number, max: number): number {
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/**
 * One page of `items` as the shield lists answer it (`data` plus a `page` block). Values out
 * of range fall back to the defaults (page 1, 10 per page); `perPage` is capped at 1000. Only
 * the page's items go through `form` (a copy by default), so a long list is not copied whole.
 */
export function shieldPage(
  query: URLSearchParams,
  items: readonly JsonObject[],
  form: (item: JsonObject) => JsonObject = (item) => structuredClone(item),
): JsonObject {
  const page = positiveInt(query.get('page'), 1, 2147483647);
  const pageSize = positiveInt(query.get('perPage'), 10, 1000);
  const totalPages = Math.ceil(items.length / pageSize);
  const start = (page - 1) * pageSize;
  return {
    data: items.slice(start, start + pageSize).map(form),
    page: {
      totalCount: items.length,
      totalPages,
      currentPage: page,
      nextPage: page < totalPages ? page + 1 : null,
      pageSize,
    },
  };
}
