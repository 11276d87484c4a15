/**
 * The composition's caches (src/composition/world.ts) list where the operator watches: each
 * listed namespace, or every namespace when none is listed (`--namespace` unset).
 */
import test from 'ava';
import { pino } from 'pino';
import { World } from '../../../src/composition/world.js';
import { INGRESSES } from '../../../src/composition/resource-types.js';
import { startFakeKube } from '../runtime/kube-fake-server.js';

const CASES: Array<{ title: string; namespaces: string[]; paths: string[] }> = [
  {
    title: 'no namespace listed: one list over every namespace',
    namespaces: [],
    paths: ['/apis/networking.k8s.io/v1/ingresses'],
  },
  {
    title: 'two namespaces: one list in each',
    namespaces: ['a', 'b'],
    paths: [
      '/apis/networking.k8s.io/v1/namespaces/a/ingresses',
      '/apis/networking.k8s.io/v1/namespaces/b/ingresses',
    ],
  },
];

for (const c of CASES) {
  test(c.title, async (t) => {
    const paths: string[] = [];
    const kube = await startFakeKube({
      list: (_req, res, _n, url) => {
        paths.push(url.pathname);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: [] }));
      },
      watch: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
      },
    });
    const world = new World({
      client: kube.client,
      log: pino({ level: 'silent' }),
      namespaces: c.namespaces,
      types: [INGRESSES],
      stallTimeoutMs: 60_000,
      onChange: () => undefined,
    });
    world.start();
    await world.waitForSync();
    t.deepEqual(paths.sort(), c.paths);
    await world.stop();
    await kube.close();
  });
}
