/**
 * A loopback server that speaks just enough of the Kubernetes list/watch protocol for
 * informer and client tests (plain HTTP or HTTPS with a throw-away certificate), with the
 * answer of every request under the test's control.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { KubeClient } from '../../../src/runtime/kube-client.js';
import { LeaderElector, type LeaderElectionOptions } from '../../../src/runtime/leader-election.js';

/** Answers one request; `n` counts requests of the same kind (list or watch) from 0. */
export type KubeReply = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  n: number,
  url: URL,
) => void;

/** A running fake API server. */
export interface FakeKube {
  client: KubeClient;
  /** The server's base URL. */
  url: string;
  lists: number;
  watches: number;
  other: number;
  close(): Promise<void>;
}

/** A throw-away key and certificate for 127.0.0.1 (openssl). */
export function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'kube-fake-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts the server; `list` and `watch` answer list and watch requests, `other` the rest. */
export async function startFakeKube(opts: {
  tls?: boolean;
  list?: KubeReply;
  watch: KubeReply;
  other?: KubeReply;
}): Promise<FakeKube> {
  const state = { lists: 0, watches: 0, other: 0 };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.get('watch')) opts.watch(req, res, state.watches++, url);
    else if (req.method === 'GET' && !opts.other)
      (opts.list ?? emptyList)(req, res, state.lists++, url);
    else (opts.other ?? notFound)(req, res, state.other++, url);
  };
  const material = opts.tls ? selfSigned() : undefined;
  const server = material ? https.createServer(material, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: 'fake',
        server: `${material ? 'https' : 'http'}://127.0.0.1:${port}`,
        skipTLSVerify: true,
      },
    ],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'c', cluster: 'fake', user: 'u' }],
    currentContext: 'c',
  });
  const client = await KubeClient.create(kc);
  return {
    client,
    url: kc.getCurrentCluster()!.server,
    get lists() {
      return state.lists;
    },
    get watches() {
      return state.watches;
    },
    get other() {
      return state.other;
    },
    close: () =>
      new Promise<void>((resolve) => {
        client.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An empty list at resourceVersion 1. */
export function emptyList(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [] }));
}

function notFound(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: 'Status', code: 404, reason: 'NotFound', message: 'not found' }));
}

/** One watch event line. */
export function eventLine(type: string, object: unknown): string {
  return `${JSON.stringify({ type, object })}\n`;
}

/** An ERROR event carrying 410 Gone, as the apiserver sends after compaction. */
export function goneLine(): string {
  return eventLine('ERROR', {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: 'too old resource version: 1 (2)',
    reason: 'Expired',
    code: 410,
  });
}

/** A Lease endpoint: GET answers the stored lease (404 before the first write), writes store it. */
export interface FakeLease {
  reply: KubeReply;
  /** The stored lease (undefined before the first write). */
  readonly lease: Record<string, unknown> | undefined;
  /** Holders written so far, in order (`''` for a release). */
  readonly holders: string[];
  /** While true, lease requests get no answer (a partition). */
  hang: boolean;
}

/** Serves one coordination.k8s.io Lease with resourceVersions, for leader election tests. */
export function fakeLease(): FakeLease {
  let lease: Record<string, unknown> | undefined;
  let rv = 1;
  const holders: string[] = [];
  const state: FakeLease = {
    hang: false,
    get lease() {
      return lease;
    },
    holders,
    reply: (req, res) => {
      if (state.hang) return;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        if (req.method === 'GET') {
          if (!lease) res.writeHead(404).end(JSON.stringify({ kind: 'Status', code: 404 }));
          else res.end(JSON.stringify(lease));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        lease = {
          ...body,
          metadata: { ...(body.metadata as object), resourceVersion: String(++rv) },
        };
        holders.push(String((body.spec as { holderIdentity?: string }).holderIdentity ?? ''));
        res.end(JSON.stringify(lease));
      });
    },
  };
  return state;
}

/**
 * A LeaderElector on `client` with short timings (lease 1.5 s, renew deadline 1 s, retry
 * 200 ms) for Lease `ns/l` as `me`; `extra` overrides (callbacks, clock).
 */
export function testElector(
  client: KubeClient,
  extra: Partial<LeaderElectionOptions> = {},
): LeaderElector {
  return new LeaderElector({
    client,
    namespace: 'ns',
    name: 'l',
    identity: 'me',
    leaseDurationMs: 1500,
    renewDeadlineMs: 1000,
    retryPeriodMs: 200,
    log: pino({ level: 'silent' }),
    onStartedLeading: () => undefined,
    onStoppedLeading: () => undefined,
    ...extra,
  });
}
