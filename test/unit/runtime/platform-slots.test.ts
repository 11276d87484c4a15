/**
 * Platform slots (platform-slots.ts): at most `workers` platform calls of a kind at a time,
 * high-priority passes first, and — the reason they exist — a pass's Kubernetes round trips
 * no longer idle a worker: while creates wait for the apiserver, other passes keep every
 * platform slot busy (issue 17: creates bound by workers ÷ L, not by the apiserver's latency).
 */
import test from 'ava';
import type http from 'node:http';
import { pino } from 'pino';
import { Controller } from '../../../src/runtime/controller.js';
import { EventRecorder } from '../../../src/runtime/events.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import { PlatformSlots } from '../../../src/runtime/platform-slots.js';
import type { ExternalClient, ManagedObject } from '../../../src/runtime/types.js';
import { applyMergePatch, FakeEnv, thing } from './fake-env.js';
import { startFakeKube } from './kube-fake-server.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('never more than size calls run; a freed slot goes to a waiting high call first', async (t) => {
  const slots = new PlatformSlots(2);
  const order: string[] = [];
  let running = 0;
  let most = 0;
  const call = (name: string, ms: number) => async (): Promise<string> => {
    running++;
    most = Math.max(most, running);
    order.push(name);
    await sleep(ms);
    running--;
    return name;
  };
  const all = [
    slots.run('low', call('l1', 30)),
    slots.run('low', call('l2', 30)),
    slots.run('low', call('l3', 5)),
    slots.run('low', call('l4', 5)),
    slots.run('high', call('h1', 5)),
  ];
  t.is(slots.inUse, 2);
  t.is(slots.waiting, 3);
  t.deepEqual(await Promise.all(all), ['l1', 'l2', 'l3', 'l4', 'h1']);
  t.is(most, 2);
  t.deepEqual(order.slice(0, 3), ['l1', 'l2', 'h1'], 'the high call overtook the waiting lows');
  t.is(slots.inUse, 0);
});

test('a call still waiting when the signal aborts is rejected and never runs', async (t) => {
  const slots = new PlatformSlots(1);
  const abort = new AbortController();
  let ran = false;
  const first = slots.run('low', () => sleep(30));
  const second = slots.run(
    'low',
    () => {
      ran = true;
      return Promise.resolve();
    },
    abort.signal,
  );
  abort.abort();
  await t.throwsAsync(second, { name: 'AbortError', message: /cannot wait for a platform slot/ });
  await first;
  t.false(ran);
  t.is(slots.inUse, 0);
  t.is(slots.waiting, 0);
});

test('sizes below 1 are refused with a clear error', (t) => {
  t.throws(() => new PlatformSlots(0), { message: /cannot size platform slots: 0/ });
});

/**
 * A fake apiserver that lists `objects`, keeps watches open and answers every PATCH after
 * `writeMs` with the merge-patched object (resourceVersion bumped).
 */
async function slowKube(
  objects: Map<string, ManagedObject>,
  writeMs: number,
  pending: { writes: number },
): Promise<Awaited<ReturnType<typeof startFakeKube>>> {
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

test('creates keep every platform slot busy while other passes wait for the apiserver', async (t) => {
  const env = new FakeEnv();
  env.createAvailable = true;
  const objects = new Map<string, ManagedObject>();
  for (let i = 0; i < 12; i++) {
    const o = env.put(thing(`o${i}`));
    objects.set(o.metadata.name, o);
  }
  const pending = { writes: 0 };
  const kube = await slowKube(objects, 40, pending);
  t.teardown(() => kube.close());
  let inFlight = 0;
  let most = 0;
  let fullWhileWriting = 0;
  const platform = async <T>(fn: () => Promise<T>): Promise<T> => {
    inFlight++;
    most = Math.max(most, inFlight);
    if (inFlight === 2 && pending.writes > 0) fullWhileWriting++;
    try {
      await sleep(20);
      return await fn();
    } finally {
      inFlight--;
    }
  };
  const kind = env.kind();
  kind.connect = (): Promise<ExternalClient> => {
    const c = env.client();
    return Promise.resolve({
      account: 'acc-1',
      observe: (o, ctx) => platform(() => c.observe(o, ctx)),
      create: (o, ctx) => platform(() => c.create(o, ctx)),
      update: (o, obs, ctx) => platform(() => c.update(o, obs, ctx)),
      delete: (o, ctx) => platform(() => c.delete(o, ctx)),
    });
  };
  const abort = new AbortController();
  const controller = new Controller({
    kind,
    client: kube.client,
    namespaces: ['ns'],
    workers: 2,
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
  const created = async (): Promise<boolean> => {
    for (let i = 0; i < 200; i++) {
      if ([...objects.values()].every((o) => o.status?.thingId !== undefined)) return true;
      await sleep(20);
    }
    return false;
  };
  t.true(await created(), 'every object got its id');
  abort.abort();
  await controller.stopWorkers(2000);
  await controller.stopInformers();
  t.is(env.things.size, 12, 'one platform resource per object');
  t.true(most <= 2, `at most --workers platform calls at a time (saw ${most})`);
  // With one worker per slot (the old loop), a worker writing to the apiserver leaves its
  // slot idle: two calls in flight while a write is pending never happens.
  t.true(fullWhileWriting > 0, 'both slots were busy while a pass waited for the apiserver');
});
