/**
 * The edge script record of cdn-sim (compute document) and its read model. One record per
 * script in the `edgeScripts` collection, saved with the state: the script's own members, its
 * code, variables, secrets and releases. A secret keeps only a SHA-256 digest of its value: no
 * answer, state dump or state file holds the value (`GET /_sim/state` shows the digest, so a
 * test can tell an upsert changed it).
 *
 * Derived at each read rather than stored: `LinkedPullZones` (the pull zones whose
 * `EdgeScriptId` or `MiddlewareScriptId` names the script), the hostnames (those of the pull
 * zone that fronts a standalone script) and each release's `Status` (Live for the script's
 * `CurrentReleaseId`, else Archived), so a pull zone deleted or re-pointed elsewhere is never
 * shown stale.
 */
import { randomBytes } from 'node:crypto';
import { emptyStatus } from '../errors.js';
import type { SimState, StoredPullZone } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { bodyProblem, type MemberRule } from './compute-body.js';
import { parseId } from './pullzone-common.js';
import { SYSTEM_HOSTNAME_SUFFIX } from './pullzone-model.js';

/** EdgeScriptTypes of the document. */
export const SCRIPT_TYPE = { dns: 0, standalone: 1, middleware: 2 } as const;

/** EdgeScriptReleaseStatus of the document. */
const RELEASE_ARCHIVED = 0;
const RELEASE_LIVE = 1;

/** One variable as stored and read (EdgeScriptVariableModel). */
export interface StoredVariable extends JsonObject {
  Id: number;
  Name: string;
  Required: boolean;
  DefaultValue: string | null;
}

/** One secret as stored: the read model's members and the digest of its value. */
export interface StoredSecret extends JsonObject {
  Id: number;
  Name: string;
  LastModified: string;
  valueDigest: string;
}

/** A script as stored in the `edgeScripts` collection (key: its id). */
export interface StoredScript extends JsonObject {
  Id: number;
  Name: string;
  ScriptType: number;
  LastModified: string;
  CurrentReleaseId: number;
  DeploymentKey: string;
  /** The code as last set; null until a caller sets some. */
  code: string | null;
  codeModified: string;
  variables: StoredVariable[];
  secrets: StoredSecret[];
  /** Releases, oldest first: EdgeScriptReleaseModel members but `Status` and `Deleted`. */
  releases: JsonObject[];
}

/** A route of the compute document. */
export function computeRoute(
  method: string,
  template: string,
  handler: RouteDef['handler'],
): RouteDef {
  return { method, template, area: 'compute', handler };
}

/** Now, as the documents' date-time. */
export function now(): string {
  return new Date().toISOString();
}

/** A new deployment key: 64 hex characters (the platform's format is not shown). */
export function newDeploymentKey(): string {
  return randomBytes(32).toString('hex');
}

/** The stored scripts, by id. */
export function scriptsOf(state: SimState): Map<string, JsonObject> {
  return state.collections.of('edgeScripts');
}

/** The script named by `{id}`, or the 404 the document declares (no body). */
export function scriptOr404(id: string | undefined, ctx: SimContext): StoredScript | SimResponse {
  const n = parseId(id);
  const script = n === undefined ? undefined : scriptsOf(ctx.state).get(String(n));
  return (script as StoredScript | undefined) ?? emptyStatus(404);
}

/** True when `value` is an answer rather than a found script (no script has `status`). */
export function isAnswer(value: StoredScript | SimResponse): value is SimResponse {
  return 'status' in value;
}

/** The script and the body, or the answer when either is wrong. */
export function scriptAndBody(
  req: SimRequest,
  ctx: SimContext,
  rules: readonly MemberRule[],
): { script: StoredScript; body: JsonObject } | SimResponse {
  const problem = bodyProblem(req.body, rules);
  if (problem) return problem;
  const script = scriptOr404(req.params.id, ctx);
  return isAnswer(script) ? script : { script, body: req.body as JsonObject };
}

/** Marks a script changed (its `LastModified`) and the state dirty. */
export function touchScript(state: SimState, script: StoredScript): void {
  script.LastModified = now();
  state.touch();
}

/** The pull zones linked to a script, by id: fronting it, or running it as middleware. */
export function linkedZones(state: SimState, scriptId: number): StoredPullZone[] {
  return [...state.pullZones.values()]
    .filter((z) => z.record.EdgeScriptId === scriptId || z.record.MiddlewareScriptId === scriptId)
    .sort((a, b) => Number(a.record.Id) - Number(b.record.Id));
}

function systemHostOf(zone: StoredPullZone): string {
  return `${String(zone.record.Name)}${SYSTEM_HOSTNAME_SUFFIX}`;
}

/**
 * The hostnames of a standalone script: those of the first pull zone fronting it (its system
 * hostname, and as the default its first custom hostname, else the system one). Null without
 * such a zone (a middleware or DNS script, or one created without a pull zone).
 */
function hostnamesOf(state: SimState, script: StoredScript): JsonObject {
  const front = linkedZones(state, script.Id).find((z) => z.record.EdgeScriptId === script.Id);
  if (!front) return { DefaultHostname: null, SystemHostname: null };
  const custom = ((front.record.Hostnames as JsonObject[] | undefined) ?? []).find(
    (h) => h.IsSystemHostname !== true,
  );
  const system = systemHostOf(front);
  return { DefaultHostname: custom ? String(custom.Value) : system, SystemHostname: system };
}

function linkedPullZonesOf(state: SimState, script: StoredScript): JsonObject[] {
  return linkedZones(state, script.Id).map((z) => ({
    Id: z.record.Id,
    PullZoneName: z.record.Name,
    DefaultHostname: systemHostOf(z),
  }));
}

/**
 * The EdgeScriptModel of a script, members in the document's order; `LinkedPullZones` null
 * unless asked for (the list's `includeLinkedPullzones`; a single read always has them).
 */
export function renderScript(
  state: SimState,
  script: StoredScript,
  withLinkedZones = true,
): JsonObject {
  const hosts = hostnamesOf(state, script);
  return {
    Id: script.Id,
    Name: script.Name,
    LastModified: script.LastModified,
    ScriptType: script.ScriptType,
    CurrentReleaseId: script.CurrentReleaseId,
    EdgeScriptVariables: script.variables.map((v) => ({ ...v })),
    Deleted: false,
    LinkedPullZones: withLinkedZones ? linkedPullZonesOf(state, script) : null,
    Integration: null,
    DefaultHostname: hosts.DefaultHostname,
    SystemHostname: hosts.SystemHostname,
    DeploymentKey: script.DeploymentKey,
    RepositoryId: null,
    IntegrationId: null,
    MonthlyCost: 0,
    MonthlyRequestCount: 0,
    MonthlyCpuTime: 0,
  };
}

/** An EdgeScriptReleaseModel with its Status (Live for the script's current release). */
export function renderRelease(script: StoredScript, release: JsonObject): JsonObject {
  return {
    Id: release.Id,
    Deleted: false,
    Code: release.Code,
    Uuid: release.Uuid,
    Note: release.Note,
    Author: release.Author,
    AuthorEmail: release.AuthorEmail,
    CommitSha: release.CommitSha,
    Status: release.Id === script.CurrentReleaseId ? RELEASE_LIVE : RELEASE_ARCHIVED,
    DateReleased: release.DateReleased,
    DatePublished: release.DatePublished,
  };
}

/** The secret's read model (EdgeScriptSecretModel): never its value nor its digest. */
export function renderSecret(secret: StoredSecret): JsonObject {
  return { Id: secret.Id, Name: secret.Name, LastModified: secret.LastModified };
}
