/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- response bodies are read loosely here; call() has already validated each against the official schema */
import test from 'ava';
import { FaultInjector, checkFaultConfig } from '../../../src/simulator/faults.js';
import { validateResponse } from '../../support/openapi.js';
import { admin, call, createPullZone, rawCall, startTestSim } from '../../support/sim-client.js';

type Json = Record<string, any>;

test('token bucket: burst then 429 with Retry-After rounded up to whole seconds, refills over time', (t) => {
  let now = 0;
  const faults = new FaultInjector(
    { rateLimit: { ratePerSecond: 0.4, burst: 2 } },
    Math.random,
    () => now,
  );
  t.is(faults.takeToken(), undefined);
  t.is(faults.takeToken(), undefined);
  t.is(faults.takeToken(), 3, '1 token at 0.4/s needs 2.5 s, rounded up to 3');
  now = 1000;
  t.is(faults.takeToken(), 2, '0.4 tokens back: 0.6 missing at 0.4/s = 1.5 s -> 2');
  now = 3000;
  t.is(faults.takeToken(), undefined);
});

test('latency distributions: fixed, uniform within bounds, normal clamped at 0', (t) => {
  t.is(new FaultInjector({ latencyMs: 25 }).sampleLatency(), 25);
  const uniform = new FaultInjector({ latencyMs: { min: 10, max: 20 } });
  for (let i = 0; i < 100; i++) {
    const v = uniform.sampleLatency();
    t.true(v >= 10 && v <= 20);
  }
  const normal = new FaultInjector({ latencyMs: { mean: 1, stddev: 50 } });
  for (let i = 0; i < 100; i++) t.true(normal.sampleLatency() >= 0);
});

const BAD_CONFIGS: Array<[unknown, string]> = [
  [{ errorRate: 2 }, 'rate above 1'],
  [{ latencyMs: { min: 5, max: 1 } }, 'min above max'],
  [{ rateLimit: { ratePerSecond: 0, burst: 1 } }, 'zero rate'],
  [{ surprise: true }, 'unknown setting'],
  [{ errorRoutes: 'POST *' }, 'routes not a list'],
];
for (const [config, reason] of BAD_CONFIGS) {
  test(`fault config rejected: ${reason}`, (t) => {
    t.truthy(checkFaultConfig(config));
  });
}

test('fixed latency is applied (generous bound)', async (t) => {
  const sim = await startTestSim({ faults: { latencyMs: 150 } });
  t.teardown(() => sim.close());
  const started = Date.now();
  await call(t, sim, { area: 'core', method: 'GET', template: '/pullzone' });
  t.true(Date.now() - started >= 140);
});

test('errorRate 1 on chosen routes answers 500 there only, with the area body', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const put = await admin(sim, 'PUT', '/_sim/faults', {
    errorRate: 1,
    errorRoutes: ['POST /pullzone/{id}', '* /mc/*'],
  });
  t.is(put.status, 200);
  const id = Number(
    ((await admin(sim, 'POST', '/_sim/seed', { pullZones: [{ Name: 'f-500' }] })).body as Json)
      .pullZones[0],
  );
  const failed = await call(t, sim, {
    area: 'core',
    method: 'POST',
    template: '/pullzone/{id}',
    params: { id },
    body: { OriginUrl: 'https://x' },
  });
  t.is(failed.status, 500);
  const mc = await call(t, sim, { area: 'mc', method: 'GET', template: '/mc/apps' });
  t.is(mc.status, 500);
  t.like(mc.body, { status: 500 });
  t.is(
    (
      await call(t, sim, {
        area: 'core',
        method: 'GET',
        template: '/pullzone/{id}',
        params: { id },
      })
    ).status,
    200,
  );
  const calls = (await admin(sim, 'GET', '/_sim/calls')).body as Json;
  t.deepEqual(calls.routes['POST /pullzone/{id}'], { count: 1, byStatus: { 500: 1 } });
});

test.serial(
  'rate limit: 429 with Retry-After; the call log shows the client may wait and succeed',
  async (t) => {
    const sim = await startTestSim({ faults: { rateLimit: { ratePerSecond: 0.5, burst: 1 } } });
    t.teardown(() => sim.close());
    const spec = { area: 'core', method: 'GET', template: '/pullzone' } as const;
    // Back to back without validation in between, so no token is refilled between the two.
    const first = await rawCall(sim, spec);
    const limited = await rawCall(sim, spec);
    t.is(first.status, 200);
    t.is(limited.status, 429);
    t.deepEqual(validateResponse('core', 'GET', '/pullzone', limited.status, limited.body), []);
    const retryAfter = Number(limited.headers.get('retry-after'));
    t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 2, String(retryAfter));
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    t.is((await call(t, sim, spec)).status, 200);
    const log = ((await admin(sim, 'GET', '/_sim/calls')).body as Json).log as Json[];
    t.deepEqual(
      log.map((e) => e.status),
      [200, 429, 200],
    );
    t.true(log[2]!.t - log[1]!.t >= retryAfter * 1000 - 50, 'the log timestamps prove the wait');
  },
);

test('dropped connection: the socket closes before any state change', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  await admin(sim, 'PUT', '/_sim/faults', {
    dropConnectionRate: 1,
    errorRoutes: ['POST /pullzone'],
  });
  await t.throwsAsync(
    rawCall(sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone',
      body: { Name: 'dropped' },
    }),
  );
  t.is(sim.state.findPullZoneByName('dropped'), undefined);
  const calls = (await admin(sim, 'GET', '/_sim/calls')).body as Json;
  t.deepEqual(calls.routes['POST /pullzone'].byStatus, { 0: 1 });
});

test('commit then drop: the write is applied, the response never arrives', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  await admin(sim, 'PUT', '/_sim/faults', { commitThenDropRate: 1 });
  await t.throwsAsync(
    rawCall(sim, {
      area: 'core',
      method: 'POST',
      template: '/pullzone',
      body: { Name: 'committed' },
    }),
  );
  t.truthy(sim.state.findPullZoneByName('committed'));
  t.is(
    (await call(t, sim, { area: 'core', method: 'GET', template: '/pullzone' })).status,
    200,
    'reads are not dropped',
  );
});

test('admin: faults round-trip, calls reset, state dump, seed and reset', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  t.is((await admin(sim, 'PUT', '/_sim/faults', { errorRate: 2 })).status, 400);
  await admin(sim, 'PUT', '/_sim/faults', { latencyMs: { min: 0, max: 1 } });
  t.deepEqual((await admin(sim, 'GET', '/_sim/faults')).body, { latencyMs: { min: 0, max: 1 } });
  await createPullZone(t, sim, 'admin-zone');
  const dump = (await admin(sim, 'GET', '/_sim/state')).body as Json;
  t.true(dump.pullZones.some((z: Json) => z.record.Name === 'admin-zone'));
  t.is((await admin(sim, 'DELETE', '/_sim/calls')).status, 204);
  t.deepEqual(((await admin(sim, 'GET', '/_sim/calls')).body as Json).routes, {});
  const seeded = await admin(sim, 'POST', '/_sim/seed', {
    storageZones: [{ Name: 'seeded-sz' }],
    videoLibraries: [{ Name: 'seeded-vl' }],
  });
  t.is(seeded.status, 200);
  t.is((await admin(sim, 'POST', '/_sim/reset')).status, 204);
  t.is(sim.state.pullZones.size, 0);
  t.is(sim.state.storageZones.size, 2, 'reset restores the default seed');
});
