/**
 * An edge script's secrets (`/compute/script/{id}/secrets`), from the compute document: list,
 * add (200 with the secret; a name the script already has is 400), upsert by name (`PUT`: 200
 * with the new secret, or 204 without a body when one of that name got the new value), update
 * the value (`POST .../{secretId}`) and delete. Values are write-only: an answer carries a
 * secret's id, name and `LastModified`, never its value, and cdn-sim keeps only a SHA-256
 * digest of it (compute-model.ts). Names are matched exactly.
 */
import { createHash } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import type { JsonObject, RouteDef, SimRequest, SimResponse, SimContext } from '../types.js';
import type { MemberRule } from './compute-body.js';
import {
  computeRoute,
  isAnswer,
  now,
  renderSecret,
  scriptAndBody,
  scriptOr404,
  touchScript,
  type StoredScript,
  type StoredSecret,
} from './compute-model.js';
import { parseId } from './pullzone-common.js';

const VALUE: MemberRule = { field: 'Secret', type: 'string', max: 4096 };
const ADD_RULES: readonly MemberRule[] = [
  { field: 'Name', type: 'string', required: true, min: 1, max: 256 },
  VALUE,
];
/** The upsert model has `Name` nullable, but there is nothing to upsert without one. */
const UPSERT_RULES = ADD_RULES;
const UPDATE_RULES: readonly MemberRule[] = [VALUE];

function digestOf(value: unknown): string {
  return createHash('sha256')
    .update(typeof value === 'string' ? value : '')
    .digest('hex');
}

function setValue(secret: StoredSecret, value: unknown): void {
  secret.valueDigest = digestOf(value);
  secret.LastModified = now();
}

function addNew(ctx: SimContext, script: StoredScript, body: JsonObject): StoredSecret {
  const secret: StoredSecret = {
    Id: ctx.state.allocateId('edgeScriptSecret'),
    Name: body.Name as string,
    LastModified: now(),
    valueDigest: digestOf(body.Secret),
  };
  script.secrets.push(secret);
  touchScript(ctx.state, script);
  return secret;
}

function listSecrets(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  return { status: 200, body: { Secrets: script.secrets.map(renderSecret) } };
}

function addSecret(req: SimRequest, ctx: SimContext): SimResponse {
  const found = scriptAndBody(req, ctx, ADD_RULES);
  if ('status' in found) return found;
  const { script, body } = found;
  if (script.secrets.some((s) => s.Name === body.Name)) {
    const message = `Script ${script.Id} already has a secret ${String(body.Name)}`;
    return apiError(400, 'edgescript.secret_exists', 'Name', message);
  }
  return { status: 200, body: renderSecret(addNew(ctx, script, body)) };
}

function upsertSecret(req: SimRequest, ctx: SimContext): SimResponse {
  const found = scriptAndBody(req, ctx, UPSERT_RULES);
  if ('status' in found) return found;
  const { script, body } = found;
  const existing = script.secrets.find((s) => s.Name === body.Name);
  if (!existing) return { status: 200, body: renderSecret(addNew(ctx, script, body)) };
  setValue(existing, body.Secret);
  touchScript(ctx.state, script);
  return emptyStatus(204);
}

/** The script and its secret named by `{secretId}`, or the 404. */
function secretOr404(
  req: SimRequest,
  ctx: SimContext,
): { script: StoredScript; secret: StoredSecret } | SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const id = parseId(req.params.secretId);
  const secret = script.secrets.find((s) => s.Id === id);
  return secret ? { script, secret } : emptyStatus(404);
}

function updateSecret(req: SimRequest, ctx: SimContext): SimResponse {
  const found = scriptAndBody(req, ctx, UPDATE_RULES);
  if ('status' in found) return found;
  const target = secretOr404(req, ctx);
  if ('status' in target) return target;
  setValue(target.secret, found.body.Secret);
  touchScript(ctx.state, target.script);
  return { status: 200, body: renderSecret(target.secret) };
}

function deleteSecret(req: SimRequest, ctx: SimContext): SimResponse {
  const found = secretOr404(req, ctx);
  if ('status' in found) return found;
  found.script.secrets = found.script.secrets.filter((s) => s !== found.secret);
  touchScript(ctx.state, found.script);
  return emptyStatus(204);
}

/** Secret routes. */
export const COMPUTE_SECRET_ROUTES: RouteDef[] = [
  computeRoute('GET', '/compute/script/{id}/secrets', listSecrets),
  computeRoute('POST', '/compute/script/{id}/secrets', addSecret),
  computeRoute('PUT', '/compute/script/{id}/secrets', upsertSecret),
  computeRoute('POST', '/compute/script/{id}/secrets/{secretId}', updateSecret),
  computeRoute('DELETE', '/compute/script/{id}/secrets/{secretId}', deleteSecret),
];
