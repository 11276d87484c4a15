/**
 * Issue 29 item 3 (shutdown): on SIGTERM the in-flight platform writes finish or are cancelled,
 * and the passes that made them end (their failure path records what they know in status),
 * before the Lease is released: a standby that takes over at once must not act on an object
 * whose pass is still running on the old leader.
 */
import type http from 'node:http';
import test from 'ava';
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Manager, type ManagerConfig } from '../../../src/runtime/manager.js';
import type { ExternalClient, ManagedKind, ManagedObject } from '../../../src/runtime/types.js';
import { fakeLease, startFakeKube } from './kube-fake-server.js';
import { FakeEnv, applyMergePatch } from './fake-env.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      resolve(text ? (JSON.parse(text) as Record<string, unknown>) : {});
    });
  });
}

const CONFIG: ManagerConfig = {
  namespaces: ['ns'],
  workers: 1,
  pollIntervalMs: 600_000,
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElect: true,
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

test.serial(
  'a pass whose platform write was cancelled at shutdown ends before the lease is released',
  async (t) => {
    const order: string[] = [];
    let obj: ManagedObject = {
      apiVersion: 'test.io/v1',
      kind: 'Thing',
      metadata: { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', generation: 1 },
      spec: { color: 'red' },
    };
    let rv = 5;
    const lease = fakeLease();
    const kube = await startFakeKube({
      watch: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(
          `${JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '5' } } })}\n`,
        );
      },
      other: (req, res, _n, url) => {
        res.setHeader('Content-Type', 'application/json');
        if (url.pathname.includes('/leases')) {
          res.on('finish', () => {
            if (req.method === 'PUT' && lease.holders.at(-1) === '') order.push('lease-released');
          });
          lease.reply(req, res, 0, url);
          return;
        }
        if (url.pathname.includes('/events')) {
          res.writeHead(201).end('{}');
          return;
        }
        if (req.method === 'GET') {
          res.end(JSON.stringify({ metadata: { resourceVersion: '5' }, items: [obj] }));
          return;
        }
        void readBody(req).then(async (patch) => {
          const status = url.pathname.endsWith('/status');
          if (status) await sleep(300); // a slow status write
          const { metadata: pm, ...rest } = patch as { metadata?: Record<string, unknown> };
          const { resourceVersion: _rv, ...meta } = pm ?? {};
          obj = applyMergePatch(obj, { ...rest, metadata: meta }) as ManagedObject;
          obj.metadata.resourceVersion = String(++rv);
          if (status) order.push('status-written');
          res.end(JSON.stringify(obj));
        });
      },
    });
    t.teardown(() => kube.close());
    let createStarted = false;
    const client: ExternalClient = {
      observe: () => Promise.resolve({ exists: false, upToDate: false, diff: [] }),
      create: (_o, ctx) => {
        createStarted = true;
        return new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            order.push('create-cancelled');
            reject(new Error('aborted by the caller'));
          }),
        );
      },
      update: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    const kind: ManagedKind = { ...new FakeEnv().kind(), connect: () => Promise.resolve(client) };
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: kube.url, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    const manager = new Manager({
      config: CONFIG,
      kinds: [kind],
      log: pino({ level: 'silent' }),
      kubeConfig: kc,
      identity: 'me',
    });
    await manager.start();
    for (let i = 0; i < 200 && !createStarted; i++) await sleep(25);
    t.true(createStarted, 'the create is in flight');
    order.length = 0;
    const drained = await manager.stop();
    t.false(drained, 'the pass had to be cancelled');
    t.deepEqual(
      order,
      ['create-cancelled', 'status-written', 'lease-released'],
      'cancelled, its failure recorded in status, then the lease released',
    );
  },
);
