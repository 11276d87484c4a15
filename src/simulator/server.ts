/**
 * cdn-sim server: one `node:http` listener serving the core API (`/pullzone`, `/storagezone`,
 * `/videolibrary`, `/apikey`), container apps (`/mc/apps`) and shield (`/shield`) from one
 * base URL like https://api.bunny.net, plus the admin API under `/_sim/`.
 *
 * Request pipeline: route match -> body read -> rate limit (429) -> latency -> dropped
 * connection -> injected 5xx -> echoed body (400, fault `echoBodyRoutes`) -> AccessKey (401) ->
 * live binding -> strict document check (400) -> handler -> commit-then-drop -> response. Documented operations cdn-sim does not simulate
 * answer 501.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { createLogger } from '../log.js';
import { BodyTooLarge, listen, readBody } from '../common/http-listener.js';
import {
  startDnsListener,
  type DnsListener,
  type DnsListenerOptions,
} from './dns-server/listener.js';
import { handleAdmin } from './admin.js';
import { isAdmin, KeyRing, type ApiKeyConfig } from './auth.js';
import { CallRecorder, type CallDetails } from './calls.js';
import { echoedBody, malformedBody, serverError, unauthorized } from './errors.js';
import { checkFaultConfig, FaultInjector, type FaultConfig } from './faults.js';
import { loadStateFile, StateSaver } from './persistence.js';
import { Router } from './router.js';
import { admitRequest } from './documents/gate.js';
import { defaultDocumentsDir, loadDocuments } from './documents/load.js';
import type { Binder } from './documents/binding.js';
import type { DocumentSchemas } from './documents/schemas.js';
import { setUpDocuments, type DocumentSetup } from './documents/setup.js';
import { documentedResponse, type ResponseMode } from './documents/responses.js';
import type { ApiDocuments } from './documents/load.js';
import { createState, type SimState } from './state.js';
import type { RouteDef, SimRequest, SimResponse } from './types.js';
import { simulatedRoutes } from './routes/all-routes.js';
import { unsimulatedRoutes } from './routes/unsimulated.js';
import { applyDnsOptions, type DnsOptions } from './dns-admin.js';
import { applySeed, type Dispatch } from './seed-apply.js';
import type { SeedFile } from './seed-file.js';
import {
  startStorageListener,
  type StorageListener,
  type StorageOptions,
} from './storage/storage-server.js';

export type { ApiKeyConfig } from './auth.js';
export type { FaultConfig } from './faults.js';
export type { StorageOptions } from './storage/storage-server.js';

/** Options of startSimulator (`dnsCheck`, `externalDns`: see dns-admin.ts). */
export interface SimulatorOptions extends DnsOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Listen address; default 127.0.0.1. */
  host?: string;
  /** Accepted AccessKey values and their roles (listed by `GET /apikey`). */
  apiKeys: ApiKeyConfig[];
  /** Token for `/_sim/*`; generated when absent. */
  adminToken?: string;
  /** Save state here and reload it at start. */
  stateFile?: string;
  logger?: Logger;
  faults?: FaultConfig;
  /** Entries kept in the call log (default 10000). */
  callLogLimit?: number;
  /**
   * Check every request against the official documents and answer 400 when they reject it,
   * and record every request that did not match them exactly (default true). Off only for
   * experiments: the platform validates as documented. Requests are bound like the live
   * platform binds them (documents/binding.ts) either way.
   */
  strict?: boolean;
  /** Directory of the official documents (default: see documents/load.ts). */
  openApiDir?: string;
  /**
   * `full` (default): answers as the simulator builds them. `documented`: every answer carries
   * only the members and the success status the official document declares for its operation
   * (contract-exceptions.ts wins), see documents/responses.ts.
   */
  responses?: ResponseMode;
  /**
   * The storage endpoint for files (storage/storage-server.ts), on its own listener: on by
   * default (a free port, plain HTTP, records showing the platform's storage host names);
   * `false` turns it off.
   */
  storage?: StorageOptions | false;
  /**
   * A DNS listener (UDP and TCP on one port) serving the simulated zones' records
   * (dns-server/listener.ts): off by default; `{}` picks a free port.
   */
  dns?: DnsListenerOptions | false;
  /**
   * What the account holds before any request (seed-file.ts), applied through the request
   * pipeline to a fresh state (no state file yet) and again after each `POST /_sim/reset`.
   */
  seed?: SeedFile;
  /**
   * Test only (never set by the CLI): routes beside the documented ones, e.g. the CRUD surface
   * of a throwaway kind (test/support/sim-gadgets.ts). They go through the same pipeline
   * (faults, AccessKey, call log) but not the document gate, after the documented ones.
   */
  testRoutes?: readonly RouteDef[];
}

/** A running simulator. */
export interface SimulatorHandle {
  /** Base URL without trailing slash, e.g. http://127.0.0.1:PORT. */
  url: string;
  /** Base URL of the storage endpoint (`http(s)://127.0.0.1:PORT`); absent when it is off. */
  storageUrl?: string;
  /** `host:port` of the DNS listener (UDP and TCP); absent when it is off. */
  dnsAddress?: string;
  adminToken: string;
  port: number;
  /** In-process access for tests. */
  state: SimState;
  calls: CallRecorder;
  faults: FaultInjector;
  /** Writes the state file now (no-op without `stateFile`). */
  saveState(): Promise<void>;
  /** Stops listening, drops open connections and saves state. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

interface Deps {
  router: Router<RouteDef>;
  keys: KeyRing;
  adminToken: string;
  state: SimState;
  calls: CallRecorder;
  faults: FaultInjector;
  saver: StateSaver | undefined;
  logger: Logger;
  /** Binds requests like the live platform; absent only when --no-strict cannot read the documents. */
  binder: Binder | undefined;
  /** Present in strict mode. */
  schemas: DocumentSchemas | undefined;
  /** Present in the documented response mode. */
  responseDocuments: ApiDocuments | undefined;
  /** Applies the seed file again (after a reset); absent without one. */
  reseed: (() => void) | undefined;
}

function send(res: ServerResponse, response: SimResponse): void {
  const headers: Record<string, string | number> = { ...response.headers };
  if (response.body === undefined) {
    headers['content-length'] = 0;
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  const text = typeof response.body === 'string' && response.contentType !== undefined;
  const payload = text ? (response.body as string) : JSON.stringify(response.body);
  headers['content-type'] = text ? response.contentType! : 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(response.status, headers);
  res.end(payload);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, reason: `body is not valid JSON: ${(err as Error).message}` };
  }
}

/**
 * A file upload route (`rawBody`) gets the text as it came (a binary one its bytes in
 * `rawBytes`, the text then unused); every other route JSON.
 */
function parseRequestBody(route: RouteDef, rawBody: string): ReturnType<typeof parseJson> {
  if (route.rawBody === 'binary') return { ok: true, value: undefined };
  if (route.rawBody) return { ok: true, value: rawBody === '' ? undefined : rawBody };
  return parseJson(rawBody);
}

function splitUrl(rawUrl: string): { path: string; query: URLSearchParams } {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  return { path, query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)) };
}

function handleAdminRequest(
  deps: Deps,
  req: SimRequest,
  rawBody: string,
  res: ServerResponse,
): void {
  if (!isAdmin(req.headers, deps.adminToken)) {
    send(res, { status: 401, body: { error: 'X-Sim-Admin-Token header missing or wrong' } });
    return;
  }
  const parsed = parseJson(rawBody);
  if (!parsed.ok) {
    send(res, { status: 400, body: { error: parsed.reason } });
    return;
  }
  req.body = parsed.value;
  const before = deps.state.revision;
  let response = handleAdmin(req, deps);
  if (req.method === 'POST' && req.path === '/_sim/reset' && response.status < 300) {
    response = reseedAfterReset(deps) ?? response;
  }
  if (deps.state.revision !== before) deps.saver?.schedule();
  send(res, response);
}

/** The seed applied again after a reset; an error answer when it is refused. */
function reseedAfterReset(deps: Deps): SimResponse | undefined {
  try {
    deps.reseed?.();
    return undefined;
  } catch (err) {
    deps.logger.error({ err: (err as Error).message }, 'Cannot apply the seed after a reset');
    return { status: 500, body: { error: (err as Error).message } };
  }
}

/** Faults that answer (or drop) before the handler runs; true when the request is done. */
async function applyPreFaults(
  deps: Deps,
  route: RouteDef,
  req: SimRequest,
  res: ServerResponse,
): Promise<boolean> {
  const key = `${route.method} ${route.template}`;
  const retryAfter = deps.faults.takeToken();
  if (retryAfter !== undefined) {
    finish(deps, res, req, key, { status: 429, headers: { 'retry-after': String(retryAfter) } });
    return true;
  }
  const delay = deps.faults.sampleLatency();
  if (delay > 0) await sleep(delay);
  if (deps.faults.shouldDrop(key)) {
    drop(deps, res, req, key);
    return true;
  }
  if (deps.faults.shouldFail(key)) {
    finish(deps, res, req, key, serverError(route.area, 500, req.path));
    return true;
  }
  return false;
}

function finish(
  deps: Deps,
  res: ServerResponse,
  req: SimRequest,
  key: string,
  response: SimResponse,
): void {
  deps.calls.record(req.method, key, req.path, response.status, callDetails(deps, req));
  if (deps.logger.isLevelEnabled('debug')) {
    deps.logger.debug(
      { method: req.method, route: key, status: response.status },
      'Handled request',
    );
  }
  send(res, response);
}

/**
 * Caller tag, the index of the key used (never the key) and, for writes, the name the body
 * carries (call log details).
 */
function callDetails(deps: Deps, req: SimRequest, committed = false): CallDetails {
  const out: CallDetails = { key: deps.keys.authenticate(req.headers) };
  const client = req.headers['x-sim-client'];
  if (typeof client === 'string' && client !== '') out.client = client.slice(0, 100);
  const body = req.body as { Name?: unknown; name?: unknown } | undefined;
  const name = req.method !== 'GET' && body ? (body.Name ?? body.name) : undefined;
  if (typeof name === 'string') out.name = name.slice(0, 200);
  if (committed) out.committed = true;
  return out;
}

function drop(
  deps: Deps,
  res: ServerResponse,
  req: SimRequest,
  key: string,
  committed = false,
): void {
  deps.calls.record(req.method, key, req.path, 0, callDetails(deps, req, committed));
  deps.logger.debug({ method: req.method, route: key }, 'Dropped connection');
  res.socket?.destroy();
}

function runHandler(deps: Deps, route: RouteDef, req: SimRequest): SimResponse {
  const key = `${route.method} ${route.template}`;
  if (deps.keys.authenticate(req.headers) < 0) return unauthorized(route.area, key, req.path);
  const rejection = route.testOnly ? undefined : admitRequest(deps, route, req);
  if (rejection) return rejection;
  try {
    return route.handler(req, { state: deps.state });
  } catch (err) {
    deps.logger.error({ err, route: key }, 'Handler failed');
    return serverError(route.area, 500, req.path);
  }
}

/** The handler's answer as the documented response mode shows it (a test route's: as is). */
function projected(deps: Deps, route: RouteDef, handled: SimResponse): SimResponse {
  if (!deps.responseDocuments || route.testOnly) return handled;
  return documentedResponse(deps.responseDocuments, route, handled);
}

async function handleApiRequest(
  deps: Deps,
  route: RouteDef,
  req: SimRequest,
  rawBody: string,
  res: ServerResponse,
): Promise<void> {
  if (await applyPreFaults(deps, route, req, res)) return;
  const key = `${route.method} ${route.template}`;
  const parsed = parseRequestBody(route, rawBody);
  if (!parsed.ok) {
    finish(deps, res, req, key, malformedBody(route.area, req.path, parsed.reason));
    return;
  }
  req.body = parsed.value;
  if (deps.faults.shouldEchoBody(req.method, key)) {
    const echo = deps.faults.echoText(rawBody, req.headers.accesskey);
    finish(deps, res, req, key, echoedBody(route.area, req.path, echo));
    return;
  }
  const hold = deps.faults.commitDelay(req.method, key);
  if (hold > 0) await sleep(hold);
  const before = deps.state.revision;
  const handled = runHandler(deps, route, req);
  const response = deps.faults.shapeResponse(req.method, key, projected(deps, route, handled));
  if (deps.state.revision !== before) deps.saver?.schedule();
  if (response.status < 400 && deps.faults.shouldCommitThenDrop(req.method, key)) {
    drop(deps, res, req, key, true);
    return;
  }
  finish(deps, res, req, key, response);
}

/** cdn-sim's own endpoints (`/_sim...`), outside the API. */
function isAdminPath(path: string): boolean {
  return path === '/_sim' || path.startsWith('/_sim/');
}

/** The body, up to the route's limit; undefined once a 413 (or 400) has been answered. */
async function readRequestBody(
  incoming: IncomingMessage,
  res: ServerResponse,
  route: RouteDef | undefined,
): Promise<Buffer | undefined> {
  try {
    return await readBody(incoming, route?.maxBodyBytes ?? MAX_BODY_BYTES);
  } catch (err) {
    send(res, { status: err instanceof BodyTooLarge ? 413 : 400 });
    return undefined;
  }
}

/** 404 for a path no route has, 405 (with Allow) for a method its route lacks. */
function sendUnmatched(
  deps: Deps,
  res: ServerResponse,
  { method, path }: { method: string; path: string },
  match: { kind: 'not-found' } | { kind: 'method-not-allowed'; allow: string[] },
): void {
  const status = match.kind === 'not-found' ? 404 : 405;
  deps.calls.record(method, `${method} (unmatched)`, path, status);
  send(res, {
    status,
    headers: match.kind === 'not-found' ? {} : { allow: match.allow.join(', ') },
  });
}

async function handleRequest(
  deps: Deps,
  incoming: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const method = incoming.method ?? 'GET';
  const { path, query } = splitUrl(incoming.url ?? '/');
  const req: SimRequest = {
    method,
    path,
    query,
    params: {},
    body: undefined,
    headers: incoming.headers,
  };
  const match = isAdminPath(path) ? undefined : deps.router.match(method, path);
  // The route decides how much body it takes (an image upload more than a JSON body).
  const bytes = await readRequestBody(
    incoming,
    res,
    match?.kind === 'found' ? match.route : undefined,
  );
  if (!bytes) return;
  const rawBody = bytes.toString('utf8');
  if (!match) {
    handleAdminRequest(deps, req, rawBody, res);
    return;
  }
  if (match.kind !== 'found') {
    sendUnmatched(deps, res, { method, path }, match);
    return;
  }
  if (match.route.rawBody === 'binary') req.rawBytes = bytes;
  req.params = match.params;
  await handleApiRequest(deps, match.route, req, rawBody, res);
}

/**
 * Sends seed requests through the pipeline with a configured key (no call is logged); the
 * document notes of those requests are forgotten afterwards, so a test's count starts at zero.
 */
function seedDispatch(deps: Deps, key: string): Dispatch {
  return (method, path, body) => {
    const match = deps.router.match(method, path);
    if (match.kind !== 'found') return { status: 404 };
    return runHandler(deps, match.route, {
      method,
      path,
      query: new URLSearchParams(),
      params: match.params,
      body: structuredClone(body),
      headers: { accesskey: key },
    });
  };
}

/** Arms `deps.reseed` with the seed file and applies it to a fresh state. */
function setUpSeed(deps: Deps, options: SimulatorOptions, fresh: boolean): void {
  const seed = options.seed;
  if (!seed) return;
  const dispatch = seedDispatch(deps, options.apiKeys[0]!.key);
  deps.reseed = () => {
    applySeed(seed, dispatch, deps.state);
    deps.calls.reset();
  };
  if (fresh) deps.reseed();
}

/**
 * The simulated routes, then a 501 route for each documented operation among none of them,
 * then the routes a test installed (marked `testOnly`).
 */
function allRoutes(options: SimulatorOptions, documents: ApiDocuments | undefined): RouteDef[] {
  const simulated = simulatedRoutes(options.apiKeys);
  const unsimulated = documents ? unsimulatedRoutes(documents, simulated) : [];
  const extra = (options.testRoutes ?? []).map((r) => ({ ...r, testOnly: true }));
  return [...simulated, ...unsimulated, ...extra];
}

function checkOptions(options: SimulatorOptions): void {
  if (options.apiKeys.length === 0)
    throw new Error('cannot start simulator: at least one API key is required');
  if (options.apiKeys.some((k) => typeof k.key !== 'string' || k.key === '')) {
    throw new Error('cannot start simulator: API keys must be non-empty strings');
  }
  const faultProblem = options.faults ? checkFaultConfig(options.faults) : undefined;
  if (faultProblem) throw new Error(`cannot start simulator: invalid faults: ${faultProblem}`);
}

/** The documents the documented response mode projects onto; undefined in full mode. */
function responseDocumentsOf(
  options: SimulatorOptions,
  setup: DocumentSetup,
): ApiDocuments | undefined {
  if (options.responses !== 'documented') return undefined;
  return setup.documents ?? loadDocuments(options.openApiDir ?? defaultDocumentsDir());
}

/** The state, and whether it is fresh (no state file to restore: the seed applies). */
function buildState(options: SimulatorOptions): { state: SimState; fresh: boolean } {
  const state = createState();
  // Throws StateFileError for a corrupt file before anything is written.
  const snapshot = options.stateFile ? loadStateFile(options.stateFile) : undefined;
  if (snapshot) state.restore(snapshot);
  applyDnsOptions(state, options);
  return { state, fresh: snapshot === undefined };
}

/** The storage listener, unless turned off; a failure closes the API listener first. */
async function startStorage(
  options: SimulatorOptions,
  host: string,
  deps: Deps,
  server: Server,
): Promise<StorageListener | undefined> {
  if (options.storage === false) return undefined;
  try {
    return await startStorageListener(options.storage ?? {}, host, {
      state: deps.state,
      calls: deps.calls,
      logger: deps.logger,
      onChange: () => deps.saver?.schedule(),
    });
  } catch (err) {
    server.close();
    throw err;
  }
}

/** The DNS listener when asked for; a failure closes the other listeners first. */
async function startDns(
  options: SimulatorOptions,
  host: string,
  deps: Deps,
  others: [Server, StorageListener | undefined],
): Promise<DnsListener | undefined> {
  if (!options.dns) return undefined;
  try {
    return await startDnsListener(deps.state, host, options.dns, deps.logger);
  } catch (err) {
    others[0].close();
    await others[1]?.close();
    throw err;
  }
}

/** Everything a request needs, from the options and the state. */
function buildDeps(options: SimulatorOptions, state: SimState, logger: Logger): Deps {
  const setup = setUpDocuments(options.strict !== false, options.openApiDir, logger);
  return {
    router: new Router(allRoutes(options, setup.documents)),
    keys: new KeyRing(options.apiKeys),
    adminToken: options.adminToken ?? randomBytes(24).toString('base64url'),
    state,
    calls: new CallRecorder(options.callLogLimit),
    faults: new FaultInjector(options.faults ?? {}),
    saver: options.stateFile ? new StateSaver(options.stateFile, state, logger) : undefined,
    logger,
    binder: setup.binder,
    schemas: setup.schemas,
    responseDocuments: responseDocumentsOf(options, setup),
    reseed: undefined,
  };
}

/**
 * Starts the simulator. Rejects with StateFileError when `stateFile` exists but is corrupt
 * (the file is left as it is), with SeedApplyError when the API refuses an item of `seed`, and
 * with an Error for invalid options.
 */
export async function startSimulator(options: SimulatorOptions): Promise<SimulatorHandle> {
  checkOptions(options);
  const logger = options.logger ?? createLogger({ name: 'cdn-sim', level: 'warn' });
  const { state, fresh } = buildState(options);
  const deps = buildDeps(options, state, logger);
  const { adminToken, saver } = deps;
  setUpSeed(deps, options, fresh);
  const server = createServer({ keepAliveTimeout: 30_000 }, (incoming, res) => {
    handleRequest(deps, incoming, res).catch((err: unknown) => {
      logger.error({ err }, 'Request failed');
      if (!res.headersSent) send(res, { status: 500 });
    });
  });
  const host = options.host ?? '127.0.0.1';
  const port = await listen(server, options.port ?? 0, host);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const storage = await startStorage(options, host, deps, server);
  const dns = await startDns(options, host, deps, [server, storage]);
  logger.info(
    {
      url,
      storageUrl: storage?.url,
      dnsAddress: dns?.address,
      keys: options.apiKeys.length,
      stateFile: options.stateFile,
    },
    'Simulator listening',
  );
  return {
    url,
    ...(storage ? { storageUrl: storage.url } : {}),
    ...(dns ? { dnsAddress: dns.address } : {}),
    adminToken,
    port,
    state,
    calls: deps.calls,
    faults: deps.faults,
    saveState: async () => saver?.flush(),
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        storage?.close(),
        dns?.close(),
      ]);
      await saver?.flush();
    },
  };
}
