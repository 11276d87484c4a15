/**
 * Companions of the manager (companion.ts; the CdnPolicy composition and the DNS-01 solver):
 * started by `Manager.start` with the manager's client and the managed kinds' caches (only the
 * kinds it manages), stopped by the graceful shutdown before the Kubernetes client closes; a
 * companion that cannot start fails the manager's start; its optional workers start with the
 * kinds' and its optional `hasSynced` gates readiness.
 */
import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { defaultConfig } from '../../../src/config.js';
import { Manager, type ManagerConfig } from '../../../src/runtime/manager.js';
import type { Companion, CompanionContext } from '../../../src/runtime/companion.js';
import type { ManagedObject } from '../../../src/runtime/types.js';
import { FakeEnv } from './fake-env.js';
import { eventLine, startFakeKube, type FakeKube } from './kube-fake-server.js';

/** The operator's defaults, quiet: no servers, no sweeps, a short drain. */
const CONFIG: ManagerConfig = defaultConfig({
  namespaces: ['ns'],
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  shutdownTimeoutMs: 200,
  sweepReadShare: 0,
});

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

function manager(kube: FakeKube, companions: Companion[]): Manager {
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
    companions,
  });
}

test('a companion starts with the kinds caches and the client, and stops with the manager', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  const seen: string[] = [];
  let host: CompanionContext | undefined;
  const companion: Companion = {
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
      seen.push(`client: ${h.client.server}`);
    },
    stop: () => {
      seen.push(`stopped, signal aborted: ${String(host?.signal.aborted)}`);
      return Promise.resolve();
    },
  };
  const m = manager(kube, [companion]);
  await m.start();
  t.deepEqual(seen, ['started: a', 'other kind: none', `client: ${kube.url}/`]);
  t.true(await m.stop());
  t.deepEqual(seen.slice(3), ['stopped, signal aborted: true'], 'stopped once, after the abort');
});

test('a companion that cannot start fails the manager start', async (t) => {
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

test('ctx.fail ends the manager with exit code 1 (a companion that fails after its start)', async (t) => {
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

/** The informers check of /readyz: undefined when ready. */
function informersCheck(m: Manager): string | undefined {
  return m
    .readinessChecks()
    .find((c) => c.name === 'informers')
    ?.check();
}

/** Polls `done` for up to 5 s. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 250 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  return done();
}

test('a companion without workers or hasSynced serves and does not gate readiness', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  const m = manager(kube, [
    { name: 'solver-like', start: () => Promise.resolve(), stop: () => Promise.resolve() },
  ]);
  await m.start();
  t.true(await eventually(() => informersCheck(m) === undefined), 'ready once the kinds synced');
  await m.stop();
});

test('a companion with hasSynced gates readiness, and its workers start with the kinds', async (t) => {
  const kube = await fakeKube();
  t.teardown(() => kube.close());
  let synced = false;
  let workers = 0;
  const m = manager(kube, [
    {
      name: 'routes-like',
      start: () => Promise.resolve(),
      startWorkers: () => void workers++,
      hasSynced: () => synced,
      stop: () => Promise.resolve(),
    },
  ]);
  await m.start();
  t.true(await eventually(() => workers === 1), 'workers started once (no leader election)');
  t.is(informersCheck(m), 'caches not synced', 'not ready while the companion has not synced');
  synced = true;
  t.is(informersCheck(m), undefined, 'ready once it has');
  await m.stop();
});
