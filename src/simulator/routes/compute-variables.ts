/**
 * An edge script's environment variables (`/compute/script/{id}/variables`), from the compute
 * document: add (`POST .../add`, 200 with the variable; a name the script already has is 400),
 * upsert by name (`PUT`: 200 with the new variable, or 204 without a body when one of that name
 * was updated), get, update (`POST .../{variableId}`) and delete. Names are matched exactly. In
 * an update or upsert, a member left out (or null) keeps its value. The script's read model
 * lists them as `EdgeScriptVariables`.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { JsonObject, RouteDef, SimRequest, SimResponse, SimContext } from '../types.js';
import { bodyProblem, type MemberRule } from './compute-body.js';
import {
  computeRoute,
  isAnswer,
  scriptAndBody,
  scriptOr404,
  touchScript,
  type StoredScript,
  type StoredVariable,
} from './compute-model.js';
import { parseId } from './pullzone-common.js';

const NAME: MemberRule = { field: 'Name', type: 'string', required: true, min: 1, max: 256 };
const DEFAULT_VALUE: MemberRule = { field: 'DefaultValue', type: 'string', max: 4096 };
const ADD_RULES: readonly MemberRule[] = [
  NAME,
  { field: 'Required', type: 'boolean', required: true },
  DEFAULT_VALUE,
];
const UPSERT_RULES: readonly MemberRule[] = [
  NAME,
  { field: 'Required', type: 'boolean' },
  DEFAULT_VALUE,
];
const UPDATE_RULES: readonly MemberRule[] = [DEFAULT_VALUE, { field: 'Required', type: 'boolean' }];

/** Sets the members a body gives; those left out or null keep their value. */
function applyMembers(variable: StoredVariable, body: JsonObject): void {
  if (typeof body.Required === 'boolean') variable.Required = body.Required;
  if (typeof body.DefaultValue === 'string') variable.DefaultValue = body.DefaultValue;
}

function addNew(ctx: SimContext, script: StoredScript, body: JsonObject): StoredVariable {
  const variable: StoredVariable = {
    Id: ctx.state.allocateId('edgeScriptVariable'),
    Name: body.Name as string,
    Required: false,
    DefaultValue: null,
  };
  applyMembers(variable, body);
  script.variables.push(variable);
  touchScript(ctx.state, script);
  return variable;
}

function addVariable(req: SimRequest, ctx: SimContext): SimResponse {
  const found = scriptAndBody(req, ctx, ADD_RULES);
  if ('status' in found) return found;
  const { script, body } = found;
  if (script.variables.some((v) => v.Name === body.Name)) {
    const message = `Script ${script.Id} already has a variable ${String(body.Name)}`;
    return apiError(400, 'edgescript.variable_exists', 'Name', message);
  }
  return { status: 200, body: { ...addNew(ctx, script, body) } };
}

function upsertVariable(req: SimRequest, ctx: SimContext): SimResponse {
  const found = scriptAndBody(req, ctx, UPSERT_RULES);
  if ('status' in found) return found;
  const { script, body } = found;
  const existing = script.variables.find((v) => v.Name === body.Name);
  if (!existing) return { status: 200, body: { ...addNew(ctx, script, body) } };
  applyMembers(existing, body);
  touchScript(ctx.state, script);
  return emptyStatus(204);
}

/** The script and its variable named by `{variableId}`, or the 404. */
function variableOr404(
  req: SimRequest,
  ctx: SimContext,
): { script: StoredScript; variable: StoredVariable } | SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const id = parseId(req.params.variableId);
  const variable = script.variables.find((v) => v.Id === id);
  return variable ? { script, variable } : emptyStatus(404);
}

function getVariable(req: SimRequest, ctx: SimContext): SimResponse {
  const found = variableOr404(req, ctx);
  return 'status' in found ? found : { status: 200, body: { ...found.variable } };
}

function updateVariable(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = bodyProblem(req.body, UPDATE_RULES);
  if (problem) return problem;
  const found = variableOr404(req, ctx);
  if ('status' in found) return found;
  applyMembers(found.variable, req.body as JsonObject);
  touchScript(ctx.state, found.script);
  return { status: 200, body: { ...found.variable } };
}

function deleteVariable(req: SimRequest, ctx: SimContext): SimResponse {
  const found = variableOr404(req, ctx);
  if ('status' in found) return found;
  found.script.variables = found.script.variables.filter((v) => v !== found.variable);
  touchScript(ctx.state, found.script);
  return emptyStatus(204);
}

/** Variable routes. */
export const COMPUTE_VARIABLE_ROUTES: RouteDef[] = [
  computeRoute('POST', '/compute/script/{id}/variables/add', addVariable),
  computeRoute('PUT', '/compute/script/{id}/variables', upsertVariable),
  computeRoute('GET', '/compute/script/{id}/variables/{variableId}', getVariable),
  computeRoute('POST', '/compute/script/{id}/variables/{variableId}', updateVariable),
  computeRoute('DELETE', '/compute/script/{id}/variables/{variableId}', deleteVariable),
];
