/**
 * Issue 29 item 6: a LIST whose continue token expired (410 on a later page) falls back to one
 * full list, as client-go's pager does, so a collection too large to page through before etcd
 * compacts can still be listed.
 */
import test from 'ava';
import { pino } from 'pino';
import { Informer } from '../../../src/runtime/informer.js';
import { SECRETS } from '../../../src/runtime/resource.js';
import { eventLine, startFakeKube } from './kube-fake-server.js';

const log = pino({ level: 'silent' });

function item(name: string): Record<string, unknown> {
  return { metadata: { name, namespace: 'ns', uid: `u-${name}`, resourceVersion: '7' } };
}

const expired = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  reason: 'Expired',
  message: 'The provided continue parameter is too old to display a consistent list result.',
  code: 410,
});

test.serial(
  'a continue token that expired (410) is followed by one full list without paging',
  async (t) => {
    const queries: string[] = [];
    const kube = await startFakeKube({
      list: (_req, res, _n, url) => {
        queries.push(url.search);
        res.setHeader('Content-Type', 'application/json');
        if (url.searchParams.get('continue')) {
          res.writeHead(410);
          res.end(expired);
          return;
        }
        const paged = url.searchParams.has('limit');
        res.writeHead(200);
        res.end(
          JSON.stringify({
            metadata: { resourceVersion: '9', ...(paged ? { continue: 'page-2' } : {}) },
            items: paged ? [item('a')] : [item('a'), item('b'), item('c')],
          }),
        );
      },
      watch: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '10' } }));
      },
    });
    const relists: string[] = [];
    const informer = new Informer({
      client: kube.client,
      type: SECRETS,
      namespace: 'ns',
      log,
      pageSize: 1,
      hooks: { onRelist: (r) => relists.push(r) },
    });
    try {
      informer.start();
      const synced = await Promise.race([
        informer.waitForSync().then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 5000)),
      ]);
      t.true(synced, `synced (LIST requests: ${queries.length})`);
      t.deepEqual(informer.store.keys().sort(), ['ns/a', 'ns/b', 'ns/c'], 'every object, once');
      t.is(informer.resourceVersion, '9');
      t.deepEqual(relists, ['initial']);
      t.is(queries.length, 3, 'first page, the expired page, then the full list');
      t.false(new URLSearchParams(queries[2]).has('limit'), 'the full list does not page');
      t.false(new URLSearchParams(queries[2]).has('continue'));
    } finally {
      await informer.stop();
      await kube.close();
    }
  },
);
