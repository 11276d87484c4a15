/**
 * Container registries (`/mc/registries`), from the Magic Containers document:
 *
 * - list (`{items, meta: {totalItems}, cursor}`, not paged), get one, add (`POST`), replace
 *   (`PUT /mc/registries/{registryId}`), delete;
 * - the password is write-only: no read returns it. Reads carry `firstPasswordSymbols` and
 *   `lastPasswordSymbols` (three characters each, for passwords of 12 characters or more) as
 *   the document declares; the simulator keeps only a SHA-256 digest of the password, which
 *   `GET /_sim/state` shows so tests can tell a rotation happened;
 * - two platform-managed public registries (Docker Hub, GitHub) are always listed and cannot
 *   be changed or deleted;
 * - a registry an application's container template names (`imageRegistryId`) cannot be
 *   deleted: 409.
 *
 * Errors: 400/404/409 ErrorDetails as the document declares; a delete of an unknown id answers
 * 200 with `status: notFound`.
 */
import { createHash } from 'node:crypto';
import { errorDetails, validationProblem, type FieldError } from '../errors.js';
import type { SimState } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';

/** `RegistryType` values and the registry host each stands for (simulator's mapping). */
export const REGISTRY_HOSTS: Record<string, string> = {
  dockerHub: 'docker.io',
  gitHub: 'ghcr.io',
  bunnyRegistry: 'registry.bunny.net',
};

/** Account and user the simulator stamps on registries (one account per simulator). */
const ACCOUNT_ID = 'sim-account';
const USER_ID = 'sim-user';
const SEEDED_AT = '2026-01-01T00:00:00Z';
/** Password length from which the read model shows its first and last characters. */
const SYMBOLS_FROM_LENGTH = 12;

/** Seeds the platform-managed public registries (called with the default seed). */
export function seedPublicRegistries(state: SimState): void {
  for (const [type, name] of [
    ['dockerHub', 'DockerHub Public'],
    ['gitHub', 'GitHub Public'],
  ] as const) {
    const id = state.allocateId('registry');
    state.collections.of('registries').set(String(id), {
      id,
      accountId: null,
      userId: null,
      namespaceId: 'public',
      displayName: name,
      hostName: REGISTRY_HOSTS[type],
      userName: null,
      firstPasswordSymbols: null,
      lastPasswordSymbols: null,
      createdAt: SEEDED_AT,
      isPublic: true,
      isPlatformManaged: true,
      lastUpdatedAt: null,
      type,
    });
  }
}

/** The `ContainerRegistry` read model: hidden members (type, password digest) dropped. */
function readModel(record: JsonObject): JsonObject {
  const { type: _type, passwordDigest: _digest, ...rest } = record;
  return structuredClone(rest);
}

function nameAndTypeProblems(b: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const name = b.displayName;
  if (typeof name !== 'string' || name.length < 1 || name.length > 50)
    errors.push({ field: 'displayName', message: 'displayName must be 1 to 50 characters' });
  const type = b.type;
  if (
    type !== undefined &&
    type !== null &&
    !(typeof type === 'string' && type in REGISTRY_HOSTS)
  ) {
    const message = `type must be one of ${Object.keys(REGISTRY_HOSTS).join(', ')}`;
    errors.push({ field: 'type', message });
  }
  return errors;
}

function credentialProblems(creds: unknown): FieldError[] {
  if (creds === undefined || creds === null) return [];
  const c = (typeof creds === 'object' ? creds : {}) as JsonObject;
  return ['userName', 'password']
    .filter((field) => typeof c[field] !== 'string' || c[field].length < 1)
    .map((field) => ({ field: `passwordCredentials.${field}`, message: `${field} is required` }));
}

function requestProblems(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ field: 'body', message: 'body must be a JSON object' }];
  const b = body as JsonObject;
  return [...nameAndTypeProblems(b), ...credentialProblems(b.passwordCredentials)];
}

function applyCredentials(record: JsonObject, creds: JsonObject): void {
  const password = creds.password as string;
  const long = password.length >= SYMBOLS_FROM_LENGTH;
  record.userName = creds.userName;
  record.passwordDigest = createHash('sha256').update(password).digest('hex');
  record.firstPasswordSymbols = long ? password.slice(0, 3) : null;
  record.lastPasswordSymbols = long ? password.slice(-3) : null;
}

function findRegistry(req: SimRequest, ctx: SimContext): JsonObject | undefined {
  const id = parseId(req.params.registryId);
  return id === undefined ? undefined : ctx.state.collections.of('registries').get(String(id));
}

function notFound(req: SimRequest): SimResponse {
  return errorDetails(
    404,
    'Not Found',
    `Registry ${req.params.registryId ?? ''} was not found.`,
    req.path,
  );
}

function listRegistries(_req: SimRequest, ctx: SimContext): SimResponse {
  const items = [...ctx.state.collections.of('registries').values()].map(readModel);
  return { status: 200, body: { items, meta: { totalItems: items.length }, cursor: null } };
}

function getRegistry(req: SimRequest, ctx: SimContext): SimResponse {
  const record = findRegistry(req, ctx);
  return record ? { status: 200, body: readModel(record) } : notFound(req);
}

function addRegistry(req: SimRequest, ctx: SimContext): SimResponse {
  const errors = requestProblems(req.body);
  const body = req.body as JsonObject;
  if (
    errors.length === 0 &&
    (body.passwordCredentials === undefined || body.passwordCredentials === null)
  )
    errors.push({ field: 'passwordCredentials', message: 'passwordCredentials is required' });
  if (errors.length > 0) return validationProblem(400, req.path, errors);
  const id = ctx.state.allocateId('registry');
  const type = typeof body.type === 'string' ? body.type : 'dockerHub';
  const record: JsonObject = {
    id,
    accountId: ACCOUNT_ID,
    userId: USER_ID,
    namespaceId: ACCOUNT_ID,
    displayName: body.displayName,
    hostName: REGISTRY_HOSTS[type],
    createdAt: new Date().toISOString(),
    isPublic: false,
    isPlatformManaged: false,
    lastUpdatedAt: null,
    type,
  };
  applyCredentials(record, body.passwordCredentials as JsonObject);
  ctx.state.collections.of('registries').set(String(id), record);
  ctx.state.touch();
  return { status: 200, body: { id, error: null, status: 'saved' } };
}

/** PUT: name and type replaced; credentials replaced when given, kept otherwise. */
function replaceRegistry(req: SimRequest, ctx: SimContext): SimResponse {
  const record = findRegistry(req, ctx);
  if (!record) return notFound(req);
  if (record.isPlatformManaged === true) {
    return validationProblem(400, req.path, [
      { field: 'registryId', message: 'a platform-managed registry cannot be changed' },
    ]);
  }
  const errors = requestProblems(req.body);
  if (errors.length > 0) return validationProblem(400, req.path, errors, String(record.id));
  const body = req.body as JsonObject;
  const type = typeof body.type === 'string' ? body.type : 'dockerHub';
  Object.assign(record, { displayName: body.displayName, type, hostName: REGISTRY_HOSTS[type] });
  if (body.passwordCredentials) applyCredentials(record, body.passwordCredentials as JsonObject);
  record.lastUpdatedAt = new Date().toISOString();
  ctx.state.touch();
  return { status: 200, body: { id: record.id, error: null, status: 'saved' } };
}

/** Ids of the applications whose container templates pull from `registryId`. */
function appsUsing(ctx: SimContext, registryId: number): string[] {
  const users: string[] = [];
  for (const [appId, stored] of ctx.state.apps) {
    const templates = (stored.app.containerTemplates as JsonObject[] | undefined) ?? [];
    if (templates.some((t) => String(t.imageRegistryId) === String(registryId))) users.push(appId);
  }
  return users;
}

function deleteRegistry(req: SimRequest, ctx: SimContext): SimResponse {
  const record = findRegistry(req, ctx);
  if (!record) return { status: 200, body: { status: 'notFound', applications: null } };
  const id = record.id as number;
  if (record.isPlatformManaged === true)
    return errorDetails(409, 'Conflict', `Registry ${id} is managed by the platform.`, req.path);
  const users = appsUsing(ctx, id);
  if (users.length > 0) {
    const detail = `Registry ${id} is used by applications ${users.join(', ')}.`;
    return errorDetails(409, 'Conflict', detail, req.path);
  }
  ctx.state.collections.of('registries').delete(String(id));
  ctx.state.touch();
  return { status: 200, body: { status: 'removed', applications: null } };
}

function route(method: string, template: string, handler: RouteDef['handler']): RouteDef {
  return { method, template, area: 'mc', handler };
}

/** Container registry routes. */
export const REGISTRY_ROUTES: RouteDef[] = [
  route('GET', '/mc/registries', listRegistries),
  route('POST', '/mc/registries', addRegistry),
  route('GET', '/mc/registries/{registryId}', getRegistry),
  route('PUT', '/mc/registries/{registryId}', replaceRegistry),
  route('DELETE', '/mc/registries/{registryId}', deleteRegistry),
];
