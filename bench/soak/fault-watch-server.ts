/**
 * A fault-injecting fake watch server for the informer-level soak: LIST answers the current
 * objects; every WATCH session streams a batch of MODIFIED events (and a bookmark) and then
 * ends in one fault drawn from the mix — 410 as an ERROR event, another ERROR event, a normal
 * end, a short close with no events, a dropped connection mid-line, or a stall. Counters say
 * what was sent so the soak can report it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Faults a watch session ends with. */
export type WatchFault = 'gone' | 'error' | 'end' | 'short' | 'drop' | 'stall';

/** What the server sent. */
export interface WatchServerStats {
  lists: number;
  watches: number;
  events: number;
  faults: Record<WatchFault, number>;
}

const MIX: WatchFault[] = [
  'end',
  'end',
  'end',
  'gone',
  'gone',
  'error',
  'short',
  'drop',
  'drop',
  'stall',
];

/** The running server. */
export interface FaultWatchServer {
  url: string;
  stats: WatchServerStats;
  close(): Promise<void>;
}

/** Starts the server with `objects` objects in namespace `soak`; `batch` events per session. */
export async function startFaultWatchServer(opts: {
  objects: number;
  batch: number;
}): Promise<FaultWatchServer> {
  let rv = 1000;
  let session = 0;
  const stats: WatchServerStats = {
    lists: 0,
    watches: 0,
    events: 0,
    faults: { gone: 0, error: 0, end: 0, short: 0, drop: 0, stall: 0 },
  };
  const obj = (i: number, v: number): unknown => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `s${i}`, namespace: 'soak', uid: `u${i}`, resourceVersion: String(v) },
    data: { k: Buffer.from(`value-${v}`).toString('base64') },
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('Content-Type', 'application/json');
    if (!url.searchParams.get('watch')) {
      stats.lists++;
      const items = Array.from({ length: opts.objects }, (_, i) => obj(i, rv));
      res.end(JSON.stringify({ metadata: { resourceVersion: String(rv) }, items }));
      return;
    }
    stats.watches++;
    const fault = MIX[session++ % MIX.length] as WatchFault;
    stats.faults[fault]++;
    res.writeHead(200);
    if (fault === 'short') {
      res.end();
      return;
    }
    const lines: string[] = [];
    for (let i = 0; i < opts.batch; i++) {
      rv++;
      lines.push(JSON.stringify({ type: 'MODIFIED', object: obj(rv % opts.objects, rv) }));
    }
    lines.push(
      JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(rv) } } }),
    );
    stats.events += opts.batch;
    res.write(`${lines.join('\n')}\n`);
    finish(fault, res);
  });
  const finish = (fault: WatchFault, res: http.ServerResponse): void => {
    if (fault === 'gone' || fault === 'error') {
      const code = fault === 'gone' ? 410 : 500;
      const status = { kind: 'Status', status: 'Failure', code, message: `injected ${code}` };
      res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
    } else if (fault === 'drop') {
      res.write('{"type":"MODIFIED","object":{"metadata":');
      res.socket?.destroy();
    } else if (fault === 'end') {
      res.end();
    }
    // stall: leave the stream open and silent; the informer's stall timer must notice.
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
