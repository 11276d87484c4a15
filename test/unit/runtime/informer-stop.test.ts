/**
 * stop() called in the turn the first list completes (a manager shutting down right after its
 * caches synced) came before the watch had registered its abort listener: the listener never
 * ran and stop() waited for the server to end the watch (minutes). Found while testing the
 * sliced relist (issue 32).
 */
import test from 'ava';
import { pino } from 'pino';
import { Informer } from '../../../src/runtime/informer.js';
import { SECRETS } from '../../../src/runtime/resource.js';
import { eventLine, startFakeKube } from './kube-fake-server.js';

test('stop() right after the first sync ends the watch at once', async (t) => {
  const kube = await startFakeKube({
    list: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ metadata: { resourceVersion: '9' }, items: [] }));
    },
    watch: (_req, res) => {
      // Never ends on its own, as a real watch within its timeoutSeconds.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(eventLine('BOOKMARK', { metadata: { resourceVersion: '10' } }));
    },
  });
  t.teardown(() => kube.close());
  const informer = new Informer({
    client: kube.client,
    type: SECRETS,
    namespace: 'ns',
    log: pino({ level: 'silent' }),
  });
  informer.start();
  await informer.waitForSync();
  const stopped = await Promise.race([
    informer.stop().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 3000).unref()),
  ]);
  t.true(stopped, 'stop() returned within 3 s');
});
