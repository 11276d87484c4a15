/**
 * A small Kubernetes REST client. `@kubernetes/client-node` (pinned 1.4.0) is used only to
 * load the configuration (`--kubeconfig`, `KUBECONFIG`, `~/.kube/config`, in-cluster service
 * account) and to produce TLS material and auth headers; requests and watch streams go
 * through `node:https` here, because 1.4.0's `Watch` ignores its own 30 s timeout (the abort
 * signal is overwritten) and offers no inactivity detection, and because we want one place
 * that reports every request to the metrics hook.
 */
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { clampDelay } from '../common/timers.js';
import { KubeApiError } from './kube-api-error.js';
import { streamLines } from './watch-lines.js';

export { KubeApiError };

/** Loads a kubeconfig: explicit path, else KUBECONFIG / ~/.kube/config, else in-cluster. */
export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  if (!kc.getCurrentCluster()) {
    throw new Error('cannot load kubeconfig: no current cluster (set --kubeconfig or KUBECONFIG)');
  }
  return kc;
}

/** True for a Kubernetes API error with the given HTTP status. */
export function isKubeStatus(err: unknown, status: number): boolean {
  return err instanceof KubeApiError && err.statusCode === status;
}

/** One request to the API server. */
export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Defaults to application/json; use application/merge-patch+json for merge patches. */
  contentType?: string;
  signal?: AbortSignal;
  /** Socket inactivity timeout (default 30 s). */
  timeoutMs?: number;
  /** Verb label for metrics when it differs from the method (LIST, WATCH). */
  verb?: string;
}

/** Reported after every request (metrics). */
export interface KubeRequestEvent {
  verb: string;
  resource: string;
  /** HTTP status as a string, or `error` for a network failure. */
  code: string;
  durationMs: number;
}

interface Transport {
  baseUrl: URL;
  /** Short requests: at most {@link KUBE_REQUEST_SOCKETS} connections. */
  agent: HttpsAgent | HttpAgent;
  /** Watch streams: one connection each for as long as the stream lives. */
  watchAgent: HttpsAgent | HttpAgent;
  tls: Pick<RequestOptions, 'rejectUnauthorized' | 'servername'> & {
    secureContext?: SecureContext;
  };
}

/**
 * Most connections short requests open to the apiserver. HTTP/1.1 carries one request per
 * connection, and every new connection is a TLS handshake with a client certificate on both
 * sides; unbounded, a burst of passes (32 per kind, each writing a finalizer, a status and an
 * Event) opened more than a hundred of them at the start of a mass create, which held the event
 * loop for hundreds of milliseconds (issue 32, the first window) and cost the apiserver as much
 * again. Requests beyond the bound wait in the agent for a free connection; watches have an
 * agent of their own, so a long stream never takes a request's connection.
 */
export const KUBE_REQUEST_SOCKETS = 32;

const HEADER_TTL_MS = 30_000;
/** Longest Retry-After honoured from the API server (same bound as the CDN client's). */
const MAX_KUBE_RETRY_AFTER_MS = 600_000;

/** See the module comment. */
export class KubeClient {
  private headers?: { at: number; value: Promise<Record<string, string>> };

  private constructor(
    private readonly kc: KubeConfig,
    private readonly transport: Transport,
    private readonly onRequest?: (e: KubeRequestEvent) => void,
  ) {}

  /** Builds a client for the current context of `kc`. */
  static async create(
    kc: KubeConfig,
    onRequest?: (e: KubeRequestEvent) => void,
  ): Promise<KubeClient> {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('cannot create Kubernetes client: no current cluster');
    const opts: RequestOptions = {};
    await kc.applyToHTTPSOptions(opts);
    const baseUrl = new URL(cluster.server);
    // One TLS context for every connection: given CA, certificate and key instead, Node parses
    // them into a new context for each connection it opens.
    const tls = {
      ...(baseUrl.protocol === 'http:'
        ? {}
        : { secureContext: createSecureContext({ ca: opts.ca, cert: opts.cert, key: opts.key }) }),
      ...(cluster.skipTLSVerify ? { rejectUnauthorized: false } : {}),
      ...(cluster.tlsServerName ? { servername: cluster.tlsServerName } : {}),
    };
    const agentOf = (maxSockets?: number): HttpsAgent | HttpAgent => {
      const bound = maxSockets === undefined ? {} : { maxSockets };
      return baseUrl.protocol === 'http:'
        ? new HttpAgent({ keepAlive: true, ...bound })
        : new HttpsAgent({ keepAlive: true, ...bound, ...tls });
    };
    return new KubeClient(
      kc,
      { baseUrl, agent: agentOf(KUBE_REQUEST_SOCKETS), watchAgent: agentOf(), tls },
      onRequest,
    );
  }

  /** Closes idle keep-alive connections (after everything else stopped). */
  close(): void {
    this.transport.agent.destroy();
    this.transport.watchAgent.destroy();
  }

  /** The API server URL. */
  get server(): string {
    return this.transport.baseUrl.toString();
  }

  /** Sends a request and parses the JSON answer; throws {@link KubeApiError} on failure. */
  async request<T>(req: KubeRequest): Promise<T> {
    const started = Date.now();
    let code = 'error';
    try {
      const res = await this.send(req);
      code = String(res.statusCode ?? 0);
      const text = await readBody(res);
      if ((res.statusCode ?? 0) >= 300) throw statusError(res, text);
      return (text ? JSON.parse(text) : {}) as T;
    } finally {
      this.report(req, code, started);
    }
  }

  /**
   * Opens a watch stream and calls `onLine` for every JSON line. Resolves when the server
   * ends the stream or `signal` aborts; rejects with {@link KubeApiError} on a non-200
   * answer or a broken connection.
   */
  async watch(req: KubeRequest & { onLine: (line: string) => void }): Promise<void> {
    const started = Date.now();
    let res: IncomingMessage;
    try {
      res = await this.send({ ...req, timeoutMs: 0 }, this.transport.watchAgent);
    } catch (err) {
      this.report(req, 'error', started);
      throw err;
    }
    this.report(req, String(res.statusCode ?? 0), started);
    if (res.statusCode !== 200) throw statusError(res, await readBody(res));
    await streamLines(res, req.onLine, req.signal);
  }

  private report(req: KubeRequest, code: string, started: number): void {
    if (!this.onRequest) return;
    const verb = req.verb ?? (req.query?.watch ? 'WATCH' : req.method);
    this.onRequest({
      verb,
      resource: resourceOf(req.path),
      code,
      durationMs: Date.now() - started,
    });
  }

  private authHeaders(): Promise<Record<string, string>> {
    const now = Date.now();
    if (!this.headers || now - this.headers.at > HEADER_TTL_MS) {
      const value = (async (): Promise<Record<string, string>> => {
        const opts: RequestOptions = {};
        await this.kc.applyToHTTPSOptions(opts);
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(opts.headers ?? {})) {
          if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
        }
        if (opts.auth) out.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
        return out;
      })();
      this.headers = { at: now, value };
      value.catch(() => (this.headers = undefined));
    }
    return this.headers.value;
  }

  private async send(
    req: KubeRequest,
    agent: HttpsAgent | HttpAgent = this.transport.agent,
  ): Promise<IncomingMessage> {
    const url = new URL(this.transport.baseUrl.toString().replace(/\/$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(await this.authHeaders()),
      ...(body !== undefined
        ? {
            'Content-Type': req.contentType ?? 'application/json',
            'Content-Length': String(Buffer.byteLength(body)),
          }
        : {}),
    };
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const r = send(url, { method: req.method, headers, agent, ...this.transport.tls }, resolve);
      const timeoutMs = req.timeoutMs ?? 30_000;
      if (timeoutMs > 0) {
        r.setTimeout(clampDelay(timeoutMs), () =>
          r.destroy(
            new KubeApiError(
              `cannot ${req.method} ${req.path}: timed out`,
              undefined,
              'Timeout',
              undefined,
              'ETIMEDOUT',
            ),
          ),
        );
      }
      r.on('error', (err: NodeJS.ErrnoException) => reject(networkError(req, err)));
      if (req.signal) bindAbort(r, req.signal);
      r.end(body);
    });
  }
}

/**
 * Ties a request to an abort signal for exactly as long as the request lives: the listener
 * is removed when the request closes (a long-lived informer signal would otherwise collect
 * one listener per LIST page), and an abort after the answer was read completely is a no-op
 * (destroying a finished exchange used to surface as an unhandled socket error).
 */
function bindAbort(r: ClientRequest, signal: AbortSignal): void {
  const onAbort = (): void => {
    if (r.destroyed) return;
    const res = (r as ClientRequest & { res?: IncomingMessage | null }).res;
    if (res?.complete) return;
    r.destroy(new Error('aborted'));
  };
  if (signal.aborted) {
    onAbort();
    return;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  r.once('close', () => signal.removeEventListener('abort', onAbort));
}

function networkError(req: KubeRequest, err: NodeJS.ErrnoException): KubeApiError {
  if (err instanceof KubeApiError) return err;
  return new KubeApiError(
    `cannot ${req.method} ${req.path}: ${err.message}`,
    undefined,
    'NetworkError',
    undefined,
    err.code ?? 'ECONNRESET',
  );
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () =>
      reject(
        new KubeApiError(
          'cannot read response: connection aborted',
          undefined,
          'NetworkError',
          undefined,
          'ECONNRESET',
        ),
      ),
    );
  });
}

function statusError(res: IncomingMessage, text: string): KubeApiError {
  let message = res.statusMessage ?? 'error';
  let reason: string | undefined;
  let retryAfterMs: number | undefined;
  try {
    const s = JSON.parse(text) as {
      message?: string;
      reason?: string;
      details?: { retryAfterSeconds?: number };
    };
    message = s.message ?? message;
    reason = s.reason;
    if (s.details?.retryAfterSeconds) retryAfterMs = s.details.retryAfterSeconds * 1000;
  } catch {
    // not a Status object
  }
  const header = res.headers['retry-after'];
  if (retryAfterMs === undefined && typeof header === 'string' && /^\d+$/.test(header)) {
    retryAfterMs = Number(header) * 1000;
  }
  return new KubeApiError(message, res.statusCode, reason, boundRetryAfter(retryAfterMs));
}

/** Beyond 10 min a Retry-After is an outage: the per-item backoff applies instead. */
function boundRetryAfter(ms: number | undefined): number | undefined {
  return ms !== undefined && ms <= MAX_KUBE_RETRY_AFTER_MS ? ms : undefined;
}

/** The resource segment of an API path (`pullzoneconfigs`, `secrets`, `leases`...), for metrics. */
export function resourceOf(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  const ns = parts.indexOf('namespaces');
  if (ns >= 0 && parts.length > ns + 2)
    return parts
      .slice(ns + 2)
      .filter((_, i) => i !== 1)
      .join('/');
  const start = parts[0] === 'api' ? 2 : 3;
  return parts[start] ?? 'unknown';
}
