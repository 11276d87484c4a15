/**
 * Error kinds, retry policy, Retry-After, the per-account token bucket and secret redaction,
 * all against cdn-sim with injected faults.
 */
import test from 'ava';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { CdnClient } from '../../../src/cdn/client.js';
import { CdnApiError } from '../../../src/cdn/errors.js';
import type { RequestEvent } from '../../../src/cdn/options.js';
import { assertBodiesValid, callsOf, startSimClient } from './sim-harness.js';

test('kind invalid: ApiErrorData with field and key', async (t) => {
  const h = await startSimClient(t);
  const { Id: id } = await h.client.addPullZone({
    Name: 'invalid-zone',
    OriginUrl: 'https://o.example',
  });
  const e = await t.throwsAsync(
    h.client.updatePullZone(id!, { OriginShieldMaxConcurrentRequests: 0 }),
    {
      instanceOf: CdnApiError,
    },
  );
  t.like(e, { kind: 'invalid', status: 400, field: 'OriginShieldMaxConcurrentRequests' });
  t.truthy(e.errorKey);
  t.regex(e.message, /^cannot updatePullZone: /);
});

test('kind unauthorized: a wrong key', async (t) => {
  const h = await startSimClient(t);
  const other = new CdnClient({ baseUrl: h.sim.url, credentials: 'not-a-configured-key' });
  t.teardown(() => other.close());
  for (const call of [
    () => other.getPullZone(1),
    () => other.listApps(),
    () => other.listAllShieldZones(),
  ]) {
    const e = await t.throwsAsync(call(), { instanceOf: CdnApiError });
    t.is(e.kind, 'unauthorized');
    t.is(e.status, 401);
  }
});

test('kind notFound, conflict and the getShieldZoneByPullZone undefined rule', async (t) => {
  const h = await startSimClient(t);
  const nf = await t.throwsAsync(h.client.deletePullZone(424242), { instanceOf: CdnApiError });
  t.is(nf.kind, 'notFound');
  const { Id: pz } = await h.client.addPullZone({
    Name: 'conflict-zone',
    OriginUrl: 'https://o.example',
  });
  await h.client.createShieldZone({ pullZoneId: pz!, shieldZone: {} });
  const conflict = await t.throwsAsync(
    h.client.createShieldZone({ pullZoneId: pz!, shieldZone: {} }),
    {
      instanceOf: CdnApiError,
    },
  );
  t.is(conflict.kind, 'conflict');
  t.is(await h.client.getShieldZoneByPullZone(424242), undefined);
  assertBodiesValid(t, h.sent);
});

test('kind server: injected 5xx on a write, which is not retried', async (t) => {
  const h = await startSimClient(t);
  await h.admin('PUT', '/_sim/faults', { errorRate: 1, errorRoutes: ['POST /pullzone'] });
  const e = await t.throwsAsync(
    h.client.addPullZone({ Name: 'never', OriginUrl: 'https://o.example' }),
    {
      instanceOf: CdnApiError,
    },
  );
  t.like(e, { kind: 'server', status: 500 });
  t.is((await callsOf(h, 'POST /pullzone')).count, 1, 'POST create sent exactly once');
  assertBodiesValid(t, h.sent);
});

test('kind network: a dropped connection; a create that committed before the drop is not resent', async (t) => {
  const h = await startSimClient(t);
  await h.admin('PUT', '/_sim/faults', { commitThenDropRate: 1, errorRoutes: ['POST /pullzone'] });
  const e = await t.throwsAsync(
    h.client.addPullZone({ Name: 'committed', OriginUrl: 'https://o.example' }),
    {
      instanceOf: CdnApiError,
    },
  );
  t.is(e.kind, 'network');
  t.is(e.status, undefined);
  await h.admin('PUT', '/_sim/faults', {});
  const zones = await h.client.listPullZones({ search: 'committed' });
  t.is(zones.length, 1, 'exactly one zone: the client did not duplicate the create');
  assertBodiesValid(t, h.sent);
});

test('kind timeout: latency beyond timeoutMs', async (t) => {
  const h = await startSimClient(t, { timeoutMs: 100, retry: { maxAttempts: 1 } });
  await h.admin('PUT', '/_sim/faults', { latencyMs: 1000 });
  const e = await t.throwsAsync(h.client.getPullZone(1), { instanceOf: CdnApiError });
  t.is(e.kind, 'timeout');
});

test('kind rateLimited: 429 with retryAfterMs when the budget is too small to wait', async (t) => {
  const h = await startSimClient(t, { retry: { budgetMs: 500 } });
  await h.admin('PUT', '/_sim/faults', {
    rateLimit: { ratePerSecond: 0.01, burst: 1, retryAfterSeconds: 30 },
  });
  await h.client.getPullZone(1).catch(() => undefined); // uses the only token (404 is fine)
  const e = await t.throwsAsync(h.client.listPullZones(), { instanceOf: CdnApiError });
  t.like(e, { kind: 'rateLimited', status: 429, retryAfterMs: 30_000 });
});

test('GET retried after a server error, then succeeds', async (t) => {
  const events: RequestEvent[] = [];
  const h = await startSimClient(t, {
    hooks: {
      onRequest: (e) => {
        events.push(e);
        // Heal the simulator after the first failed attempt.
        if (e.status === 500) h.sim.faults.set({});
      },
    },
  });
  const { Id: id } = await h.client.addPullZone({
    Name: 'retry-zone',
    OriginUrl: 'https://o.example',
  });
  h.sim.faults.set({ errorRate: 1, errorRoutes: ['GET /pullzone/{id}'] });
  const zone = await h.client.getPullZone(id!);
  t.is(zone.Id, id);
  const calls = await callsOf(h, 'GET /pullzone/{id}');
  t.deepEqual(calls.byStatus, { '500': 1, '200': 1 });
  t.deepEqual(
    events.filter((e) => e.operation === 'getPullZone').map((e) => [e.status, e.kind, e.attempt]),
    [
      [500, 'server', 1],
      [200, undefined, 2],
    ],
  );
  assertBodiesValid(t, h.sent);
});

test('GET retried after a dropped connection, then succeeds', async (t) => {
  const h = await startSimClient(t, {
    hooks: { onRequest: (e) => (e.kind === 'network' ? h.sim.faults.set({}) : undefined) },
  });
  h.sim.faults.set({ dropConnectionRate: 1, errorRoutes: ['GET /mc/apps'] });
  t.deepEqual(await h.client.listApps(), []);
  t.is((await callsOf(h, 'GET /mc/apps')).count, 2);
});

test('Retry-After from the simulator is waited out before the retry (measured)', async (t) => {
  const h = await startSimClient(t);
  await h.admin('PUT', '/_sim/faults', {
    rateLimit: { ratePerSecond: 1, burst: 1, retryAfterSeconds: 1 },
  });
  await h.client.listPullZones(); // takes the only token
  const started = Date.now();
  await h.client.listPullZones(); // 429, Retry-After: 1, then success
  const elapsed = Date.now() - started;
  const calls = await callsOf(h, 'GET /pullzone');
  t.is(calls.byStatus['429'], 1);
  t.is(calls.byStatus['200'], 2);
  const log = (
    (await h.admin('GET', '/_sim/calls')) as {
      log: Array<{ t: number; status: number; route: string }>;
    }
  ).log
    .filter((l) => l.route === 'GET /pullzone')
    .slice(-2);
  const gap = log[1]!.t - log[0]!.t;
  t.true(gap >= 950, `retry came ${gap} ms after the 429`);
  t.true(elapsed >= 950, `call took ${elapsed} ms`);
});

test('client token bucket keeps a burst of callers under the account rate (no 429 from the sim)', async (t) => {
  const h = await startSimClient(t, {
    rateLimit: { requestsPerSecond: 8, burst: 2, maxConcurrent: 4 },
  });
  // The sim allows 2.5x the client's rate with a burst of 4, which leaves room for scheduling
  // jitter on a loaded machine (requests spaced by the client can arrive a few at a time; at
  // 10/s one late timer was enough for a 429 now and then). Without a shared bucket the second
  // client's 1000/s still sends its five calls at once, above the burst, and is refused.
  await h.admin('PUT', '/_sim/faults', {
    rateLimit: { ratePerSecond: 20, burst: 4, retryAfterSeconds: 5 },
  });
  // Two clients, same key: they share the bucket.
  const second = h.makeClient({
    rateLimit: { requestsPerSecond: 1000, burst: 1000, maxConcurrent: 100 },
  });
  t.teardown(() => second.close());
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 ? h.client : second).listPullZones()),
  );
  const elapsed = Date.now() - started;
  const calls = await callsOf(h, 'GET /pullzone');
  t.is(calls.byStatus['429'], undefined, 'the simulator never had to refuse');
  t.is(calls.count, 10);
  t.true(elapsed >= 800, `10 requests at 8/s after a burst of 2 took ${elapsed} ms`);
});

test('redaction: the AccessKey and listed Keys never reach errors or logs', async (t) => {
  const otherKey = `listed-${'x'.repeat(20)}`;
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (s: string) => lines.push(s) });
  const h = await startSimClient(t, { logger }, [otherKey]);
  const keys = await h.client.listApiKeys();
  t.is(keys.Items?.length, 2);
  const errors: unknown[] = [];
  errors.push(await t.throwsAsync(h.client.getPullZone(999999)));
  errors.push(await t.throwsAsync(h.client.updatePullZone(999999, { OriginUrl: otherKey })));
  errors.push(await t.throwsAsync(h.client.createApp({ name: h.apiKey } as never)));
  const bad = new CdnClient({ baseUrl: h.sim.url, credentials: otherKey + '-wrong', logger });
  t.teardown(() => bad.close());
  errors.push(await t.throwsAsync(bad.listApiKeys()));
  await h.admin('PUT', '/_sim/faults', { dropConnectionRate: 1 });
  errors.push(await t.throwsAsync(h.client.getPullZone(1)));
  for (const e of errors) {
    const dump = `${JSON.stringify(e)}\n${inspect(e, { depth: Infinity, showHidden: true })}\n${String((e as Error).stack)}`;
    t.false(dump.includes(h.apiKey), 'API key in an error');
    t.false(dump.includes(otherKey), 'listed key in an error');
  }
  const log = lines.join('\n');
  t.true(lines.length > 5);
  t.false(log.includes(h.apiKey), 'API key in the log');
  t.false(log.includes(otherKey), 'listed key in the log');
  t.false(
    inspect(h.client, { depth: Infinity, showHidden: true }).includes(h.apiKey),
    'API key on the client object',
  );
});
