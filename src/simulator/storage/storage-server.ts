/**
 * cdn-sim's storage endpoint: a second listener that serves the files of the simulated storage
 * zones (storage-routes.ts), over plain HTTP, or HTTPS with a certificate the caller provides
 * (clients that build `https://<StorageHostname>/...` URLs, like the vendor's Terraform
 * provider, need it; cdn-sim does not mint certificates). It shares the state, the call log
 * and the state file with the API listener. The public port is a front (storage-front.ts) to
 * an internal HTTP server on loopback.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { Logger } from 'pino';
import type { CallRecorder } from '../calls.js';
import { BodyTooLarge, listen, readBody } from '../../common/http-listener.js';
import type { SimState } from '../state.js';
import { createFront, DESCRIBE_ALIAS } from './storage-front.js';
import { LIVE_STORAGE_HOSTNAME } from './storage-host.js';
import { handleStorage, type StorageResponse } from './storage-routes.js';

/** Options of the storage listener (`storage` of startSimulator). */
export interface StorageOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /**
   * Host name zone records show as `StorageHostname` for DE (other regions get `<code>.` in
   * front when it is a DNS name); default the platform's `storage.bunnycdn.com`. `{port}` is
   * replaced by the listener's port (`127.0.0.1:{port}`: records point at this listener).
   */
  hostname?: string;
  /** PEM certificate and key files: serve HTTPS instead of HTTP. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
}

/** A running storage listener. */
export interface StorageListener {
  /** `http(s)://host:port`. */
  url: string;
  /** What zone records show as `StorageHostname` for DE. */
  hostname: string;
  close(): Promise<void>;
}

/** Largest file the endpoint takes (cdn-sim's limit: files live in memory and the state file). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

interface Deps {
  state: SimState;
  calls: CallRecorder;
  logger: Logger;
  onChange: () => void;
}

function send(res: ServerResponse, answer: StorageResponse): void {
  // Closing keeps every request at the start of a connection, where the front sees it.
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.body),
    connection: 'close',
  });
  res.end(answer.body);
}

async function serve(
  deps: Deps,
  hostname: () => string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://storage');
  const method = req.method === DESCRIBE_ALIAS ? 'DESCRIBE' : (req.method ?? 'GET');
  let body: Buffer;
  try {
    body = await readBody(req, MAX_FILE_BYTES);
  } catch (err) {
    res.writeHead(err instanceof BodyTooLarge ? 413 : 400, { connection: 'close' }).end();
    return;
  }
  const before = deps.state.revision;
  const answer = handleStorage(deps.state, hostname(), {
    method,
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
  });
  if (deps.state.revision !== before) deps.onChange();
  // The key is the zone's password: never recorded (-1).
  const route = `${method} storage /{storageZoneName}/{path}`;
  deps.calls.record(method, route, url.pathname, answer.status, { key: -1 });
  send(res, answer);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function tlsOf(options: StorageOptions): { certFile: string; keyFile: string } | undefined {
  if (options.tlsCertFile === undefined && options.tlsKeyFile === undefined) return undefined;
  if (!options.tlsCertFile || !options.tlsKeyFile)
    throw new Error('cannot start the storage endpoint: TLS needs a certificate and a key file');
  return { certFile: options.tlsCertFile, keyFile: options.tlsKeyFile };
}

/** Starts the storage listener on `host` and points the state's zone records at it. */
export async function startStorageListener(
  options: StorageOptions,
  host: string,
  deps: Deps,
): Promise<StorageListener> {
  const tls = tlsOf(options);
  let hostname = LIVE_STORAGE_HOSTNAME;
  const internal = createServer({ keepAlive: false }, (req, res) => {
    serve(deps, () => hostname, req, res).catch((err: unknown) => {
      deps.logger.error({ err }, 'Storage request failed');
      if (!res.headersSent) res.writeHead(500, { connection: 'close' }).end();
    });
  });
  const internalPort = await listen(internal, 0, '127.0.0.1');
  const front = createFront(internalPort, tls);
  const sockets = new Set<Socket>();
  front.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const port = await listen(front, options.port ?? 0, host).catch(async (err: unknown) => {
    await closeServer(internal);
    throw err;
  });
  hostname = (options.hostname ?? LIVE_STORAGE_HOSTNAME).replace('{port}', String(port));
  deps.state.storageHostname = hostname;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    hostname,
    close: async () => {
      for (const s of sockets) s.destroy();
      internal.closeAllConnections();
      await Promise.all([closeServer(front), closeServer(internal)]);
    },
  };
}
