/**
 * A recording HTTP proxy in front of cdn-sim: each operator process of a test gets its own
 * proxy URL as `--api-url`, so the platform calls of several processes that share one sim
 * (and one API key, hence one account fingerprint) can be told apart without changing the
 * operator. Every forwarded request is logged with the time its answer arrived.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One forwarded call. */
export interface ProxiedCall {
  /** When the answer arrived (ms since epoch). */
  t: number;
  /** When the request arrived at the proxy. */
  start: number;
  method: string;
  path: string;
  status: number;
}

/** A running proxy. */
export interface RecordingProxy {
  url: string;
  calls: ProxiedCall[];
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port that forwards everything to `target`. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const calls: ProxiedCall[] = [];
  const server: Server = createServer((req, res) => {
    const start = Date.now();
    const path = req.url ?? '/';
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: to.host },
      },
      (answer: IncomingMessage) => {
        calls.push({
          t: Date.now(),
          start,
          method: req.method ?? 'GET',
          path: path.split('?')[0] ?? path,
          status: answer.statusCode ?? 0,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      calls.push({ t: Date.now(), start, method: req.method ?? 'GET', path, status: 0 });
      res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
