/**
 * Services of the manager (services.ts; the DNS-01 solver is one): started by `Manager.start`
 * with the manager's client and the managed kinds' caches (only the kinds it manages), stopped
 * by the graceful shutdown before the Kubernetes client closes; a service that cannot start
 * fails the manager's start.
 */
import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Manager, type ManagerConfig } from '../../../src/runtime/manager.js';
import type { ManagerService, ServiceHost } from '../../../src/runtime/services.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv } from './fake-env.js';
import { eventLine, startFakeKube, type FakeKube } from './kube-fake-server.js';

const CONFIG: ManagerConfig = {
  namespaces: ['ns'],
  workers: 1,
  pollIntervalMs: 600_000,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElect: false,
  leaderElectionNamespace: 'ns',
  leaderElectionId: 'lease',
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  shutdownTimeoutMs: 200,
  rateLimit: 0,
  rateLimitBurst: 1,
  watchStallTimeoutMs: 300_000,
};

const THING: ManagedObject = {
  apiVersion: 'test.io/v1',
  kind: 'Thing',
  metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', generation: 1 },
  spec: { color: 'red' },
  status: { thingId: 't1' },
};

async function fakeKube(): Promise<FakeKube> {
  return startFakeKube({
    list: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ metadata: { resourceVersion: '5' }, items: [THING] }));
    },
    watch: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '5' } }));
    },
  });
}

function manager(kube: FakeKube, services: ManagerService[]): Manager {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: kube.url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  return new Manager({
    config: CONFIG,
    kinds: [new FakeEnv().kind()],
    log: pino({ level: 'silent' }),
    kubeConfig: kc,
    identity: 'me',
    services,
  });
}

test('a service starts with the kinds caches and the client, and stops with the manager', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  const seen: string[] = [];
  let host: ServiceHost | undefined;
  const service: ManagerService = {
    name: 'probe',
    start: async (h) => {
      host = h;
      const cache = h.cacheOf('test.io', 'Thing');
      await cache?.waitForSync();
      seen.push(
        `started: ${
          cache
            ?.list()
            .map((o) => o.metadata.name)
            .join(',') ?? 'no cache'
        }`,
      );
      seen.push(`other kind: ${h.cacheOf('test.io', 'Other') === undefined ? 'none' : 'found'}`);
      seen.push(`client: ${h.kube.server}`);
    },
    stop: () => {
      seen.push(`stopped, signal aborted: ${String(host?.signal.aborted)}`);
      return Promise.resolve();
    },
  };
  const m = manager(kube, [service]);
  await m.start();
  t.deepEqual(seen, ['started: a', 'other kind: none', `client: ${kube.url}/`]);
  t.true(await m.stop());
  t.deepEqual(seen.slice(3), ['stopped, signal aborted: true'], 'stopped once, after the abort');
});

test('a service that cannot start fails the manager start', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  const m = manager(kube, [
    {
      name: 'broken',
      start: () => Promise.reject(new Error('cannot read /tls/tls.crt: ENOENT')),
      stop: () => Promise.resolve(),
    },
  ]);
  await t.throwsAsync(m.start(), { message: /tls\.crt/ });
  await m.stop();
});

test('host.fail ends the manager with exit code 1 (a service that fails after its start)', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  const m = manager(kube, [
    {
      name: 'late',
      start: (h) => {
        setTimeout(() => h.fail(new Error('cannot listen: EADDRINUSE')), 10);
        return Promise.resolve();
      },
      stop: () => Promise.resolve(),
    },
  ]);
  await m.start();
  t.is(await m.fatalExit, 1);
  await m.stop();
});
