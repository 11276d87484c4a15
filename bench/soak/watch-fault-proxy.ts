/**
 * A plain-HTTP proxy in front of a real kube-apiserver that breaks watch streams. Every
 * request is forwarded over TLS with one client identity (certificate and key); LISTs,
 * GETs and writes pass through untouched. Every watch session (`watch=true|1`) is forwarded
 * line by line (whole JSON lines only) and, after a random 0.5–6 s, ends in one fault drawn
 * from {@link WATCH_FAULTS}: a 410 Gone ERROR event, another ERROR event, an HTTP 410 answer
 * before any event, a reset connection, a short close (200 with no events), a connection
 * dropped in the middle of a line, a stall (silent but open until the client gives up), or no
 * fault (the apiserver's own timeout ends it). Events the apiserver sent after the last
 * forwarded line are lost for that session: the informer must resume or relist correctly.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** How a watch session is ended. */
export type WatchFault =
  'goneEvent' | 'errorEvent' | 'http410' | 'reset' | 'short' | 'dropMidLine' | 'stall' | 'none';

/** The fault mix, drawn round-robin with a random start. */
export const WATCH_FAULTS: WatchFault[] = [
  'goneEvent',
  'errorEvent',
  'http410',
  'reset',
  'short',
  'dropMidLine',
  'stall',
  'none',
];

/** What the proxy did. */
export interface WatchProxyStats {
  requests: number;
  watches: number;
  /** Watch event lines forwarded to the client. */
  eventsForwarded: number;
  faults: Record<WatchFault, number>;
}

/** Upstream and identity. */
export interface WatchProxyOptions {
  /** https://host:port of the kube-apiserver. */
  upstream: string;
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  /** Longest time a session streams before its fault (default 6000 ms). */
  maxSessionMs?: number;
}

/** The running proxy. */
export interface WatchFaultProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  stats: WatchProxyStats;
  /** Stops injecting faults (watches pass through untouched from now on). */
  disarm(): void;
  close(): Promise<void>;
}

/** Starts the proxy; see the module comment. */
export async function startWatchFaultProxy(opts: WatchProxyOptions): Promise<WatchFaultProxy> {
  const up = new URL(opts.upstream);
  const agent = new https.Agent({ keepAlive: true, ca: opts.ca, cert: opts.cert, key: opts.key });
  const stats: WatchProxyStats = {
    requests: 0,
    watches: 0,
    eventsForwarded: 0,
    faults: Object.fromEntries(WATCH_FAULTS.map((f) => [f, 0])) as Record<WatchFault, number>,
  };
  let next = Math.floor(Math.random() * WATCH_FAULTS.length);
  let armed = true;
  const maxSessionMs = opts.maxSessionMs ?? 6000;
  const server = http.createServer((req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    const watch = ['true', '1'].includes(url.searchParams.get('watch') ?? '');
    if (!watch || !armed) {
      forward(req, res, up, agent, undefined);
      return;
    }
    stats.watches++;
    const fault = WATCH_FAULTS[next++ % WATCH_FAULTS.length] as WatchFault;
    stats.faults[fault]++;
    if (fault === 'http410') {
      answerGone(res);
      return;
    }
    if (fault === 'short') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
      return;
    }
    const delay = 500 + Math.random() * (maxSessionMs - 500);
    forward(req, res, up, agent, { fault, delay, stats });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    disarm: () => void (armed = false),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => r());
      }),
  };
}

interface Injection {
  fault: WatchFault;
  delay: number;
  stats: WatchProxyStats;
  /** Set once the fault is applied: the upstream's end or error no longer touches the client. */
  applied?: boolean;
}

/** Hop-by-hop and framing headers Node sets itself. */
const DROP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  up: URL,
  agent: https.Agent,
  inject: Injection | undefined,
): void {
  const headers = { ...req.headers, host: up.host };
  delete headers.connection;
  const upstream = https.request(
    { host: up.hostname, port: up.port, path: req.url, method: req.method, headers, agent },
    (ures) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(ures.headers))
        if (v !== undefined && !DROP_HEADERS.has(k)) out[k] = v;
      res.writeHead(ures.statusCode ?? 502, out);
      if (!inject || ures.statusCode !== 200) {
        ures.pipe(res);
        return;
      }
      streamWithFault(ures, res, upstream, inject);
    },
  );
  upstream.on('error', () => {
    if (!inject?.applied) res.destroy();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

function streamWithFault(
  ures: http.IncomingMessage,
  res: http.ServerResponse,
  upstream: http.ClientRequest,
  inject: Injection,
): void {
  let buffered = '';
  ures.setEncoding('utf8');
  ures.on('data', (chunk: string) => {
    if (inject.applied) return;
    buffered += chunk;
    const end = buffered.lastIndexOf('\n');
    if (end < 0) return;
    const lines = buffered.slice(0, end + 1);
    buffered = buffered.slice(end + 1);
    inject.stats.eventsForwarded += lines.split('\n').length - 1;
    res.write(lines);
  });
  ures.on('end', () => {
    if (!inject.applied) res.end(buffered);
  });
  const timer = setTimeout(() => {
    if (inject.fault === 'none') return;
    inject.applied = true;
    applyFault(inject.fault, res, upstream);
  }, inject.delay);
  res.on('close', () => clearTimeout(timer));
}

function applyFault(
  fault: WatchFault,
  res: http.ServerResponse,
  upstream: http.ClientRequest,
): void {
  switch (fault) {
    case 'goneEvent':
    case 'errorEvent': {
      const code = fault === 'goneEvent' ? 410 : 500;
      const status = {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        code,
        reason: code === 410 ? 'Expired' : 'InternalError',
        message: `injected by the soak proxy (${code})`,
      };
      res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
      upstream.destroy();
      return;
    }
    case 'reset':
      upstream.destroy();
      res.socket?.resetAndDestroy();
      return;
    case 'dropMidLine':
      upstream.destroy();
      res.write('{"type":"MODIFIED","object":{"metadata":{"name":');
      res.socket?.destroy();
      return;
    case 'stall':
      // Keep the client's connection open and silent; it is closed when the client gives up.
      upstream.destroy();
      return;
    default:
      // 'none': keep forwarding until the apiserver ends the watch itself.
      return;
  }
}

function answerGone(res: http.ServerResponse): void {
  res.writeHead(410, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: 'injected by the soak proxy: too old resource version',
    }),
  );
}
