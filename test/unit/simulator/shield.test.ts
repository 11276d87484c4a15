/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { validateRequest } from '../../support/openapi.js';
import { admin, call, createPullZone, startTestSim } from '../../support/sim-client.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

type Json = Record<string, any>;

/**
 * The six members the contract calls list-only but the official documents declare on the
 * single-zone read too (ShieldZoneResponse); clients read them there (issue 30, item 4).
 */
const SIX_FIELDS = [
  'planType',
  'dDoSShieldSensitivity',
  'dDoSExecutionMode',
  'wafExecutionMode',
  'wafRequestBodyLimitAction',
  'wafResponseBodyLimitAction',
];

async function createShieldZone(
  t: ExecutionContext,
  name: string,
  shieldZone?: Json,
): Promise<{ pullZoneId: number; shieldZoneId: number }> {
  const pullZoneId = await createPullZone(t, sim, name);
  const body: Json = { pullZoneId, ...(shieldZone ? { shieldZone } : {}) };
  t.deepEqual(validateRequest('shield', 'POST', '/shield/shield-zone', body), []);
  const res = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body,
  });
  t.is(res.status, 200, JSON.stringify(res.body));
  return { pullZoneId, shieldZoneId: (res.body as Json).data.shieldZone.shieldZoneId };
}

test('create, then get by pull zone: {data} with every member the document declares, the six "list-only" ones included', async (t) => {
  const { pullZoneId, shieldZoneId } = await createShieldZone(t, 'sz-get', {
    wafEnabled: true,
    wafDisabledRules: ['913100'],
  });
  const res = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    params: { pullZoneId },
  });
  t.is(res.status, 200);
  const data = (res.body as Json).data;
  t.like(data, { shieldZoneId, pullZoneId, wafEnabled: true, wafDisabledRules: ['913100'] });
  for (const field of SIX_FIELDS) t.true(field in data, `${field} is on the single-zone read`);
  t.is(typeof data.rateLimitRulesLimit, 'number');
  const byId = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/{shieldZoneId}',
    params: { shieldZoneId },
  });
  t.deepEqual((byId.body as Json).data, data);
});

test('get by pull zone without a shield zone: 404 with the single-zone error shape', async (t) => {
  const pullZoneId = await createPullZone(t, sim, 'sz-none');
  const res = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    params: { pullZoneId },
  });
  t.is(res.status, 404);
  t.like(res.body, { value: null, statusCode: 404 });
  t.deepEqual(Object.keys(res.body as Json).sort(), [
    'contentTypes',
    'declaredType',
    'formatters',
    'location',
    'statusCode',
    'value',
  ]);
});

test('list: {data, page} envelope with list-only fields and paging', async (t) => {
  for (const n of [1, 2, 3]) await createShieldZone(t, `sz-list-${n}`);
  const res = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zones',
    query: { page: 1, perPage: 2 },
  });
  t.is(res.status, 200);
  const body = res.body as Json;
  t.is(body.data.length, 2);
  for (const field of SIX_FIELDS) t.true(field in body.data[0], `${field} in the list form`);
  t.like(body.page, { currentPage: 1, pageSize: 2, nextPage: 2 });
  t.is(body.page.totalPages, Math.ceil(body.page.totalCount / 2));
  const last = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zones',
    query: { page: body.page.totalPages, perPage: 2 },
  });
  t.is((last.body as Json).page.nextPage, null);
});

test('plan limits come from the plan type; tests can seed another plan', async (t) => {
  const basic = await createShieldZone(t, 'sz-plan-basic');
  const advanced = await createShieldZone(t, 'sz-plan-adv', { planType: 1 });
  const list = (
    await call(t, sim, {
      area: 'shield',
      method: 'GET',
      template: '/shield/shield-zones',
      query: { perPage: 1000 },
    })
  ).body as Json;
  const find = (id: number): Json => list.data.find((z: Json) => z.shieldZoneId === id);
  t.like(find(basic.shieldZoneId), { planType: 0, rateLimitRulesLimit: 2, customWafRulesLimit: 0 });
  t.like(find(advanced.shieldZoneId), {
    planType: 1,
    rateLimitRulesLimit: 10,
    customWafRulesLimit: 10,
  });
  const seeded = await admin(sim, 'PUT', `/_sim/shield-zones/${basic.shieldZoneId}/plan`, {
    planType: 3,
    customWafRulesLimit: 7,
  });
  t.is(seeded.status, 200);
  t.like(seeded.body, { planType: 3, rateLimitRulesLimit: 100, customWafRulesLimit: 7 });
});

test('create: unknown pull zone 400, second zone for the same pull zone 409, bad enum 400 (error member)', async (t) => {
  const missing = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId: 777777 },
  });
  t.is(missing.status, 400);
  t.like(missing.body, {
    error: { success: false, errorKey: 'shield.pullzone_not_found', statusCode: 400 },
  });
  const { pullZoneId } = await createShieldZone(t, 'sz-twice');
  const twice = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId },
  });
  t.is(twice.status, 409);
  const other = await createPullZone(t, sim, 'sz-bad-enum');
  const bad = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/shield-zone',
    body: { pullZoneId: other, shieldZone: { wafExecutionMode: 5 } },
  });
  t.is(bad.status, 400);
});

test('update (PATCH /shield/shield-zone) applies fields, null leaves them, unknown id 404', async (t) => {
  const { shieldZoneId, pullZoneId } = await createShieldZone(t, 'sz-update');
  const body = {
    shieldZoneId,
    shieldZone: {
      learningMode: false,
      wafRealtimeThreatIntelligenceEnabled: true,
      wafEnabled: null,
    },
  };
  t.deepEqual(validateRequest('shield', 'PATCH', '/shield/shield-zone', body), []);
  const res = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: '/shield/shield-zone',
    body,
  });
  t.is(res.status, 200);
  t.like((res.body as Json).data, {
    shieldZoneId,
    shieldZone: {
      learningMode: false,
      wafRealtimeThreatIntelligenceEnabled: true,
      wafEnabled: true,
    },
  });
  const read = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    params: { pullZoneId },
  });
  t.like((read.body as Json).data, { learningMode: false, wafEnabled: true });
  const missing = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: '/shield/shield-zone',
    body: { shieldZoneId: 999999, shieldZone: {} },
  });
  t.is(missing.status, 404);
  t.like(missing.body, { error: { errorKey: 'shield.zone_not_found' } });
});

test('WAF rule metrics: data with the four counters and overviewPastTwentyEightDays; seeded values', async (t) => {
  const { shieldZoneId } = await createShieldZone(t, 'sz-metrics');
  const template = '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}';
  const empty = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template,
    params: { shieldZoneId, ruleId: '913100' },
  });
  t.is(empty.status, 200);
  const data = (empty.body as Json).data;
  t.like(data, { totalTriggers: 0, blockedRequests: 0, loggedRequests: 0, challengedRequests: 0 });
  t.is(Object.keys(data.overviewPastTwentyEightDays).length, 28);
  const seeded = await admin(
    sim,
    'PUT',
    `/_sim/shield-zones/${shieldZoneId}/waf-rules/913100/metrics`,
    { totalTriggers: 9, blockedRequests: 5, loggedRequests: 3, challengedRequests: 1 },
  );
  t.is(seeded.status, 200);
  const after = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template,
    params: { shieldZoneId, ruleId: '913100' },
  });
  t.like((after.body as Json).data, {
    totalTriggers: 9,
    blockedRequests: 5,
    loggedRequests: 3,
    challengedRequests: 1,
  });
});

test('WAF rule metrics failures carry the error member: unknown zone 404, bad rule id 400', async (t) => {
  const template = '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}';
  const missing = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template,
    params: { shieldZoneId: 55555, ruleId: 'r1' },
  });
  t.is(missing.status, 404);
  t.like(missing.body, {
    error: { statusCode: 404, success: false, errorKey: 'shield.zone_not_found' },
  });
  const { shieldZoneId } = await createShieldZone(t, 'sz-metrics-bad');
  const bad = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template,
    params: { shieldZoneId, ruleId: 'bad rule!' },
  });
  t.is(bad.status, 400);
  t.like(bad.body, { error: { statusCode: 400, success: false } });
});

test('deleting the pull zone deletes its shield zone', async (t) => {
  const { pullZoneId, shieldZoneId } = await createShieldZone(t, 'sz-cascade');
  await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}',
    params: { id: pullZoneId },
  });
  t.false(sim.state.shieldZones.has(shieldZoneId));
});

test('a written value of each of the six fields reads back as written on both single-zone reads', async (t) => {
  const written = {
    planType: 2,
    dDoSShieldSensitivity: 4,
    // The vendor's provider writes Log (0) by default and reads it back (issue 49).
    dDoSExecutionMode: 0,
    wafExecutionMode: 0,
    wafRequestBodyLimitAction: 1,
    wafResponseBodyLimitAction: 2,
  };
  const { pullZoneId, shieldZoneId } = await createShieldZone(t, 'sz-six', written);
  for (const [template, params] of [
    ['/shield/shield-zone/get-by-pullzone/{pullZoneId}', { pullZoneId }],
    ['/shield/shield-zone/{shieldZoneId}', { shieldZoneId }],
  ] as const) {
    const res = await call(t, sim, { area: 'shield', method: 'GET', template, params });
    t.like((res.body as Json).data, written, template);
  }
});
