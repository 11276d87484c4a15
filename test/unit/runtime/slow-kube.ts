/**
 * A fake apiserver for controller tests: it lists a map of objects, keeps watches open and
 * answers every PATCH after a delay with the merge-patched object (resourceVersion bumped),
 * like a loaded control plane.
 */
import type http from 'node:http';
import { pino } from 'pino';
import { Controller } from '../../../src/runtime/controller.js';
import { EventRecorder } from '../../../src/runtime/events.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import type { ManagedKind, ManagedObject } from '../../../src/runtime/types.js';
import { applyMergePatch } from './fake-env.js';
import { startFakeKube, type FakeKube } from './kube-fake-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A fake apiserver that lists `objects`, keeps watches open and answers every PATCH after
 * `writeMs` with the merge-patched object (resourceVersion bumped).
 */
export async function slowKube(
  objects: Map<string, ManagedObject>,
  writeMs: number,
  pending: { writes: number },
): Promise<FakeKube> {
  let rv = 1000;
  const body = (req: http.IncomingMessage): Promise<string> =>
    new Promise((resolve) => {
      let s = '';
      req.on('data', (c: Buffer) => (s += c.toString()));
      req.on('end', () => resolve(s));
    });
  const answer = (res: http.ServerResponse, value: unknown): void => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  return startFakeKube({
    watch: () => undefined,
    other: (req, res, _n, url) => {
      if (req.method === 'GET') {
        answer(res, { metadata: { resourceVersion: '1' }, items: [...objects.values()] });
        return;
      }
      if (req.method !== 'PATCH') {
        answer(res, { metadata: { name: 'event' } });
        return;
      }
      pending.writes++;
      void body(req).then(async (text) => {
        await sleep(writeMs);
        pending.writes--;
        const name = url.pathname
          .replace(/\/status$/, '')
          .split('/')
          .pop()!;
        const cur = objects.get(name)!;
        const patch = JSON.parse(text) as { metadata?: Record<string, unknown> };
        const { resourceVersion: _rv, ...meta } = patch.metadata ?? {};
        const next = applyMergePatch(cur, { ...patch, metadata: meta }) as ManagedObject;
        next.metadata.resourceVersion = String(++rv);
        objects.set(name, next);
        answer(res, next);
      });
    },
  });
}

/**
 * A controller of `kind` on `kube` (all namespaces), informers synced and workers started;
 * `afterStart` runs synchronously right after the workers start (before any pass got a turn).
 */
export async function startController(
  kind: ManagedKind,
  kube: FakeKube,
  workers: number,
  afterStart?: () => void,
): Promise<{ controller: Controller; stop: () => Promise<void> }> {
  const log = pino({ level: 'silent' });
  const abort = new AbortController();
  const controller = new Controller({
    kind,
    client: kube.client,
    namespaces: [],
    workers,
    metrics: new OperatorMetrics(),
    events: new EventRecorder({ client: kube.client, log, controller: 'c', instance: 'i' }),
    log,
    signal: abort.signal,
    connectContext: () => ({
      log,
      readSecret: () => Promise.resolve(undefined),
      readConfigMap: () => Promise.resolve(undefined),
      getObject: () => undefined,
    }),
  });
  controller.startInformers();
  await controller.waitForSync();
  controller.startWorkers();
  afterStart?.();
  return {
    controller,
    stop: async () => {
      abort.abort();
      await controller.stopWorkers(2000);
      await controller.stopInformers();
    },
  };
}
