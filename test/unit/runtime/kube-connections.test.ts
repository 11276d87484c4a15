/**
 * How many connections the Kubernetes client opens: a burst of short requests shares at most
 * KUBE_REQUEST_SOCKETS of them (each new one is a TLS handshake on both sides), and watch
 * streams, which hold their connection for as long as they live, never take one of those.
 */
import test from 'ava';
import type http from 'node:http';
import { KUBE_REQUEST_SOCKETS } from '../../../src/runtime/kube-client.js';
import { startFakeKube } from './kube-fake-server.js';

const ok = (res: http.ServerResponse): void => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{}');
};

test('a burst of requests over TLS opens at most KUBE_REQUEST_SOCKETS connections', async (t) => {
  const ports = new Set<number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const kube = await startFakeKube({
    tls: true,
    watch: () => undefined,
    other: (req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        ok(res);
      }, 30);
    },
  });
  t.teardown(() => kube.close());
  const burst = Array.from({ length: 3 * KUBE_REQUEST_SOCKETS }, (_, i) =>
    kube.client.request({ method: 'POST', path: `/api/v1/namespaces/ns/events`, body: { i } }),
  );
  await Promise.all(burst);
  t.true(ports.size <= KUBE_REQUEST_SOCKETS, `${ports.size} connections`);
  t.true(maxInFlight <= KUBE_REQUEST_SOCKETS, `${maxInFlight} requests at once`);
  t.true(ports.size > 1, 'requests still go out in parallel');
});

test('watch streams do not take the connections of requests', async (t) => {
  const streams: http.ServerResponse[] = [];
  const kube = await startFakeKube({
    watch: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      streams.push(res);
    },
    other: (_req, res) => ok(res),
  });
  t.teardown(async () => {
    for (const s of streams) s.end();
    await kube.close();
  });
  const abort = new AbortController();
  t.teardown(() => abort.abort());
  const watches = Array.from({ length: KUBE_REQUEST_SOCKETS + 4 }, () =>
    kube.client
      .watch({
        method: 'GET',
        path: '/api/v1/configmaps',
        query: { watch: 1 },
        signal: abort.signal,
        onLine: () => undefined,
      })
      .catch(() => undefined),
  );
  while (streams.length < watches.length) await new Promise((r) => setTimeout(r, 10));
  const answered = await Promise.race([
    kube.client.request({ method: 'POST', path: '/api/v1/namespaces/ns/events', body: {} }),
    new Promise((r) => setTimeout(() => r('blocked'), 2000)),
  ]);
  t.deepEqual(answered, {});
});
