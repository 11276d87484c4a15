/**
 * Edge scripts (`/compute/script`), from the compute document: list (paged, filtered by type,
 * name and integration), get, add (201 with the script), update (name, type), delete
 * (`deleteLinkedPullZones`), deployment-key rotation and statistics. Scripts of every type the
 * document has (DNS, standalone, middleware) are kept; the pull zones they are linked to are
 * compute-pull-zones.ts's. Unknown ids answer 404 without a body, as the document declares.
 */
import { emptyStatus } from '../errors.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { bodyProblem, type MemberRule } from './compute-body.js';
import {
  computeRoute,
  isAnswer,
  newDeploymentKey,
  now,
  renderScript,
  scriptOr404,
  scriptsOf,
  touchScript,
  type StoredScript,
} from './compute-model.js';
import {
  createLinkedZone,
  linkedZoneName,
  releaseLinkedZones,
  wantsLinkedZone,
} from './compute-pull-zones.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { badRequest } from './pullzone-common.js';
import { isStatsProblem, statsRangeOf, zeroChart } from './stats-range.js';

/** Name and type of AddEdgeScriptModel (Name is required by cdn-sim: see docs/simulator.md). */
const ADD_RULES: readonly MemberRule[] = [
  { field: 'Name', type: 'string', required: true, min: 1, max: 100 },
  { field: 'ScriptType', type: 'scriptType' },
  { field: 'Code', type: 'string' },
  { field: 'CreateLinkedPullZone', type: 'boolean' },
  { field: 'LinkedPullZoneName', type: 'string' },
];

const UPDATE_RULES: readonly MemberRule[] = [
  { field: 'Name', type: 'string', min: 1, max: 100 },
  { field: 'ScriptType', type: 'scriptType' },
];

function stored(ctx: SimContext): StoredScript[] {
  return [...scriptsOf(ctx.state).values()] as StoredScript[];
}

/** The list's filters: `type` (any of), `search` (in the name), `integrationId`. */
function matches(script: StoredScript, query: URLSearchParams): boolean {
  const types = query.getAll('type').map(Number);
  if (types.length > 0 && !types.includes(script.ScriptType)) return false;
  const search = query.get('search');
  if (search && !script.Name.toLowerCase().includes(search.toLowerCase())) return false;
  // No script of cdn-sim comes from a source code integration.
  return !query.get('integrationId');
}

function listScripts(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const withZones = req.query.get('includeLinkedPullzones') === 'true';
  const items = stored(ctx)
    .filter((s) => matches(s, req.query))
    .map((s) => renderScript(ctx.state, s, withZones));
  return { status: 200, body: pageOf(items, paging) };
}

function getScript(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  return { status: 200, body: renderScript(ctx.state, script) };
}

function newScript(ctx: SimContext, body: JsonObject): StoredScript {
  const at = now();
  return {
    Id: ctx.state.allocateId('edgeScript'),
    Name: body.Name as string,
    // An absent type binds to the enum's default, DNS (0), as the platform's model binding does.
    ScriptType: (body.ScriptType as number | undefined) ?? 0,
    LastModified: at,
    CurrentReleaseId: 0,
    DeploymentKey: newDeploymentKey(),
    code: (body.Code as string | null | undefined) ?? null,
    codeModified: at,
    variables: [],
    secrets: [],
    releases: [],
  };
}

function addScript(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = bodyProblem(req.body, ADD_RULES);
  if (problem) return problem;
  const body = req.body as JsonObject;
  const script = newScript(ctx, body);
  let zoneName: string | undefined;
  if (wantsLinkedZone(script.ScriptType, body.CreateLinkedPullZone)) {
    const asked = (body.LinkedPullZoneName as string | null | undefined) ?? undefined;
    const name = linkedZoneName(ctx.state, asked, script);
    if (typeof name !== 'string') return name;
    zoneName = name;
  }
  scriptsOf(ctx.state).set(String(script.Id), script);
  if (zoneName !== undefined) createLinkedZone(ctx.state, script, zoneName);
  ctx.state.touch();
  return { status: 201, body: renderScript(ctx.state, script) };
}

function updateScript(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = bodyProblem(req.body, UPDATE_RULES);
  if (problem) return problem;
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const body = req.body as JsonObject;
  // Members left out (or null) keep their value: clients send only what changes.
  if (typeof body.Name === 'string') script.Name = body.Name;
  if (typeof body.ScriptType === 'number') script.ScriptType = body.ScriptType;
  touchScript(ctx.state, script);
  return { status: 200, body: renderScript(ctx.state, script) };
}

function deleteScript(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  releaseLinkedZones(ctx.state, script, req.query.get('deleteLinkedPullZones') === 'true');
  scriptsOf(ctx.state).delete(String(script.Id));
  ctx.state.touch();
  return emptyStatus(204);
}

function rotateDeploymentKey(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  script.DeploymentKey = newDeploymentKey();
  touchScript(ctx.state, script);
  return emptyStatus(204);
}

/** No request runs a script in a simulation: every figure is 0, one chart entry per day or hour. */
function statistics(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const range = statsRangeOf(req);
  if (isStatsProblem(range)) return range;
  const zeros = zeroChart(range, req.query.get('hourly') === 'true');
  return {
    status: 200,
    body: {
      TotalRequestsServed: 0,
      TotalCpuUsed: 0,
      TotalMonthlyCost: 0,
      AverageCpuTimePerExecution: 0,
      RequestsServedChart: zeros,
      AverageCpuTimeChart: { ...zeros },
      TotalCpuTimeChart: { ...zeros },
    },
  };
}

/** Script lifecycle routes. */
export const COMPUTE_SCRIPT_ROUTES: RouteDef[] = [
  computeRoute('GET', '/compute/script', listScripts),
  computeRoute('POST', '/compute/script', addScript),
  computeRoute('GET', '/compute/script/{id}', getScript),
  computeRoute('POST', '/compute/script/{id}', updateScript),
  computeRoute('DELETE', '/compute/script/{id}', deleteScript),
  computeRoute('POST', '/compute/script/{id}/deploymentKey/rotate', rotateDeploymentKey),
  computeRoute('GET', '/compute/script/{id}/statistics', statistics),
];
