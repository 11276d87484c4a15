/**
 * Informer and client behaviour on hostile watch streams (issue 14 items 1, 2, 4): an ERROR
 * event followed by the end of the response, many LIST pages, watches that close at once.
 */
import { getEventListeners } from 'node:events';
import test from 'ava';
import { pino } from 'pino';
import { Informer } from '../../../src/runtime/informer.js';
import { SECRETS } from '../../../src/runtime/resource.js';
import { emptyList, eventLine, goneLine, startFakeKube } from './kube-fake-server.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

for (const tls of [false, true]) {
  test.serial(
    `an ERROR 410 event in a response that ends at once relists, no crash (${tls ? 'https' : 'http'})`,
    async (t) => {
      const kube = await startFakeKube({
        tls,
        watch: (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(goneLine());
        },
      });
      const restarts: string[] = [];
      const informer = new Informer({
        client: kube.client,
        type: SECRETS,
        namespace: 'ns',
        log,
        hooks: { onRestart: (r) => restarts.push(r) },
      });
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown): void => void uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      try {
        informer.start();
        // Until the 410 led to a relist (a loaded machine may need more than 1.5 s).
        for (let i = 0; i < 100 && kube.lists < 2; i++) await sleep(100);
        await informer.stop();
        await sleep(100);
      } finally {
        process.off('uncaughtException', onUncaught);
        await kube.close();
      }
      t.deepEqual(uncaught, []);
      t.true(restarts.includes('gone'), restarts.join(','));
      t.true(kube.lists >= 2, `lists ${kube.lists}`);
    },
  );
}

test.serial('85 LIST pages leave no abort listener behind on the informer signal', async (t) => {
  const kube = await startFakeKube({
    list: (_req, res, _n, url) => {
      const page = Number(url.searchParams.get('continue') ?? '0');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          metadata: { resourceVersion: '5', ...(page < 84 ? { continue: String(page + 1) } : {}) },
          items: [{ metadata: { name: `s${page}`, namespace: 'ns', resourceVersion: '5' } }],
        }),
      );
    },
    watch: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '6' } }));
    },
  });
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  const informer = new Informer({ client: kube.client, type: SECRETS, namespace: 'ns', log });
  try {
    informer.start();
    await informer.waitForSync();
    await sleep(200);
    const signal = (informer as unknown as { abort: AbortController }).abort.signal;
    t.is(kube.lists, 85);
    t.is(informer.store.size, 85);
    // One listener at most: the open watch's.
    t.true(
      getEventListeners(signal, 'abort').length <= 1,
      String(getEventListeners(signal, 'abort').length),
    );
    t.false(warnings.includes('MaxListenersExceededWarning'));
  } finally {
    process.off('warning', onWarning);
    await informer.stop();
    await kube.close();
  }
});

test.serial('a watch answered 200 that closes at once with no events backs off', async (t) => {
  const kube = await startFakeKube({
    list: emptyList,
    watch: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
    },
  });
  const restarts: string[] = [];
  const informer = new Informer({
    client: kube.client,
    type: SECRETS,
    namespace: 'ns',
    log,
    hooks: { onRestart: (r) => restarts.push(r) },
  });
  try {
    informer.start();
    await sleep(2000);
  } finally {
    await informer.stop();
    await kube.close();
  }
  // Backoff 500 ms doubling (±20 %): about 3 attempts in 2 s; a hot loop makes hundreds.
  t.true(kube.watches <= 6, `watches ${kube.watches}`);
  t.true(restarts.includes('short'), restarts.join(','));
});
