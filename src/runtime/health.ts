/**
 * The HTTP servers: `/metrics` on the metrics address, `/healthz` and `/readyz` on the probe
 * address. An address of `0` disables a server; `host:0` picks a free port (logged, and
 * returned by {@link startHttpServer} for tests).
 */
import { listen } from '../common/http-listener.js';
import { createServer, type Server } from 'node:http';

/** Parses `:8080`, `127.0.0.1:0`, `[::1]:9090`; `0` or empty → disabled (undefined). */
export function parseBindAddress(value: string): { host: string; port: number } | undefined {
  if (value === '' || value === '0') return undefined;
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value);
  if (!m) throw new Error(`invalid bind address "${value}": expected [host]:port, e.g. :8080`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`invalid bind address "${value}": port out of range`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** Route handler: returns status and body. */
export type Route = () => Promise<{ status: number; body: string; contentType?: string }>;

/** A started HTTP server and the port it listens on. */
export interface HttpServer {
  port: number;
  close(): Promise<void>;
}

/** Starts a plain HTTP server serving the given GET routes. */
export async function startHttpServer(
  bind: { host: string; port: number },
  routes: Record<string, Route>,
): Promise<HttpServer> {
  const server: Server = createServer((req, res) => {
    const route = routes[(req.url ?? '/').split('?')[0] ?? '/'];
    if (!route || req.method !== 'GET') {
      res.writeHead(404).end('not found\n');
      return;
    }
    route().then(
      (r) =>
        res
          .writeHead(r.status, { 'Content-Type': r.contentType ?? 'text/plain; charset=utf-8' })
          .end(r.body),
      (err: unknown) =>
        res.writeHead(500).end(`${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  server.keepAliveTimeout = 1000;
  const port = await listen(server, bind.port, bind.host);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A readiness check: name and a function that returns an error message or undefined. */
export interface Check {
  name: string;
  check(): string | undefined;
}

/** Evaluates checks like controller-runtime's `/readyz`: 200 `ok` or 500 with failures. */
export function evaluateChecks(checks: readonly Check[]): { status: number; body: string } {
  const failures = checks.map((c) => ({ name: c.name, msg: c.check() })).filter((c) => c.msg);
  if (failures.length === 0) return { status: 200, body: 'ok\n' };
  return {
    status: 500,
    body: failures.map((f) => `[-]${f.name} failed: ${f.msg}`).join('\n') + '\n',
  };
}
