/**
 * An edge script's code and releases, from the compute document:
 *
 * - `GET/POST /compute/script/{id}/code`: the code as last set (null until some is), and when;
 *   setting code publishes nothing;
 * - `POST .../publish`: a new release of the current code becomes the live one (400 when the
 *   script has no code); `POST .../publish/{uuid}`: an earlier release becomes the live one
 *   again (a rollback; 400 naming `uuid` when the script has no such release), the code as set
 *   is left alone. Either way the script's `CurrentReleaseId` names the live release;
 * - `GET .../releases` (paged, newest first) and `GET .../releases/active` (404 while nothing
 *   was ever published, as the document declares).
 */
import { randomUUID } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import type { JsonObject, RouteDef, SimRequest, SimResponse, SimContext } from '../types.js';
import { bodyProblem, type MemberRule } from './compute-body.js';
import {
  computeRoute,
  isAnswer,
  now,
  renderRelease,
  scriptOr404,
  touchScript,
  type StoredScript,
} from './compute-model.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { badRequest } from './pullzone-common.js';

const CODE_RULES: readonly MemberRule[] = [{ field: 'Code', type: 'string' }];
const PUBLISH_RULES: readonly MemberRule[] = [{ field: 'Note', type: 'string' }];

function getCode(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  return { status: 200, body: { Code: script.code, LastModified: script.codeModified } };
}

function setCode(req: SimRequest, ctx: SimContext): SimResponse {
  const problem = bodyProblem(req.body, CODE_RULES);
  if (problem) return problem;
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  // "Set": a body without code leaves the script with none to publish.
  script.code = ((req.body as JsonObject).Code as string | null | undefined) ?? '';
  script.codeModified = now();
  touchScript(ctx.state, script);
  return emptyStatus(204);
}

function newRelease(ctx: SimContext, script: StoredScript, note: unknown): JsonObject {
  const at = now();
  return {
    Id: ctx.state.allocateId('edgeScriptRelease'),
    Code: script.code,
    Uuid: randomUUID(),
    Note: typeof note === 'string' ? note : null,
    // Releases published with an API key carry no author or commit (no source integration).
    Author: null,
    AuthorEmail: null,
    CommitSha: null,
    DateReleased: at,
    DatePublished: at,
  };
}

function publishLatest(script: StoredScript, req: SimRequest, ctx: SimContext): SimResponse {
  if (script.code === null || script.code === '') {
    return apiError(
      400,
      'edgescript.no_code',
      'Code',
      `Script ${script.Id} has no code to publish`,
    );
  }
  const release = newRelease(ctx, script, (req.body as JsonObject | undefined)?.Note);
  script.releases.push(release);
  script.CurrentReleaseId = release.Id as number;
  return emptyStatus(204);
}

function publishEarlier(script: StoredScript, uuid: string): SimResponse {
  const wanted = uuid.toLowerCase();
  const release = script.releases.find((r) => String(r.Uuid).toLowerCase() === wanted);
  if (!release) {
    return apiError(
      400,
      'edgescript.release_not_found',
      'uuid',
      `Script ${script.Id} has no release ${uuid}`,
    );
  }
  release.DatePublished = now();
  script.CurrentReleaseId = release.Id as number;
  return emptyStatus(204);
}

function publish(req: SimRequest, ctx: SimContext): SimResponse {
  // The body (PublishEdgeScriptModel, a note) is required by the document; `{}` will do.
  if (req.body !== undefined) {
    const problem = bodyProblem(req.body, PUBLISH_RULES);
    if (problem) return problem;
  }
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const uuid = req.params.uuid;
  const answer =
    uuid === undefined ? publishLatest(script, req, ctx) : publishEarlier(script, uuid);
  if (answer.status < 300) touchScript(ctx.state, script);
  return answer;
}

function listReleases(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const newestFirst = [...script.releases].reverse().map((r) => renderRelease(script, r));
  return { status: 200, body: pageOf(newestFirst, paging) };
}

function activeRelease(req: SimRequest, ctx: SimContext): SimResponse {
  const script = scriptOr404(req.params.id, ctx);
  if (isAnswer(script)) return script;
  const live = script.releases.find((r) => r.Id === script.CurrentReleaseId);
  return live ? { status: 200, body: renderRelease(script, live) } : emptyStatus(404);
}

/** Code and release routes. */
export const COMPUTE_RELEASE_ROUTES: RouteDef[] = [
  computeRoute('GET', '/compute/script/{id}/code', getCode),
  computeRoute('POST', '/compute/script/{id}/code', setCode),
  computeRoute('POST', '/compute/script/{id}/publish', publish),
  computeRoute('POST', '/compute/script/{id}/publish/{uuid}', publish),
  computeRoute('GET', '/compute/script/{id}/releases', listReleases),
  computeRoute('GET', '/compute/script/{id}/releases/active', activeRelease),
];
