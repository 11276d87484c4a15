/**
 * Informer e2e against the real apiserver: a watch stays healthy for longer than 60 s (the
 * client-node 2.0.0 regression aborted every watch after 30 s; 1.4.0's timeout did nothing),
 * and a watch whose connection goes silent (a frozen TCP proxy, like a half-open
 * connection) is detected as stalled and reopened without a relist.
 */
import test from 'ava';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Informer } from '../../../src/runtime/informer.js';
import { KubeClient, loadKubeConfig } from '../../../src/runtime/kube-client.js';
import { CONFIG_MAPS } from '../../../src/runtime/resource.js';
import { createNamespace, deleteNamespace, kubectl, waitFor } from '../support/kube.js';

const kubeconfig = process.env.KUBECONFIG ?? '';
let ns = '';

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  ns = await createNamespace('rt-watch');
});

test.after.always(async () => {
  if (ns) await deleteNamespace(ns);
});

function counters(): {
  restarts: Record<string, number>;
  relists: Record<string, number>;
  hooks: Record<string, (r: string) => void>;
} {
  const restarts: Record<string, number> = {};
  const relists: Record<string, number> = {};
  return {
    restarts,
    relists,
    hooks: {
      onRestart: (r) => (restarts[r] = (restarts[r] ?? 0) + 1),
      onRelist: (r) => (relists[r] = (relists[r] ?? 0) + 1),
    },
  };
}

test('a watch stays healthy for more than 60 s and still delivers events', async (t) => {
  const client = await KubeClient.create(loadKubeConfig(kubeconfig));
  const c = counters();
  const seen: string[] = [];
  const informer = new Informer({
    client,
    type: CONFIG_MAPS,
    namespace: ns,
    log: pino({ level: 'silent' }),
    stallTimeoutMs: 120_000,
    watchTimeoutSeconds: [300, 300],
    hooks: c.hooks,
    handlers: { onAdd: (o) => seen.push(o.metadata.name) },
  });
  informer.start();
  await informer.waitForSync();
  const started = Date.now();
  await new Promise((r) => setTimeout(r, 65_000));
  await kubectl(['create', 'configmap', 'late', '-n', ns]);
  const created = Date.now();
  await waitFor(() => seen.includes('late'), 5000, 'event after 65 s', 20);
  t.log(
    `event delivered ${Date.now() - created} ms after create, on a watch open for ${Math.round((created - started) / 1000)} s`,
  );
  t.deepEqual(c.restarts, {}, 'the watch was never restarted');
  t.deepEqual(c.relists, { initial: 1 });
  await informer.stop();
  client.close();
});

/** A TCP proxy whose existing connections can be frozen (data silently dropped). */
async function startProxy(target: {
  host: string;
  port: number;
}): Promise<{ port: number; freeze(): void; close(): Promise<void> }> {
  const pairs: Array<[Socket, Socket]> = [];
  const all: Socket[] = [];
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    pairs.push([client, upstream]);
    all.push(client, upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    freeze: () => {
      for (const [c, u] of pairs.splice(0)) {
        u.unpipe(c);
        c.unpipe(u);
        u.pause();
        c.pause();
      }
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of all) s.destroy();
        server.close(() => r());
      }),
  };
}

test('a silent (stalled) watch is detected and reopened from the last resourceVersion', async (t) => {
  const original = await readFile(kubeconfig, 'utf8');
  const server = /server: (https:\/\/127\.0\.0\.1:(\d+))/.exec(original);
  if (!server) return t.fail('cannot find the server in the kubeconfig');
  const proxy = await startProxy({ host: '127.0.0.1', port: Number(server[2]) });
  const dir = await mkdtemp(join(tmpdir(), 'rt-watch-'));
  const proxied = join(dir, 'kubeconfig');
  await writeFile(proxied, original.replace(server[1]!, `https://127.0.0.1:${proxy.port}`));
  const client = await KubeClient.create(loadKubeConfig(proxied));
  const c = counters();
  const seen: string[] = [];
  const informer = new Informer({
    client,
    type: CONFIG_MAPS,
    namespace: ns,
    log: pino({ level: 'silent' }),
    stallTimeoutMs: 3000,
    hooks: c.hooks,
    handlers: { onAdd: (o) => seen.push(o.metadata.name) },
  });
  informer.start();
  await informer.waitForSync();
  // Keep the watch busy with events so a healthy stream never trips the 3 s stall timer.
  await kubectl(['create', 'configmap', 'before-freeze', '-n', ns]);
  await waitFor(() => seen.includes('before-freeze'), 5000, 'event before freeze');
  proxy.freeze();
  await kubectl(['create', 'configmap', 'during-freeze', '-n', ns]);
  await waitFor(
    () => seen.includes('during-freeze'),
    15_000,
    'event delivered after the stall restart',
    50,
  );
  t.true((c.restarts.stalled ?? 0) >= 1, JSON.stringify(c.restarts));
  t.is(c.relists.gone, undefined, 'resumed without a relist');
  await informer.stop();
  client.close();
  await proxy.close();
});
