/**
 * `spec.purge.cacheTags` (issue 48): a purge request purges each listed cache tag with one
 * `POST /pullzone/{id}/purgeCache` carrying it, after the listed URLs, under the same per-object
 * bounds as URL purges (at most one request per interval, at most PURGE_URLS_PER_PASS calls
 * per pass, the rest in the next passes). Before, the list did not exist: a request with only
 * cache tags purged the whole zone.
 *
 * PullZoneExternal against an in-process cdn-sim in strict mode: every request is checked
 * against the official documents, and none may be rejected.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { CallOptions } from '../../../../src/cdn/options.js';
import type { PurgeUrlOptions } from '../../../../src/cdn/types.js';
import type { PullZoneExternal } from '../../../../src/controllers/pullzoneconfig/external.js';
import {
  PURGE_ANNOTATION,
  PURGE_URLS_PER_PASS,
  purgeDiff,
  planPurge,
} from '../../../../src/controllers/pullzoneconfig/purge.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { runPass, simExternal } from './sim-pass.js';

const API_KEY = 'pzc-purge-tags-key';
let sim: SimulatorHandle;
let ext: PullZoneExternal;
/** The purge calls the client sent, in order: `tag:<t>`, `zone` or `url:<u>`. */
const sent: string[] = [];
let clock = Date.parse('2026-03-04T05:00:00Z');

/** A client that records its purge calls before sending them to cdn-sim. */
class RecordingClient extends CdnClient {
  override async purgePullZone(id: number, cacheTag?: string, opts?: CallOptions): Promise<void> {
    sent.push(cacheTag === undefined ? 'zone' : `tag:${cacheTag}`);
    await super.purgePullZone(id, cacheTag, opts);
  }

  override async purgeUrl(
    url: string,
    options: PurgeUrlOptions = {},
    opts?: CallOptions,
  ): Promise<void> {
    sent.push(`url:${url}`);
    await super.purgeUrl(url, options, opts);
  }
}

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const client = new RecordingClient({
    baseUrl: sim.url,
    credentials: API_KEY,
    retry: { maxAttempts: 1 },
    rateLimit: { requestsPerSecond: 2000, minRequestsPerSecond: 2000, burst: 2000 },
  });
  ext = simExternal(client, () => new Date(clock));
});

test.after.always(async () => {
  await sim?.close();
});

function zoneObject(
  name: string,
  purge: { urls?: string[]; cacheTags?: string[] },
): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec: { purge },
  };
}

function requested(obj: PullZoneConfig, value: string): PullZoneConfig {
  return { ...obj, metadata: { ...obj.metadata, annotations: { [PURGE_ANNOTATION]: value } } };
}

/** One pass; answers the object after it and the purge calls it sent. */
async function pass(obj: PullZoneConfig): Promise<{ obj: PullZoneConfig; calls: string[] }> {
  const before = sent.length;
  const next = (await runPass(ext, obj)).obj;
  return { obj: next, calls: sent.slice(before) };
}

test.serial('a request with only cache tags purges each tag, not the whole zone', async (t) => {
  let { obj } = await pass(zoneObject('tags-only', { cacheTags: ['product-12', 'nav'] }));
  const first = await pass(requested(obj, 'r1'));
  t.deepEqual(first.calls, ['tag:product-12', 'tag:nav'], 'one purge per tag, in spec order');
  t.like(first.obj.status?.purge, { lastRequest: 'r1', scope: '2 cache tag(s)' });
  obj = first.obj;
  t.deepEqual((await pass(obj)).calls, [], 'the same request is not sent again');
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});

test.serial('URLs go first, then cache tags, within the per-pass bound', async (t) => {
  const urls = Array.from({ length: 15 }, (_, i) => `/a/${i}.css`);
  const tags = Array.from({ length: 15 }, (_, i) => `tag-${i}`);
  let { obj } = await pass(zoneObject('mixed', { urls, cacheTags: tags }));
  obj = requested(obj, 'm1');
  const seen: string[][] = [];
  for (let i = 0; i < 5 && obj.status?.purge?.lastRequest !== 'm1'; i++) {
    clock += 1_000;
    const r = await pass(obj);
    seen.push(r.calls);
    obj = r.obj;
  }
  t.deepEqual(
    seen.map((calls) => calls.length),
    [PURGE_URLS_PER_PASS, 30 - PURGE_URLS_PER_PASS],
    'two passes: the bound, then the rest',
  );
  const all = seen.flat();
  t.true(
    all.slice(0, 15).every((c) => c.startsWith('url:https://')),
    'the URLs first',
  );
  t.deepEqual(
    all.slice(15),
    tags.map((tag) => `tag:${tag}`),
    'then every tag once, in order',
  );
  t.like(obj.status?.purge, { lastRequest: 'm1', scope: '15 URL(s), 15 cache tag(s)' });
  t.is(obj.status?.purge?.inProgressRequest, undefined);
  t.is(sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});

test('the plan entry of a purge names the URLs and cache tags left', (t) => {
  const obj = requested(zoneObject('plan', { urls: ['/x'], cacheTags: ['a', 'b'] }), 'p1');
  const plan = planPurge(obj, new Date(clock));
  t.deepEqual(purgeDiff(obj, plan), [
    { field: 'purge', live: '<none>', desired: 'p1 (3 of 1 URL(s), 2 cache tag(s) left)' },
  ]);
});
