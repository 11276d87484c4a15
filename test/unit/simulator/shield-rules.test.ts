/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- response bodies are read loosely here; call() has already validated each against the official schema */
import test from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { admin, call, startTestSim } from '../../support/sim-client.js';
import { createShieldZone } from './shield-zone-helper.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const wafConfig = {
  actionType: 1,
  variableTypes: { REQUEST_URI: '' },
  operatorType: 2,
  value: '/admin',
  transformationTypes: [8],
};

const rateConfig = {
  actionType: 1,
  variableTypes: { REQUEST_URI: '' },
  operatorType: 0,
  value: '/login',
  requestCount: 10,
  timeframe: 60,
  blockTime: 300,
};

test('custom WAF rule: create, read (bare record, bound defaults), patch one member, replace, delete', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'rules-waf', 1);
  const created = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/waf/custom-rule',
    body: { shieldZoneId, ruleName: 'block-admin', ruleConfiguration: wafConfig },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const rule = created.body as any;
  t.like(rule, { shieldZoneId, ruleName: 'block-admin', ruleDescription: null });
  t.deepEqual(rule.ruleConfiguration, {
    ...wafConfig,
    severityType: 0,
    isNegated: null,
    isRegexVariable: null,
    chainedRuleConditions: null,
  });
  t.is(typeof rule.ruleJson, 'string');
  const read = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/custom-rule/{id}',
    params: { id: rule.id },
  });
  t.deepEqual(read.body, rule);
  const patched = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: '/shield/waf/custom-rule/{id}',
    params: { id: rule.id },
    body: { ruleDescription: 'admins only' },
  });
  t.is(patched.status, 200);
  t.like(patched.body, { ruleName: 'block-admin', ruleDescription: 'admins only' });
  t.deepEqual((patched.body as any).ruleConfiguration, rule.ruleConfiguration, 'config untouched');
  const replaced = await call(t, sim, {
    area: 'shield',
    method: 'PUT',
    template: '/shield/waf/custom-rule/{id}',
    params: { id: rule.id },
    body: { ruleName: 'renamed', ruleConfiguration: { ...wafConfig, actionType: 3 } },
  });
  t.like(replaced.body, { ruleName: 'renamed', ruleDescription: null });
  t.is((replaced.body as any).ruleConfiguration.actionType, 3);
  const list = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/custom-rules/{shieldZoneId}',
    params: { shieldZoneId },
  });
  t.deepEqual(
    (list.body as any).data.map((r: any) => r.id),
    [rule.id],
  );
  t.like((list.body as any).page, { totalCount: 1, currentPage: 1, pageSize: 10, nextPage: null });
  const deleted = await call(t, sim, {
    area: 'shield',
    method: 'DELETE',
    template: '/shield/waf/custom-rule/{id}',
    params: { id: rule.id },
  });
  t.like(deleted.body, { success: true });
  const gone = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/custom-rule/{id}',
    params: { id: rule.id },
  });
  t.is(gone.status, 404);
  t.like(gone.body, { errorResponse: { success: false, errorKey: 'shield.rule_not_found' } });
});

test('plan segmentation: a Basic zone has no custom WAF rule and two rate limits; 403 names the plan', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'rules-basic', 0);
  const waf = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/waf/custom-rule',
    body: { shieldZoneId, ruleName: 'x', ruleConfiguration: wafConfig },
  });
  t.is(waf.status, 403);
  t.like(waf.body, { errorResponse: { errorKey: 'shield.plan_required', statusCode: 403 } });
  t.regex((waf.body as any).errorResponse.message, /Basic plan .* allows 0 custom WAF rules/);
  for (const n of [1, 2]) {
    const ok = await call(t, sim, {
      area: 'shield',
      method: 'POST',
      template: '/shield/rate-limit',
      body: { shieldZoneId, ruleName: `rl-${n}`, ruleConfiguration: rateConfig },
    });
    t.is(ok.status, 200, JSON.stringify(ok.body));
  }
  const third = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId, ruleName: 'rl-3', ruleConfiguration: rateConfig },
  });
  t.is(third.status, 403);
  await admin(sim, 'PUT', `/_sim/shield-zones/${shieldZoneId}/plan`, { planType: 1 });
  const upgraded = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId, ruleName: 'rl-3', ruleConfiguration: rateConfig },
  });
  t.is(upgraded.status, 200, 'the Advanced plan allows more');
});

test('rate limit: reads carry the rate-limit members; patch replaces the configuration as a whole', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'rules-rate', 1);
  const created = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId, ruleName: 'login', ruleConfiguration: rateConfig },
  });
  const id = (created.body as any).id as number;
  const read = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/rate-limit/{id}',
    params: { id },
  });
  t.like((read.body as any).ruleConfiguration, {
    requestCount: 10,
    timeframe: 60,
    blockTime: 300,
    counterKeyType: 0,
  });
  const patched = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: '/shield/rate-limit/{id}',
    params: { id },
    body: { ruleConfiguration: { ...rateConfig, requestCount: 50, counterKeyType: 7 } },
  });
  t.like((patched.body as any).ruleConfiguration, { requestCount: 50, counterKeyType: 7 });
  const list = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/rate-limits/{shieldZoneId}',
    params: { shieldZoneId },
  });
  t.is((list.body as any).data[0].ruleConfiguration.requestCount, 50);
  const waf = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/custom-rule/{id}',
    params: { id },
  });
  t.is(waf.status, 404, 'a rate limit is not a custom WAF rule');
});

const invalidCases: Array<{ reason: string; body: Record<string, unknown>; message: RegExp }> = [
  {
    reason: 'a rule needs a name',
    body: { ruleConfiguration: rateConfig },
    message: /ruleName is required/,
  },
  {
    reason: 'a rule needs at least one variable',
    body: { ruleName: 'n', ruleConfiguration: { ...rateConfig, variableTypes: {} } },
    message: /variableTypes needs at least one variable/,
  },
  {
    reason: 'a rate limit needs a request count (the model binds a left-out count to 0)',
    body: { ruleName: 'n', ruleConfiguration: { ...rateConfig, requestCount: undefined } },
    message: /requestCount must be an integer from 1/,
  },
  {
    reason: 'a rate limit needs a block time from the enum',
    body: { ruleName: 'n', ruleConfiguration: { ...rateConfig, blockTime: undefined } },
    message: /blockTime must be one of 30, 60/,
  },
];

for (const c of invalidCases) {
  test(`rate limit create refused with 400 (non-strict handler check): ${c.reason}`, async (t) => {
    const lenient = await startTestSim({ strict: false });
    t.teardown(() => lenient.close());
    const shieldZoneId = await createShieldZone(t, lenient, 'rules-invalid', 1);
    const res = await call(t, lenient, {
      area: 'shield',
      method: 'POST',
      template: '/shield/rate-limit',
      body: { shieldZoneId, ...c.body },
    });
    t.is(res.status, 400);
    t.regex((res.body as any).errorResponse.message, c.message);
  });
}

test('strict gate: an unknown action type is rejected before the handler', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'rules-strict', 1);
  const res = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId, ruleName: 'n', ruleConfiguration: { ...rateConfig, actionType: 5 } },
  });
  t.is(res.status, 400);
  t.like(res.body, { error: { errorKey: 'validation.document' } });
});

test('an unknown shield zone is 404 for create and list; deleting the pull zone drops its rules', async (t) => {
  const missing = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId: 987654, ruleName: 'n', ruleConfiguration: rateConfig },
  });
  t.is(missing.status, 404);
  const list = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/rate-limits/{shieldZoneId}',
    params: { shieldZoneId: 987654 },
  });
  t.is(list.status, 404);
  t.like(list.body, { error: { errorKey: 'shield.zone_not_found' } });
  const shieldZoneId = await createShieldZone(t, sim, 'rules-drop', 1);
  await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/rate-limit',
    body: { shieldZoneId, ruleName: 'n', ruleConfiguration: rateConfig },
  });
  const pullZoneId = sim.state.shieldZones.get(shieldZoneId)?.pullZoneId as number;
  await call(t, sim, {
    area: 'core',
    method: 'DELETE',
    template: '/pullzone/{id}',
    params: { id: pullZoneId },
  });
  t.deepEqual(sim.state.collections.ofShieldZone('rateLimits', shieldZoneId), []);
});
