/**
 * The DNS-01 solver as cert-manager calls it (issue 52): an aggregated API group served over
 * HTTPS behind the kube-apiserver. cert-manager POSTs a `ChallengePayload` to
 * `/apis/<group>/<version>/<solverName>`; the apiserver proxies it here with its front-proxy
 * client certificate and the caller's identity in request headers.
 *
 * Every request but `/healthz` must come from the front proxy: a client certificate signed by
 * the request-header CA (the `extension-apiserver-authentication` ConfigMap), with a common name
 * among the allowed names when the apiserver lists any. The caller named in the username and
 * group headers must then be allowed `create` on the solver resource (a SubjectAccessReview,
 * `authorize`): a request straight to the pod, or from a caller RBAC does not allow, is refused
 * before anything is read. Discovery (`/apis`, the group, the version) is answered so that the
 * aggregator and cert-manager find the resource.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { BodyTooLarge, listen, readBody } from '../common/http-listener.js';
import {
  CHALLENGE_API_VERSION,
  type ChallengeRequest,
  type ChallengeResponse,
} from './challenge.js';
import type { SolveOutcome } from './solve.js';

/** What the front proxy's configuration says (kube-system/extension-apiserver-authentication). */
export interface RequestHeaderAuth {
  /** PEM of the CA that signs the front proxy's client certificates. */
  clientCa: string;
  /** Common names the front proxy's certificate may have; empty: any signed by the CA. */
  allowedNames: readonly string[];
  /** Headers naming the user (first one present wins). */
  usernameHeaders: readonly string[];
  /** Headers listing the groups. */
  groupHeaders: readonly string[];
}

/** Options of {@link startSolverWebhook}. */
export interface SolverWebhookOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** PEM serving certificate and key. */
  tlsCert: string;
  tlsKey: string;
  /** Undefined while the apiserver publishes none: every request but the health checks is refused. */
  auth: RequestHeaderAuth | undefined;
  /** The API group (`acme.cdn.operator.io`) and version (`v1alpha1`) of the APIService. */
  group: string;
  version: string;
  /** The resource cert-manager names as `solverName` in its Issuer. */
  solverName: string;
  /** True when `user` (with `groups`) may create the solver resource (a SubjectAccessReview). */
  authorize(user: string, groups: readonly string[]): Promise<boolean>;
  solve(req: ChallengeRequest): Promise<SolveOutcome>;
  log: Logger;
}

/** A running webhook. */
export interface SolverWebhook {
  port: number;
  /**
   * Serves new connections with this certificate and request-header configuration (the
   * certificate renewed, the ConfigMap changed); undefined members keep their current value.
   */
  update(next: { tlsCert?: string; tlsKey?: string; auth?: RequestHeaderAuth | null }): void;
  close(): Promise<void>;
}

/** The TLS settings of the server: the serving pair and the CA of the front proxy's certificates. */
function tlsOptions(
  cert: string,
  key: string,
  auth: RequestHeaderAuth | undefined,
): { cert: string; key: string; ca: string | string[] } {
  // Without a request-header CA Node would check client certificates against its public roots:
  // harmless (no auth refuses every request) but pointless, so an empty list instead.
  return { cert, key, ca: auth?.clientCa ?? [] };
}

const MAX_BODY_BYTES = 64 * 1024;

type Json = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: Json): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A Kubernetes `Status` failure. */
function status(res: ServerResponse, code: number, reason: string, message: string): void {
  send(res, code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code });
}

/** The identity the front proxy vouches for, or undefined when the request is not from it. */
export function proxiedIdentity(
  req: IncomingMessage,
  auth: RequestHeaderAuth,
): { user: string; groups: string[] } | undefined {
  const socket = req.socket as TLSSocket;
  if (!socket.authorized) return undefined;
  const cn = socket.getPeerCertificate()?.subject?.CN;
  const name = Array.isArray(cn) ? cn[0] : cn;
  if (auth.allowedNames.length > 0 && (!name || !auth.allowedNames.includes(name)))
    return undefined;
  const user = auth.usernameHeaders
    .map((h) => req.headers[h.toLowerCase()])
    .find((v) => typeof v === 'string' && v !== '');
  if (typeof user !== 'string') return undefined;
  // One group per header line (a group may contain a comma): the lines as sent, not joined.
  const groups = auth.groupHeaders.flatMap((h) => req.headersDistinct[h.toLowerCase()] ?? []);
  return { user, groups };
}

/** What is wrong with the fields of a ChallengePayload's request, if anything. */
function checkFields(r: Json): string | undefined {
  // cert-manager's webhook client never sets the uid (v1.21 sends `"uid": ""`): it must be a
  // string, echoed back as sent, and may be empty.
  if (typeof r.uid !== 'string') return 'request.uid must be a string';
  for (const field of ['action', 'type', 'key', 'resourceNamespace', 'resolvedFQDN'])
    if (typeof r[field] !== 'string' || r[field] === '')
      return `request.${field} must be a non-empty string`;
  return undefined;
}

/** The `request` of a ChallengePayload, or a sentence saying what is wrong with it. */
export function parseChallenge(text: string): ChallengeRequest | string {
  let payload: Json;
  try {
    payload = JSON.parse(text) as Json;
  } catch {
    return 'the body is not JSON';
  }
  const r = payload?.request as Json | undefined;
  if (typeof r !== 'object' || r === null) return 'the ChallengePayload has no request';
  const missing = checkFields(r);
  if (missing) return missing;
  if (r.action !== 'Present' && r.action !== 'CleanUp')
    return `request.action ${JSON.stringify(r.action)} must be Present or CleanUp`;
  return r as unknown as ChallengeRequest;
}

/** Discovery documents of the group. */
function discovery(o: SolverWebhookOptions, path: string): Json | undefined {
  const gv = `${o.group}/${o.version}`;
  const group = {
    name: o.group,
    versions: [{ groupVersion: gv, version: o.version }],
    preferredVersion: { groupVersion: gv, version: o.version },
  };
  if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: [group] };
  if (path === `/apis/${o.group}`) return { kind: 'APIGroup', apiVersion: 'v1', ...group };
  if (path !== `/apis/${gv}`) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: gv,
    resources: [
      {
        name: o.solverName,
        singularName: o.solverName,
        namespaced: false,
        kind: 'ChallengePayload',
        verbs: ['create'],
      },
    ],
  };
}

async function handleChallenge(
  o: SolverWebhookOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let text: string;
  try {
    text = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
  } catch (err) {
    if (err instanceof BodyTooLarge)
      return status(res, 413, 'RequestEntityTooLarge', 'the body is over 64 KiB');
    throw err;
  }
  const parsed = parseChallenge(text);
  if (typeof parsed === 'string')
    return status(res, 400, 'BadRequest', `cannot read the ChallengePayload: ${parsed}`);
  const outcome = await o.solve(parsed);
  o.log.info(
    {
      action: parsed.action,
      namespace: parsed.resourceNamespace,
      fqdn: parsed.resolvedFQDN,
      result: outcome.result,
      zone: outcome.zone,
    },
    'DNS-01 challenge',
  );
  const response: ChallengeResponse = outcome.response;
  send(res, 200, { apiVersion: CHALLENGE_API_VERSION, kind: 'ChallengePayload', response });
}

function sendDiscovery(o: SolverWebhookOptions, path: string, res: ServerResponse): void {
  const doc = discovery(o, path);
  if (doc) send(res, 200, doc);
  else status(res, 404, 'NotFound', `no ${path}`);
}

/** The caller the front proxy vouches for; otherwise the refusal is sent and undefined answered. */
function frontProxyCaller(
  o: SolverWebhookOptions,
  req: IncomingMessage,
  res: ServerResponse,
): { user: string; groups: string[] } | undefined {
  if (!o.auth) {
    status(
      res,
      503,
      'ServiceUnavailable',
      'the kube-apiserver publishes no request-header configuration (kube-system/extension-apiserver-authentication): the solver cannot tell the front proxy from anyone else',
    );
    return undefined;
  }
  const who = proxiedIdentity(req, o.auth);
  if (!who)
    status(res, 401, 'Unauthorized', 'only the kube-apiserver front proxy may call the solver');
  return who;
}

async function route(
  o: SolverWebhookOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'https://solver').pathname;
  if (path === '/healthz' || path === '/readyz') return send(res, 200, { status: 'ok' });
  const who = frontProxyCaller(o, req, res);
  if (!who) return;
  if (req.method === 'GET') return sendDiscovery(o, path, res);
  if (req.method !== 'POST' || path !== `/apis/${o.group}/${o.version}/${o.solverName}`)
    return status(res, 404, 'NotFound', `no ${req.method ?? ''} ${path}`);
  if (!(await o.authorize(who.user, who.groups)))
    return status(res, 403, 'Forbidden', `${who.user} may not create ${o.solverName}.${o.group}`);
  return handleChallenge(o, req, res);
}

/** Starts the webhook (see the module comment). */
export async function startSolverWebhook(options: SolverWebhookOptions): Promise<SolverWebhook> {
  // A copy: update() changes what later requests see.
  const o = { ...options };
  const server: Server = createServer(
    {
      ...tlsOptions(o.tlsCert, o.tlsKey, o.auth),
      requestCert: true,
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    },
    (req, res) => {
      route(o, req, res).catch((err: unknown) => {
        o.log.error({ err }, 'DNS-01 solver request failed');
        if (!res.headersSent) status(res, 500, 'InternalError', 'the solver failed; see its log');
      });
    },
  );
  const port = await listen(server, o.port, o.host);
  return {
    port,
    update: (next) => {
      if (next.tlsCert !== undefined) o.tlsCert = next.tlsCert;
      if (next.tlsKey !== undefined) o.tlsKey = next.tlsKey;
      if (next.auth !== undefined) o.auth = next.auth ?? undefined;
      server.setSecureContext({
        ...tlsOptions(o.tlsCert, o.tlsKey, o.auth),
        minVersion: 'TLSv1.2',
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
