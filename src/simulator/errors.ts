/**
 * Error bodies, exactly the shapes of the contract's Errors table, one builder per shape.
 */
import type { Area, SimResponse } from './types.js';

/**
 * Whether the area answers errors as the core area does: `ApiErrorData` for a 400, no body for
 * 401, 404 and 5xx. The compute document (edge scripts) declares the same shapes.
 */
export function usesApiErrorData(area: Area): boolean {
  return area === 'core' || area === 'compute';
}

/** Core area (pull zone, video library, storage zone) and compute: `ApiErrorData`. */
export function apiError(
  status: number,
  errorKey: string,
  field: string,
  message: string,
): SimResponse {
  return { status, body: { ErrorKey: errorKey, Field: field, Message: message } };
}

/** Status with no body (core 401/404, shield 500). */
export function emptyStatus(status: number): SimResponse {
  return { status };
}

/** One field problem of an application write. */
export interface FieldError {
  field: string;
  message: string;
}

/** Application operations: "Problem with validation details" (ErrorDetails). */
export function validationProblem(
  status: number,
  instance: string,
  errors: FieldError[],
  id?: string,
): SimResponse {
  const body: Record<string, unknown> = {
    title: 'One or more validation errors occurred.',
    status,
    detail: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    instance,
    errors,
  };
  if (id !== undefined) body.id = id;
  return { status, body };
}

/** ErrorDetails without field errors (e.g. application not found on GET). */
export function errorDetails(
  status: number,
  title: string,
  detail: string,
  instance: string,
): SimResponse {
  return { status, body: { title, status, detail, instance } };
}

/** "Problem basic" (ProblemDetails): application operations, container read, shield single zone. */
export function problem(
  status: number,
  title: string,
  detail: string,
  instance: string,
): SimResponse {
  return {
    status,
    body: { type: `https://httpstatuses.io/${status}`, title, status, detail, instance },
  };
}

/** Shield list and metrics: status only. */
export function statusOnly(status: number): SimResponse {
  return { status, body: { statusCode: status } };
}

/** Shield single-zone error shape. */
export function shieldZoneError(status: number, location: string): SimResponse {
  return {
    status,
    body: {
      location,
      value: null,
      formatters: [],
      contentTypes: [],
      declaredType: 'ShieldZoneResponse',
      statusCode: status,
    },
  };
}

/** Shield `error` member (metrics and zone writes). */
export function shieldError(status: number, errorKey: string, message: string): SimResponse {
  return { status, body: { error: { statusCode: status, success: false, message, errorKey } } };
}

const SHIELD_PROBLEM_ROUTES = new Set([
  'GET /shield/shield-zone/get-by-pullzone/{pullZoneId}',
  'GET /shield/shield-zone/{shieldZoneId}',
]);

/** Shield routes under one zone (access lists, bot detection, ...) answer 401 as a problem too. */
const SHIELD_ZONE_SUBROUTE = ' /shield/shield-zone/{shieldZoneId}/';

/** 401 body per area and route, as the documents declare it. */
export function unauthorized(area: Area, routeKey: string, path: string): SimResponse {
  if (usesApiErrorData(area)) return emptyStatus(401);
  if (
    area === 'mc' ||
    SHIELD_PROBLEM_ROUTES.has(routeKey) ||
    routeKey.includes(SHIELD_ZONE_SUBROUTE)
  ) {
    return problem(401, 'Unauthorized', 'A valid AccessKey header is required.', path);
  }
  return statusOnly(401);
}

/** Injected or unexpected 5xx body per area. */
export function serverError(area: Area, status: number, path: string): SimResponse {
  if (area === 'mc')
    return errorDetails(status, 'Unexpected server error.', 'Simulated failure.', path);
  return emptyStatus(status);
}

/** Body that is not JSON, per area. */
export function malformedBody(area: Area, path: string, reason: string): SimResponse {
  if (usesApiErrorData(area)) return apiError(400, 'validation.invalid_json', 'body', reason);
  if (area === 'mc') return validationProblem(400, path, [{ field: 'body', message: reason }]);
  return shieldError(400, 'validation.invalid_json', reason);
}

/** A 400 that repeats the request (fault `echoBodyRoutes`: `echo`) in its message, per area. */
export function echoedBody(area: Area, path: string, echo: string): SimResponse {
  const message = `the request could not be processed: ${echo}`;
  if (usesApiErrorData(area)) return apiError(400, 'validation.echo', '', message);
  return validationProblem(400, path, [{ field: 'request', message }]);
}
