/**
 * Purges are bounded per object (issue 28, item 4): at most one purge request per minimum
 * interval per object (requests made meanwhile are merged into one, sent when the interval
 * has passed, and reported in `status.purge.scheduledTime` and a `PurgeDeferred` event), and
 * at most a bounded number of URL purges per pass (a long list continues in later passes).
 * Before: every new annotation value was a purge and `spec.purge.urls` one call per URL in one
 * pass: 50 annotation bumps in 26 s sent 50 zone purges plus 13,000 URL purges.
 *
 * PullZoneExternal against an in-process cdn-sim, passes driven like the runtime's on a
 * virtual clock.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { PullZoneExternal } from '../../../../src/controllers/pullzoneconfig/external.js';
import {
  PURGE_ANNOTATION,
  PURGE_MIN_INTERVAL_MS,
  PURGE_URLS_PER_PASS,
} from '../../../../src/controllers/pullzoneconfig/purge.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';
import type { Observation } from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { runPass, simExternal } from './sim-pass.js';

const API_KEY = 'pzc-purge-bound-key';
let sim: SimulatorHandle;
let ext: PullZoneExternal;
let clock = Date.parse('2026-01-02T03:00:00Z');

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: API_KEY,
    rateLimit: { requestsPerSecond: 2000, minRequestsPerSecond: 2000, burst: 2000 },
  });
  ext = simExternal(client, () => new Date(clock));
});

test.after.always(async () => {
  await sim?.close();
});

interface PassResult {
  obj: PullZoneConfig;
  /** Purge calls this pass sent. */
  purges: { zone: number; urls: number };
  obs: Observation;
}

async function purgeCalls(): Promise<{ zone: number; urls: number }> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  const log = ((await res.json()) as { log: { route: string }[] }).log;
  return {
    zone: log.filter((c) => c.route === 'POST /pullzone/{id}/purgeCache').length,
    urls: log.filter((c) => c.route === 'POST /purge').length,
  };
}

/** One reconcile pass like the runtime's, with the purge calls it sent. */
async function pass(obj: PullZoneConfig): Promise<PassResult> {
  const before = await purgeCalls();
  const { obj: next, obs } = await runPass(ext, obj);
  const after = await purgeCalls();
  return {
    obj: next,
    purges: { zone: after.zone - before.zone, urls: after.urls - before.urls },
    obs,
  };
}

function zoneObject(name: string, urls: number): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}` },
    spec:
      urls > 0 ? { purge: { urls: Array.from({ length: urls }, (_, i) => `/f/${i}.css`) } } : {},
  };
}

function bumped(obj: PullZoneConfig, value: string): PullZoneConfig {
  return { ...obj, metadata: { ...obj.metadata, annotations: { [PURGE_ANNOTATION]: value } } };
}

test.serial(
  '50 purge bumps in 26 s on 4 zones (one whole-zone, three with 100 URLs) stay within the bound',
  async (t) => {
    let objs = [
      zoneObject('pb-zone', 0),
      zoneObject('pb-u1', 100),
      zoneObject('pb-u2', 100),
      zoneObject('pb-u3', 100),
    ];
    objs = await Promise.all(objs.map(async (o) => (await pass(o)).obj));
    const start = await purgeCalls();
    const startTime = clock;
    let mostUrlsInOnePass = 0;
    const events: string[] = [];
    for (let bump = 1; bump <= 50; bump++) {
      clock = startTime + bump * 520;
      for (let i = 0; i < objs.length; i++) {
        const r = await pass(bumped(objs[i]!, `r${bump}`));
        mostUrlsInOnePass = Math.max(mostUrlsInOnePass, r.purges.urls);
        for (const e of r.obs.events ?? []) events.push(e.reason);
        objs[i] = r.obj;
      }
      const soFar = await purgeCalls();
      // Far past the bound already (the code before): stop rather than send thousands more.
      if (soFar.zone - start.zone > 5 || soFar.urls - start.urls > 1000) break;
    }
    const sent = await purgeCalls();
    const zone = sent.zone - start.zone;
    const urls = sent.urls - start.urls;
    t.is(zone, 1, 'one whole-zone purge in 26 s, not 50');
    t.true(urls <= 300, `at most one request of 100 URLs per zone in 26 s (sent ${urls})`);
    t.true(
      mostUrlsInOnePass <= PURGE_URLS_PER_PASS,
      `at most ${PURGE_URLS_PER_PASS} URL purges in one pass (saw ${mostUrlsInOnePass})`,
    );
    const purge = objs[0]!.status?.purge as Record<string, unknown>;
    t.is(purge.lastRequest, 'r1', 'the first request was handled');
    t.is(
      purge.scheduledTime,
      new Date(startTime + 520 + PURGE_MIN_INTERVAL_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      'the latest request waits for the interval, reported in status',
    );
    t.true(events.includes('PurgeDeferred'), 'a deferred request is reported as an event');
    // Once the interval has passed, the latest request (only that one) is sent.
    clock = startTime + 520 + PURGE_MIN_INTERVAL_MS + 1;
    const due = await pass(bumped(objs[0]!, 'r50'));
    t.deepEqual(due.purges, { zone: 1, urls: 0 });
    const done = due.obj.status?.purge as Record<string, unknown>;
    t.is(done.lastRequest, 'r50', 'the merged requests were answered by one purge');
    t.is(done.scheduledTime, undefined);
    t.deepEqual((await pass(bumped(due.obj, 'r50'))).purges, { zone: 0, urls: 0 }, 'not repeated');
  },
);

test.serial('a deferred request tells the runtime when to look again', async (t) => {
  let { obj } = await pass(zoneObject('pb-requeue', 0));
  obj = (await pass(bumped(obj, 'x1'))).obj;
  clock += 10_000;
  const deferred = await pass(bumped(obj, 'x2'));
  t.deepEqual(deferred.purges, { zone: 0, urls: 0 });
  t.true(
    deferred.obs.upToDate,
    'a deferred purge is not a pending change (no update, no event per pass)',
  );
  const wait = deferred.obs.requeueAfterMs ?? Infinity;
  t.true(
    wait <= PURGE_MIN_INTERVAL_MS - 10_000 + 1000 && wait >= PURGE_MIN_INTERVAL_MS - 10_000 - 1000,
    `requeue after ${wait} ms`,
  );
});

test.serial(
  'a URL purge longer than one pass continues where it stopped, never twice',
  async (t) => {
    let { obj } = await pass(zoneObject('pb-long', 100));
    obj = bumped(obj, 'long-1');
    let total = 0;
    let passes = 0;
    for (; passes < 20; passes++) {
      const r = await pass(obj);
      total += r.purges.urls;
      obj = r.obj;
      if ((obj.status?.purge as Record<string, unknown> | undefined)?.lastRequest === 'long-1')
        break;
      t.true(r.obs.requeueAfterMs !== undefined, 'an unfinished purge is continued soon');
    }
    t.is(total, 100, 'every URL purged exactly once');
    t.is(passes + 1, Math.ceil(100 / PURGE_URLS_PER_PASS));
    t.like(obj.status?.purge, { lastRequest: 'long-1', scope: '100 URL(s)' });
  },
);
