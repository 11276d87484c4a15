/**
 * Log forwarding of container applications (`/mc/log/forwarding`), one configuration per
 * application: list, create (201), get, replace (`PUT /mc/log/forwarding/{appId}`, the body's
 * `app` must be the path's), delete (204). Every answer carries the syslog `token` as the
 * document's read model declares it (left out when none is set: the document does not make
 * it nullable), so a client must drop it; our
 * client does (src/cdn/log-forwarding.ts). The configuration goes with its application when
 * the application is deleted.
 *
 * The document declares 400 and 404 without a body; the simulator answers them with the
 * area's ErrorDetails so a caller learns the field.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { errorDetails, validationProblem, type FieldError } from '../errors.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';

/** `type` values: syslog over UDP or TCP. */
export const LOG_FORWARDING_TYPES = ['SyslogUdp', 'SyslogTcp'];
/** `format` values: the two syslog RFCs. */
export const LOG_FORWARDING_FORMATS = ['SyslogRfc3164', 'SyslogRfc5424'];

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function enumProblem(field: string, value: unknown, values: string[]): FieldError[] {
  return typeof value === 'string' && values.includes(value)
    ? []
    : [{ field, message: `${field} must be one of ${values.join(', ')}` }];
}

function isPort(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;
}

function isEndpoint(v: unknown): boolean {
  return typeof v === 'string' && (HOSTNAME.test(v) || isIP(v) !== 0);
}

/** Member checks: a problem message when the value is wrong. */
const MEMBER_CHECKS: Array<[field: string, ok: (v: unknown) => boolean, message: string]> = [
  ['endpoint', isEndpoint, 'endpoint must be a hostname or IP address'],
  ['port', isPort, 'port must be from 1 to 65535'],
  ['enabled', (v) => typeof v === 'boolean', 'enabled is required'],
  [
    'token',
    (v) => v === undefined || v === null || typeof v === 'string',
    'token must be a string',
  ],
];

function bodyProblems(body: unknown, ctx: SimContext): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ field: 'body', message: 'body must be a JSON object' }];
  const b = body as JsonObject;
  const errors: FieldError[] = [
    ...enumProblem('type', b.type, LOG_FORWARDING_TYPES),
    ...enumProblem('format', b.format, LOG_FORWARDING_FORMATS),
  ];
  if (typeof b.app !== 'string' || !ctx.state.apps.has(b.app))
    errors.push({ field: 'app', message: `application ${JSON.stringify(b.app)} does not exist` });
  for (const [field, ok, message] of MEMBER_CHECKS) {
    if (!ok(b[field])) errors.push({ field, message });
  }
  return errors;
}

/**
 * The read model (`LogForwardingConfiguration`): every stored member but the cleanup key; the
 * token only when one is set (a string in the document, not nullable).
 */
function readModel(record: JsonObject): JsonObject {
  const { appId: _appId, token, ...rest } = record;
  return structuredClone(typeof token === 'string' ? { ...rest, token } : rest);
}

function notFound(req: SimRequest): SimResponse {
  const detail = `No log forwarding for application ${req.params.appId ?? ''}.`;
  return errorDetails(404, 'Not Found', detail, req.path);
}

function writeRecord(body: JsonObject, old: JsonObject | undefined): JsonObject {
  return {
    id: old?.id ?? randomUUID(),
    appId: body.app,
    app: body.app,
    productId: body.app,
    type: body.type,
    endpoint: body.endpoint,
    port: body.port,
    createdAt: old?.createdAt ?? new Date().toISOString(),
    token: typeof body.token === 'string' ? body.token : (old?.token ?? null),
    format: body.format,
    enabled: body.enabled,
  };
}

function listConfigs(_req: SimRequest, ctx: SimContext): SimResponse {
  const items = [...ctx.state.collections.of('logForwarding').values()].map(readModel);
  return { status: 200, body: { items } };
}

function createConfig(req: SimRequest, ctx: SimContext): SimResponse {
  const errors = bodyProblems(req.body, ctx);
  const body = req.body as JsonObject;
  if (errors.length === 0 && ctx.state.collections.of('logForwarding').has(String(body.app)))
    errors.push({
      field: 'app',
      message: `application ${String(body.app)} already forwards its logs`,
    });
  if (errors.length > 0) return validationProblem(400, req.path, errors);
  const record = writeRecord(body, undefined);
  ctx.state.collections.of('logForwarding').set(String(body.app), record);
  ctx.state.touch();
  return { status: 201, body: readModel(record) };
}

function getConfig(req: SimRequest, ctx: SimContext): SimResponse {
  const record = ctx.state.collections.of('logForwarding').get(req.params.appId ?? '');
  return record ? { status: 200, body: readModel(record) } : notFound(req);
}

/** PUT: every member replaced; a token left out keeps the one set before. */
function replaceConfig(req: SimRequest, ctx: SimContext): SimResponse {
  const old = ctx.state.collections.of('logForwarding').get(req.params.appId ?? '');
  if (!old) return notFound(req);
  const errors = bodyProblems(req.body, ctx);
  const body = req.body as JsonObject;
  if (errors.length === 0 && body.app !== req.params.appId)
    errors.push({ field: 'app', message: 'app must be the application of the path' });
  if (errors.length > 0) return validationProblem(400, req.path, errors);
  const record = writeRecord(body, old);
  ctx.state.collections.of('logForwarding').set(String(body.app), record);
  ctx.state.touch();
  return { status: 200, body: readModel(record) };
}

function deleteConfig(req: SimRequest, ctx: SimContext): SimResponse {
  if (!ctx.state.collections.of('logForwarding').delete(req.params.appId ?? ''))
    return notFound(req);
  ctx.state.touch();
  return { status: 204 };
}

function route(method: string, template: string, handler: RouteDef['handler']): RouteDef {
  return { method, template, area: 'mc', handler };
}

/** Log forwarding routes. */
export const LOG_FORWARDING_ROUTES: RouteDef[] = [
  route('GET', '/mc/log/forwarding', listConfigs),
  route('POST', '/mc/log/forwarding', createConfig),
  route('GET', '/mc/log/forwarding/{appId}', getConfig),
  route('PUT', '/mc/log/forwarding/{appId}', replaceConfig),
  route('DELETE', '/mc/log/forwarding/{appId}', deleteConfig),
];
