/**
 * Cluster-scoped kinds (cluster-controller.ts) against a fake apiserver: the status is kept by
 * the leader only, a spec or label change is reflected at once through the watch (no list
 * loop), a status-only change (another replica's write) queues nothing, and dependents are
 * told only about changes that matter to them.
 */
import type http from 'node:http';
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import { ClusterController } from '../../../src/runtime/cluster-controller.js';
import { OperatorMetrics } from '../../../src/runtime/metrics.js';
import type { ClusterKind, ClusterObject } from '../../../src/runtime/types.js';
import { eventLine, startFakeKube, type FakeKube } from './kube-fake-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Account extends ClusterObject {
  metadata: {
    name: string;
    resourceVersion: string;
    generation: number;
    labels?: Record<string, string>;
  };
  spec: { ok: boolean };
}

const KIND: ClusterKind = {
  name: 'account',
  group: 'x.io',
  version: 'v1',
  kind: 'Account',
  plural: 'accounts',
  conditionsOf: (obj) =>
    Promise.resolve([
      {
        type: 'Ready',
        status: (obj.spec as { ok: boolean }).ok ? 'True' : 'False',
        reason: 'Checked',
        message: `checked generation ${String(obj.metadata.generation)}`,
        observedGeneration: obj.metadata.generation as number,
      },
    ]),
};

interface World {
  kube: FakeKube;
  patches: unknown[];
  push(type: string, obj: Account): void;
  watching(): boolean;
  account: Account;
}

async function world(): Promise<World> {
  let rv = 10;
  const w = {
    patches: [] as unknown[],
    account: {
      apiVersion: 'x.io/v1',
      kind: 'Account',
      metadata: { name: 'a', resourceVersion: String(rv), generation: 1 },
      spec: { ok: true },
    } as Account,
    watchRes: undefined as http.ServerResponse | undefined,
  };
  const kube = await startFakeKube({
    watch: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('');
      w.watchRes = res;
    },
    other: (req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ metadata: { resourceVersion: String(rv) }, items: [w.account] }));
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { status: unknown };
        w.patches.push({ path: req.url, body });
        w.account = {
          ...w.account,
          metadata: { ...w.account.metadata, resourceVersion: String(++rv) },
          status: body.status as Record<string, unknown>,
        };
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(w.account));
      });
    },
  });
  return {
    kube,
    patches: w.patches,
    get account() {
      return w.account;
    },
    set account(a: Account) {
      w.account = a;
    },
    watching: () => w.watchRes !== undefined,
    push(type, obj) {
      rv++;
      w.account = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(rv) } };
      w.watchRes?.write(eventLine(type, w.account));
    },
  };
}

function controller(
  kube: FakeKube,
  mayWrite: () => boolean,
  changes: Array<{ event: string; relevant: boolean }> = [],
): ClusterController {
  return new ClusterController({
    kind: KIND,
    client: kube.client,
    metrics: new OperatorMetrics(),
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    resyncMs: 600_000,
    connectContext: (log) => ({
      log,
      readSecret: () => Promise.resolve(undefined),
      readConfigMap: () => Promise.resolve(undefined),
      getObject: () => undefined,
    }),
    mayWrite,
    onChange: (_obj, event, relevant) => changes.push({ event, relevant }),
  });
}

async function waitUntil(check: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

/** A controller on a fresh world, synced and watching, its workers started; stopped after `t`. */
async function running(
  t: ExecutionContext,
  mayWrite: () => boolean,
  changes: Array<{ event: string; relevant: boolean }> = [],
): Promise<{ w: World; c: ClusterController }> {
  const w = await world();
  const c = controller(w.kube, mayWrite, changes);
  t.teardown(async () => {
    await c.stopWorkers(1000);
    await c.stopInformer();
    await w.kube.close();
  });
  c.startInformer();
  await c.waitForSync();
  await waitUntil(() => w.watching());
  c.startWorkers();
  return { w, c };
}

test('a replica that does not lead writes no status', async (t) => {
  const { w, c } = await running(t, () => false);
  w.push('MODIFIED', { ...w.account, metadata: { ...w.account.metadata, generation: 2 } });
  await sleep(300);
  t.is(w.patches.length, 0);
  t.is(c.get('a')?.metadata.generation, 2, 'the cache still follows the watch');
});

test('the leader writes once, follows a spec change at once, ignores a status-only change', async (t) => {
  const changes: Array<{ event: string; relevant: boolean }> = [];
  const { w } = await running(t, () => true, changes);
  await waitUntil(() => w.patches.length === 1);
  t.like(w.patches[0], {
    path: '/apis/x.io/v1/accounts/a/status',
    body: { metadata: { resourceVersion: '10' }, status: { conditions: [{ status: 'True' }] } },
  });
  t.deepEqual(changes, [{ event: 'add', relevant: false }], 'the first list is no change');

  // The echo of our own write, then another replica's status write: nothing to do.
  w.push('MODIFIED', w.account);
  w.push('MODIFIED', { ...w.account, status: { conditions: [] } });
  await sleep(300);
  t.is(w.patches.length, 1);
  t.false(changes.slice(1).some((ch) => ch.relevant));

  const started = Date.now();
  w.push('MODIFIED', {
    ...w.account,
    metadata: { ...w.account.metadata, generation: 2 },
    spec: { ok: false },
  });
  await waitUntil(() => w.patches.length === 2);
  t.true(Date.now() - started < 2_000);
  t.like(w.patches[1], {
    body: { status: { conditions: [{ status: 'False', observedGeneration: 2 }] } },
  });
  t.like(changes.at(-1), { event: 'update', relevant: true });

  w.push('MODIFIED', {
    ...w.account,
    metadata: { ...w.account.metadata, labels: { open: 'yes' } },
  });
  await sleep(100);
  t.like(changes.at(-1), { event: 'update', relevant: true }, 'a label change matters');
});
