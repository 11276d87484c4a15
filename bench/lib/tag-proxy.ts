/**
 * A transparent HTTP proxy in front of cdn-sim that adds `X-Sim-Client: <tag>` to every
 * request, so the simulator's call log says which operator replica sent each platform call
 * (the replica is started with `--api-url` pointing here). Nothing else changes: bodies and
 * answers pass through, and a connection the simulator drops unanswered is dropped here too.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The running proxy. */
export interface TagProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy to `upstream` (http://host:port) tagging calls with `tag`. */
export async function startTagProxy(upstream: string, tag: string): Promise<TagProxy> {
  const up = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const upstreamReq = http.request(
      {
        host: up.hostname,
        port: up.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: up.host, 'x-sim-client': tag },
        agent,
      },
      (ures) => {
        res.writeHead(ures.statusCode ?? 502, ures.headers);
        ures.pipe(res);
      },
    );
    // The simulator dropped the connection (a drop fault): the caller sees a dropped one too.
    upstreamReq.on('error', () => res.socket?.destroy());
    req.pipe(upstreamReq);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => r());
      }),
  };
}
