/**
 * Edge scripts (`/compute/script...`, the compute document): list, get, add, update, delete,
 * the code, the deployment key and statistics. Every `DeploymentKey` an answer carries is
 * registered with the transport as a secret before the answer reaches the caller, so no error
 * text can carry it. Creates and key rotations are retried only after a 429 (a lost answer may
 * have done them); updates and code uploads set absolute values and are retried like reads.
 * Releases are in edge-script-releases.ts, variables and secrets in edge-script-env.ts.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { fetchPages } from './core-pages.js';
import { expectObject } from './response.js';
import type {
  EdgeScript,
  EdgeScriptAddRequest,
  EdgeScriptCode,
  EdgeScriptListQuery,
  EdgeScriptStatistics,
  EdgeScriptStatisticsQuery,
  EdgeScriptUpdate,
} from './edge-script-types.js';
import { checkId, checkNonEmpty, isoDate } from './validate.js';

/** Longest script name the document allows. */
const NAME_MAX = 100;

/** A script as the caller gets it: its deployment key registered as a secret first. */
export function readScript(http: HttpTransport, operation: string, body: unknown): EdgeScript {
  const script = expectObject<EdgeScript>(http, operation, body);
  http.registerSecret(script.DeploymentKey);
  return script;
}

function checkName(http: HttpTransport, operation: string, name: string | null | undefined): void {
  if (name === undefined || name === null) return;
  checkNonEmpty(http, operation, 'Name', name);
  if ([...name].length > NAME_MAX) {
    const why = `Name must be at most ${NAME_MAX} characters, got ${[...name].length}`;
    throw http.failure(operation, 'invalid', why, { field: 'Name' });
  }
}

/** Scripts of the account (filtered by type and name); every page is followed. */
export async function listEdgeScripts(
  http: HttpTransport,
  query: EdgeScriptListQuery,
  opts?: PagedCallOptions,
): Promise<EdgeScript[]> {
  const operation = 'listEdgeScripts';
  const items = await fetchPages<unknown>(
    http,
    {
      operation,
      path: '/compute/script',
      query: {
        type: query.type,
        search: query.search,
        includeLinkedPullzones: query.includeLinkedPullZones,
      },
    },
    { perPage: opts?.pageSize },
    opts,
  );
  return items.map((item) => readScript(http, operation, item));
}

/** One script (`notFound` when it does not exist). */
export async function getEdgeScript(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<EdgeScript> {
  const operation = 'getEdgeScript';
  checkId(http, operation, 'id', id);
  const res = await http.request(
    { operation, method: 'GET', path: pathOf`/compute/script/${id}` },
    opts,
  );
  return readScript(http, operation, res.body);
}

/** Adds a script (201 with it). Retried only after a 429. */
export async function addEdgeScript(
  http: HttpTransport,
  body: EdgeScriptAddRequest,
  opts?: CallOptions,
): Promise<EdgeScript> {
  const operation = 'addEdgeScript';
  checkNonEmpty(http, operation, 'Name', body.Name ?? '');
  checkName(http, operation, body.Name);
  const res = await http.request(
    { operation, method: 'POST', path: '/compute/script', body, idempotent: false },
    opts,
  );
  const script = readScript(http, operation, res.body);
  if (typeof script.Id !== 'number')
    throw http.failure(operation, 'server', 'unexpected answer: no script id');
  return script;
}

/** Changes a script's name or type (members left out keep their value). */
export async function updateEdgeScript(
  http: HttpTransport,
  id: number,
  body: EdgeScriptUpdate,
  opts?: CallOptions,
): Promise<EdgeScript> {
  const operation = 'updateEdgeScript';
  checkId(http, operation, 'id', id);
  checkName(http, operation, body.Name);
  const path = pathOf`/compute/script/${id}`;
  const res = await http.request({ operation, method: 'POST', path, body, idempotent: true }, opts);
  return readScript(http, operation, res.body);
}

/**
 * Deletes a script. The pull zones linked to it are deleted with `deleteLinkedPullZones`;
 * without, a zone fronting it gets the platform's landing page as origin and a zone running it
 * as middleware drops it.
 */
export async function deleteEdgeScript(
  http: HttpTransport,
  id: number,
  deleteLinkedPullZones: boolean,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteEdgeScript';
  checkId(http, operation, 'id', id);
  await http.request(
    {
      operation,
      method: 'DELETE',
      path: pathOf`/compute/script/${id}`,
      query: { deleteLinkedPullZones },
    },
    opts,
  );
}

/** The code as last set (null when none was). */
export async function getEdgeScriptCode(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<EdgeScriptCode> {
  const operation = 'getEdgeScriptCode';
  checkId(http, operation, 'id', id);
  const path = pathOf`/compute/script/${id}/code`;
  const res = await http.request({ operation, method: 'GET', path }, opts);
  return expectObject<EdgeScriptCode>(http, operation, res.body);
}

/** Sets the code (publishes nothing: see publishEdgeScript). */
export async function setEdgeScriptCode(
  http: HttpTransport,
  id: number,
  code: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'setEdgeScriptCode';
  checkId(http, operation, 'id', id);
  const path = pathOf`/compute/script/${id}/code`;
  await http.request(
    { operation, method: 'POST', path, body: { Code: code }, idempotent: true },
    opts,
  );
}

/** Replaces the deployment key; read the script for the new one. Retried only after a 429. */
export async function rotateEdgeScriptDeploymentKey(
  http: HttpTransport,
  id: number,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'rotateEdgeScriptDeploymentKey';
  checkId(http, operation, 'id', id);
  const path = pathOf`/compute/script/${id}/deploymentKey/rotate`;
  await http.request({ operation, method: 'POST', path, idempotent: false }, opts);
}

/** Usage over a range (default the last 30 days), charted per day or per hour. */
export async function getEdgeScriptStatistics(
  http: HttpTransport,
  id: number,
  query: EdgeScriptStatisticsQuery,
  opts?: CallOptions,
): Promise<EdgeScriptStatistics> {
  const operation = 'getEdgeScriptStatistics';
  checkId(http, operation, 'id', id);
  const res = await http.request(
    {
      operation,
      method: 'GET',
      path: pathOf`/compute/script/${id}/statistics`,
      query: {
        dateFrom: isoDate(http, operation, 'dateFrom', query.dateFrom),
        dateTo: isoDate(http, operation, 'dateTo', query.dateTo),
        hourly: query.hourly,
        loadLatest: query.loadLatest,
      },
    },
    opts,
  );
  return expectObject<EdgeScriptStatistics>(http, operation, res.body);
}
