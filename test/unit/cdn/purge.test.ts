/**
 * Purge client methods (src/cdn/purge.ts) against cdn-sim; every request body is checked against the official request
 * schema (assertBodiesValid).
 */
import test from 'ava';
import { CdnApiError } from '../../../src/cdn/errors.js';
import { assertBodiesValid, startSimClient } from './sim-harness.js';

test('purge: zone and cache tag send valid bodies, URL purge validates the URL first', async (t) => {
  const h = await startSimClient(t);
  const zone = await h.client.addPullZone({ Name: 'client-purge', OriginUrl: 'https://o.example' });
  await h.client.purgePullZone(zone.Id!);
  await h.client.purgePullZone(zone.Id!, 'tag-1');
  await h.client.purgeUrl('https://client-purge.b-cdn.net/img/*', { async: true });
  const bad = await t.throwsAsync(h.client.purgeUrl('not a url'), { instanceOf: CdnApiError });
  t.is(bad.kind, 'invalid');
  const calls = (await h.admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number }>;
  };
  t.is(calls.routes['POST /pullzone/{id}/purgeCache']?.count, 2);
  t.is(calls.routes['POST /purge']?.count, 1, 'the invalid URL never reached the API');
  assertBodiesValid(t, h.sent);
});
