/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
/**
 * cdn-sim serves large accounts (issue 50): `pullZoneSeries` seeds many zones in one admin
 * call, and a page of `GET /pullzone` renders its own items only.
 */
import test from 'ava';
import { admin, call, startTestSim } from '../../support/sim-client.js';

type Json = Record<string, any>;

test('pullZoneSeries seeds count zones in one call, consecutive ids, each listed once across the pages', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const before = sim.state.pullZones.size;
  const seeded = await admin(sim, 'POST', '/_sim/seed', {
    pullZoneSeries: { prefix: 'big-', count: 2_500, settings: { OriginUrl: 'https://o.example' } },
  });
  t.is(seeded.status, 200);
  const { firstId, lastId } = (seeded.body as Json).pullZoneSeries;
  t.is(lastId - firstId, 2_499, 'consecutive ids');
  t.is(sim.state.pullZones.size, before + 2_500);
  const names = new Set<string>();
  for (let page = 1; ; page++) {
    const res = await call(t, sim, {
      area: 'core',
      method: 'GET',
      template: '/pullzone',
      query: { page, perPage: 1000 },
    });
    const body = res.body as Json;
    for (const z of body.Items) names.add(z.Name);
    t.is(body.TotalItems, before + 2_500);
    if (!body.HasMoreItems) {
      t.is(page, 3, 'three pages of 1,000');
      break;
    }
  }
  t.true(names.has('big-0') && names.has('big-2499'));
  t.is(names.size, before + 2_500, 'every zone on exactly one page');
  const zone = sim.state.pullZones.get(firstId);
  t.is(zone?.record.OriginUrl, 'https://o.example', 'with the settings given');
});

test('pullZoneSeries refuses a bad count, a missing prefix and a taken name', async (t) => {
  const sim = await startTestSim();
  t.teardown(() => sim.close());
  const cases: Array<[unknown, RegExp, string]> = [
    [{ prefix: 'x-', count: 0 }, /count must be an integer/, 'count below 1'],
    [{ prefix: 'x-', count: 1.5 }, /count must be an integer/, 'count not an integer'],
    [{ count: 3 }, /prefix is required/, 'no prefix'],
  ];
  for (const [series, message, why] of cases) {
    const res = await admin(sim, 'POST', '/_sim/seed', { pullZoneSeries: series });
    t.is(res.status, 400, why);
    t.regex(String((res.body as Json).error), message, why);
  }
  await admin(sim, 'POST', '/_sim/seed', { pullZoneSeries: { prefix: 'y-', count: 2 } });
  const taken = await admin(sim, 'POST', '/_sim/seed', {
    pullZoneSeries: { prefix: 'y-', count: 2 },
  });
  t.is(taken.status, 400, 'names already taken');
});
