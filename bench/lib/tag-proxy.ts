/**
 * A transparent HTTP proxy in front of cdn-sim that adds `X-Sim-Client: <tag>` to every
 * request, so the simulator's call log says which operator replica sent each platform call
 * (the replica is started with `--api-url` pointing here). Nothing else changes: bodies and
 * answers pass through, and a connection the simulator drops unanswered is dropped here too.
 *
 * Optionally it throttles one account (`throttle`): requests carrying that API key pass a
 * token bucket, and a request finding it empty is answered 429 with `Retry-After` without
 * reaching the simulator (a platform limiting one noisy tenant's account; the other accounts
 * behind the same URL are not limited).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The running proxy. */
export interface TagProxy {
  url: string;
  /** Requests of the throttled account answered 429 by the proxy. */
  readonly refused: number;
  /** Turns the throttle on or off (on by default when configured). */
  setThrottled(on: boolean): void;
  close(): Promise<void>;
}

/** One account limited by the proxy. */
export interface ThrottleSpec {
  /** The `AccessKey` header value of the account. */
  accessKey: string;
  ratePerSecond: number;
  burst: number;
  retryAfterSeconds: number;
}

/** A token bucket deciding which of the throttled account's requests pass. */
function bucket(spec: ThrottleSpec): () => boolean {
  let tokens = spec.burst;
  let last = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(spec.burst, tokens + ((now - last) / 1000) * spec.ratePerSecond);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** Starts a proxy to `upstream` (http://host:port) tagging calls with `tag`. */
export async function startTagProxy(
  upstream: string,
  tag: string,
  throttle?: ThrottleSpec,
): Promise<TagProxy> {
  const up = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true });
  const pass = throttle ? bucket(throttle) : () => true;
  const state = { refused: 0, throttled: throttle !== undefined };
  const server = http.createServer((req, res) => {
    if (state.throttled && req.headers.accesskey === throttle?.accessKey && !pass()) {
      state.refused++;
      req.resume();
      res.writeHead(429, { 'Retry-After': String(throttle?.retryAfterSeconds ?? 1) });
      res.end('{"Message":"Too many requests"}');
      return;
    }
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
    get refused() {
      return state.refused;
    },
    setThrottled: (on) => {
      state.throttled = on && throttle !== undefined;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => r());
      }),
  };
}
