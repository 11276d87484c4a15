/**
 * Environment variables and secrets of an edge script (compute document). A secret's value is
 * registered with the transport as a secret before it is sent, so no error text can carry it,
 * and an answer never hands one back (the platform's secret model has none; a `Secret` member
 * an answer might carry is dropped). Adds are retried only after a 429; upserts and updates by
 * name or id set absolute values and are retried like reads. An upsert that updated an existing
 * variable or secret answers 204 without a body: those calls then return undefined.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectObject, isRecord } from './response.js';
import { registerSentSecret } from './secret-forms.js';
import type {
  EdgeScriptSecret,
  EdgeScriptSecretWrite,
  EdgeScriptVariable,
  EdgeScriptVariableAdd,
  EdgeScriptVariableUpdate,
  EdgeScriptVariableUpsert,
} from './edge-script-types.js';
import { checkId, checkNonEmpty } from './validate.js';

/** Longest name and value the document allows. */
const NAME_MAX = 256;
const VALUE_MAX = 4096;

function checkLength(
  http: HttpTransport,
  operation: string,
  field: string,
  value: string | null | undefined,
  max: number,
): void {
  const length = typeof value === 'string' ? [...value].length : 0;
  if (length <= max) return;
  // The length only: the value may be a secret.
  const why = `${field} must be at most ${max} characters, got ${length}`;
  throw http.failure(operation, 'invalid', why, { field });
}

function checkNamed(http: HttpTransport, operation: string, id: number, name: string): void {
  checkId(http, operation, 'id', id);
  checkNonEmpty(http, operation, 'Name', name);
  checkLength(http, operation, 'Name', name, NAME_MAX);
}

/** The answer of an upsert: the new record (200), or undefined for an update (204). */
function created<T>(
  http: HttpTransport,
  operation: string,
  status: number,
  body: unknown,
): T | undefined {
  return status === 204 ? undefined : expectObject<T>(http, operation, body);
}

function readSecret(http: HttpTransport, operation: string, body: unknown): EdgeScriptSecret {
  const { Secret: _value, ...rest } = expectObject<Record<string, unknown>>(http, operation, body);
  return rest;
}

// ---- variables ----

/** Adds a variable (a name the script has is refused). */
export async function addEdgeScriptVariable(
  http: HttpTransport,
  id: number,
  body: EdgeScriptVariableAdd,
  opts?: CallOptions,
): Promise<EdgeScriptVariable> {
  const operation = 'addEdgeScriptVariable';
  checkNamed(http, operation, id, body.Name);
  checkLength(http, operation, 'DefaultValue', body.DefaultValue, VALUE_MAX);
  const path = pathOf`/compute/script/${id}/variables/add`;
  const res = await http.request(
    { operation, method: 'POST', path, body, idempotent: false },
    opts,
  );
  return expectObject<EdgeScriptVariable>(http, operation, res.body);
}

/** Creates or updates the variable of that name; the new one, or undefined for an update. */
export async function upsertEdgeScriptVariable(
  http: HttpTransport,
  id: number,
  body: EdgeScriptVariableUpsert,
  opts?: CallOptions,
): Promise<EdgeScriptVariable | undefined> {
  const operation = 'upsertEdgeScriptVariable';
  checkNamed(http, operation, id, body.Name);
  checkLength(http, operation, 'DefaultValue', body.DefaultValue, VALUE_MAX);
  const path = pathOf`/compute/script/${id}/variables`;
  const res = await http.request({ operation, method: 'PUT', path, body, idempotent: true }, opts);
  return created<EdgeScriptVariable>(http, operation, res.status, res.body);
}

/** One variable (`notFound` when the script or the variable does not exist). */
export async function getEdgeScriptVariable(
  http: HttpTransport,
  id: number,
  variableId: number,
  opts?: CallOptions,
): Promise<EdgeScriptVariable> {
  const operation = 'getEdgeScriptVariable';
  checkId(http, operation, 'id', id);
  checkId(http, operation, 'variableId', variableId);
  const path = pathOf`/compute/script/${id}/variables/${variableId}`;
  const res = await http.request({ operation, method: 'GET', path }, opts);
  return expectObject<EdgeScriptVariable>(http, operation, res.body);
}

/** Changes a variable's default value or whether it is required (left out: kept). */
export async function updateEdgeScriptVariable(
  http: HttpTransport,
  id: number,
  variableId: number,
  body: EdgeScriptVariableUpdate,
  opts?: CallOptions,
): Promise<EdgeScriptVariable> {
  const operation = 'updateEdgeScriptVariable';
  checkId(http, operation, 'id', id);
  checkId(http, operation, 'variableId', variableId);
  checkLength(http, operation, 'DefaultValue', body.DefaultValue, VALUE_MAX);
  const path = pathOf`/compute/script/${id}/variables/${variableId}`;
  const res = await http.request({ operation, method: 'POST', path, body, idempotent: true }, opts);
  return expectObject<EdgeScriptVariable>(http, operation, res.body);
}

/** Deletes a variable. */
export async function deleteEdgeScriptVariable(
  http: HttpTransport,
  id: number,
  variableId: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteEdgeScriptVariable';
  checkId(http, operation, 'id', id);
  checkId(http, operation, 'variableId', variableId);
  const path = pathOf`/compute/script/${id}/variables/${variableId}`;
  await http.request({ operation, method: 'DELETE', path }, opts);
}

// ---- secrets ----

/** The secrets of a script: ids, names and when they changed, never values. */
export async function listEdgeScriptSecrets(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<EdgeScriptSecret[]> {
  const operation = 'listEdgeScriptSecrets';
  checkId(http, operation, 'id', id);
  const path = pathOf`/compute/script/${id}/secrets`;
  const res = await http.request({ operation, method: 'GET', path }, opts);
  const body = expectObject<{ Secrets?: unknown }>(http, operation, res.body);
  const items = Array.isArray(body.Secrets) ? body.Secrets : [];
  return items.filter(isRecord).map((item) => readSecret(http, operation, item));
}

function secretWrite(
  http: HttpTransport,
  operation: string,
  id: number,
  body: EdgeScriptSecretWrite,
): void {
  registerSentSecret(http, body.Secret);
  checkNamed(http, operation, id, body.Name);
  checkLength(http, operation, 'Secret', body.Secret, VALUE_MAX);
}

/** Adds a secret (a name the script has is refused). */
export async function addEdgeScriptSecret(
  http: HttpTransport,
  id: number,
  body: EdgeScriptSecretWrite,
  opts?: CallOptions,
): Promise<EdgeScriptSecret> {
  const operation = 'addEdgeScriptSecret';
  secretWrite(http, operation, id, body);
  const path = pathOf`/compute/script/${id}/secrets`;
  const res = await http.request(
    { operation, method: 'POST', path, body, idempotent: false },
    opts,
  );
  return readSecret(http, operation, res.body);
}

/** Creates or sets the secret of that name; the new one, or undefined for an update. */
export async function upsertEdgeScriptSecret(
  http: HttpTransport,
  id: number,
  body: EdgeScriptSecretWrite,
  opts?: CallOptions,
): Promise<EdgeScriptSecret | undefined> {
  const operation = 'upsertEdgeScriptSecret';
  secretWrite(http, operation, id, body);
  const path = pathOf`/compute/script/${id}/secrets`;
  const res = await http.request({ operation, method: 'PUT', path, body, idempotent: true }, opts);
  return res.status === 204 ? undefined : readSecret(http, operation, res.body);
}

/** Sets a secret's value, by its id. */
export async function updateEdgeScriptSecret(
  http: HttpTransport,
  id: number,
  secretId: number,
  value: string,
  opts?: CallOptions,
): Promise<EdgeScriptSecret> {
  const operation = 'updateEdgeScriptSecret';
  registerSentSecret(http, value);
  checkId(http, operation, 'id', id);
  checkId(http, operation, 'secretId', secretId);
  checkLength(http, operation, 'Secret', value, VALUE_MAX);
  const path = pathOf`/compute/script/${id}/secrets/${secretId}`;
  const res = await http.request(
    { operation, method: 'POST', path, body: { Secret: value }, idempotent: true },
    opts,
  );
  return readSecret(http, operation, res.body);
}

/** Deletes a secret. */
export async function deleteEdgeScriptSecret(
  http: HttpTransport,
  id: number,
  secretId: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteEdgeScriptSecret';
  checkId(http, operation, 'id', id);
  checkId(http, operation, 'secretId', secretId);
  const path = pathOf`/compute/script/${id}/secrets/${secretId}`;
  await http.request({ operation, method: 'DELETE', path }, opts);
}
