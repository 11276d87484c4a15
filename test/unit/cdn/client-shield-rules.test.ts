/**
 * Custom WAF rule, rate limit, access list and shield feature client methods against cdn-sim
 * (strict gate on): every body is checked against the official request schema, the simulator
 * rejected none, and updates send only the members that change.
 */
import test, { type ExecutionContext } from 'ava';
import type { CdnClient } from '../../../src/cdn/client.js';
import { CdnApiError } from '../../../src/cdn/errors.js';
import {
  accessListContent,
  accessListEntries,
  isShieldPlanRefusal,
} from '../../../src/cdn/index.js';
import type { RateLimitConfiguration } from '../../../src/cdn/security-types.js';
import { assertBodiesValid, callsOf, startSimClient, type SimClient } from './sim-harness.js';

async function shieldZone(c: CdnClient, name: string, planType: 0 | 1 | 2 | 3): Promise<number> {
  const pullZone = await c.addPullZone({ Name: name, OriginUrl: 'https://o.example' });
  const zone = await c.createShieldZone({ pullZoneId: pullZone.Id!, shieldZone: { planType } });
  return zone.shieldZoneId!;
}

function assertStrict(t: ExecutionContext, h: SimClient): void {
  assertBodiesValid(t, h.sent);
  t.is(h.sim.calls.snapshot().rejectedByDocument.count, 0, 'the strict gate rejected nothing');
}

const rateConfig: RateLimitConfiguration = {
  actionType: 1,
  variableTypes: { REQUEST_URI: '' },
  operatorType: 0,
  value: '/login',
  requestCount: 20,
  timeframe: 60,
  blockTime: 300,
};

test('custom WAF rules: create, list across pages, patch one member, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const shieldZoneId = await shieldZone(c, 'cl-waf', 1);
  const created = [];
  for (const n of [1, 2, 3]) {
    created.push(
      await c.createCustomWafRule({
        shieldZoneId,
        ruleName: `rule-${n}`,
        ruleConfiguration: {
          actionType: 1,
          variableTypes: { REQUEST_URI: '' },
          operatorType: 2,
          value: `/p${n}`,
        },
      }),
    );
  }
  t.false('errorResponse' in created[0]!, 'the checked errorResponse member is dropped');
  const listed = await c.listCustomWafRules(shieldZoneId, { pageSize: 2 });
  t.deepEqual(
    listed.map((r) => r.ruleName),
    ['rule-1', 'rule-2', 'rule-3'],
  );
  t.is((await callsOf(h, 'GET /shield/waf/custom-rules/{shieldZoneId}')).count, 2, 'two pages');
  const id = created[0]!.id!;
  const before = h.sent.length;
  const updated = await c.updateCustomWafRule(id, { ruleDescription: 'only this' });
  t.is(updated.ruleDescription, 'only this');
  t.deepEqual(h.sent.slice(before), [
    {
      method: 'PATCH',
      path: `/shield/waf/custom-rule/${id}`,
      body: { ruleDescription: 'only this' },
    },
  ]);
  await t.throwsAsync(c.updateCustomWafRule(id, {}), { instanceOf: CdnApiError, message: /empty/ });
  await c.deleteCustomWafRule(id);
  const gone = await t.throwsAsync(c.getCustomWafRule(id), { instanceOf: CdnApiError });
  t.is(gone.kind, 'notFound');
  t.regex(gone.message, /^cannot getCustomWafRule: custom WAF rule \d+ does not exist/);
  const again = await t.throwsAsync(c.deleteCustomWafRule(id), { instanceOf: CdnApiError });
  t.is(again.kind, 'notFound');
  assertStrict(t, h);
});

test('plan segmentation: a rule the plan does not allow is a 403 plan refusal naming the plan', async (t) => {
  const h = await startSimClient(t);
  const shieldZoneId = await shieldZone(h.client, 'cl-basic', 0);
  const e = await t.throwsAsync(
    h.client.createCustomWafRule({
      shieldZoneId,
      ruleName: 'x',
      ruleConfiguration: { actionType: 1, variableTypes: { REQUEST_URI: '' }, operatorType: 0 },
    }),
    { instanceOf: CdnApiError },
  );
  t.true(isShieldPlanRefusal(e));
  t.like(e, { status: 403, errorKey: 'shield.plan_required' });
  t.regex(e.message, /Basic plan/);
  const notPlan = await t.throwsAsync(h.client.getRateLimit(424242), { instanceOf: CdnApiError });
  t.false(isShieldPlanRefusal(notPlan));
  assertStrict(t, h);
});

test('rate limits: the configuration is sent whole on update and read back with its counters', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const shieldZoneId = await shieldZone(c, 'cl-rate', 0);
  const rule = await c.createRateLimit({
    shieldZoneId,
    ruleName: 'login',
    ruleConfiguration: rateConfig,
  });
  t.like(rule.ruleConfiguration, { requestCount: 20, timeframe: 60, blockTime: 300 });
  const updated = await c.updateRateLimit(rule.id!, {
    ruleConfiguration: { ...rateConfig, requestCount: 5 },
  });
  t.is(updated.ruleConfiguration?.requestCount, 5);
  const read = await c.getRateLimit(rule.id!);
  t.is(read.ruleConfiguration?.requestCount, 5);
  t.deepEqual(
    (await c.listRateLimits(shieldZoneId)).map((r) => r.id),
    [rule.id],
  );
  await c.deleteRateLimit(rule.id!);
  t.deepEqual(await c.listRateLimits(shieldZoneId), []);
  assertStrict(t, h);
});

test('writes are retried only after a 429: a 500 on a create fails at once', async (t) => {
  const h = await startSimClient(t);
  const shieldZoneId = await shieldZone(h.client, 'cl-retry', 1);
  await h.admin('PUT', '/_sim/faults', { errorRate: 1, errorRoutes: ['POST /shield/rate-limit'] });
  const e = await t.throwsAsync(
    h.client.createRateLimit({ shieldZoneId, ruleName: 'r', ruleConfiguration: rateConfig }),
    { instanceOf: CdnApiError },
  );
  t.is(e.kind, 'server');
  t.is((await callsOf(h, 'POST /shield/rate-limit')).count, 1, 'a lost create is not resent');
  await h.admin('PUT', '/_sim/faults', {
    rateLimit: { ratePerSecond: 1, burst: 1, retryAfterSeconds: 1 },
  });
  await h.client.getShieldZone(shieldZoneId).catch(() => undefined);
  const rule = await h.client.createRateLimit({
    shieldZoneId,
    ruleName: 'r',
    ruleConfiguration: rateConfig,
  });
  t.truthy(rule.id);
  t.is(
    (await callsOf(h, 'POST /shield/rate-limit')).byStatus['429'],
    1,
    'refused once, then resent',
  );
  await h.admin('PUT', '/_sim/faults', {});
  assertStrict(t, h);
});

test('access lists: custom list from entries, configuration by id, overview, rename, delete', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const shieldZoneId = await shieldZone(c, 'cl-lists', 1);
  const list = await c.createCustomAccessList(shieldZoneId, {
    name: 'partners',
    type: 2,
    content: accessListContent(['AS13335', 'AS15169']),
  });
  t.deepEqual(accessListEntries(list.content), ['AS13335', 'AS15169']);
  const overview = await c.listAccessLists(shieldZoneId);
  t.false('error' in overview);
  const details = overview.customLists?.find((l) => l.listId === list.id);
  t.like(details, { isEnabled: false, entryCount: 2 });
  const config = await c.updateAccessListConfiguration(shieldZoneId, details!.configurationId, {
    isEnabled: true,
    action: 1,
  });
  t.deepEqual(config, { isEnabled: true, action: 1 });
  const renamed = await c.updateCustomAccessList(shieldZoneId, list.id, { name: 'allies' });
  t.like(renamed, { name: 'allies', entryCount: 2 });
  t.like(await c.getCustomAccessList(shieldZoneId, list.id), { name: 'allies' });
  await c.deleteCustomAccessList(shieldZoneId, list.id);
  const e = await t.throwsAsync(c.getCustomAccessList(shieldZoneId, list.id), {
    instanceOf: CdnApiError,
  });
  t.is(e.kind, 'notFound');
  const bad = await t.throwsAsync(
    c.createCustomAccessList(shieldZoneId, { name: 'bad', type: 3, content: 'Germany' }),
    { instanceOf: CdnApiError },
  );
  t.is(bad.kind, 'invalid');
  t.regex(bad.message, /not a valid Country entry/);
  assertStrict(t, h);
});

test('bot detection and upload scanning: patches carry only what changes; Basic refused', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const basic = await shieldZone(c, 'cl-bots-basic', 0);
  const refused = await t.throwsAsync(c.updateBotDetection(basic, { executionMode: 1 }), {
    instanceOf: CdnApiError,
  });
  t.true(isShieldPlanRefusal(refused));
  // The platform's key for bot detection on a plan without it (the vendor's provider matches it).
  t.like(refused, { status: 403, errorKey: 'invalid_plan_type.bot_detection' });
  const scanRefused = await t.throwsAsync(c.updateUploadScanning(basic, { isEnabled: true }), {
    instanceOf: CdnApiError,
  });
  t.true(isShieldPlanRefusal(scanRefused));
  t.is((await c.getBotDetection(basic)).executionMode, 0, 'reads stay open, nothing changed');
  const shieldZoneId = await shieldZone(c, 'cl-bots', 1);
  const bots = await c.getBotDetection(shieldZoneId);
  const before = h.sent.length;
  const updated = await c.updateBotDetection(shieldZoneId, {
    browserFingerprint: { ...bots.browserFingerprint, sensitivity: 3 },
  });
  t.is(updated.browserFingerprint.sensitivity, 3);
  t.deepEqual(Object.keys(h.sent[before]!.body as object), ['browserFingerprint']);
  const scanning = await c.updateUploadScanning(shieldZoneId, {
    isEnabled: true,
    csamScanningMode: 2,
  });
  t.like(scanning, { isEnabled: true, csamScanningMode: 2, antivirusScanningMode: 0 });
  t.like(await c.getUploadScanning(shieldZoneId), { isEnabled: true });
  assertStrict(t, h);
});

test('custom pages: HTML goes raw and comes back the same; absent page is undefined; Basic refused', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await shieldZone(c, 'cl-pages', 1);
  t.is(await c.getCustomPage(zone, 'block'), undefined);
  const html = '<html><body>Blocked: "{{reason}}" \\ ünïcode</body></html>';
  await c.putCustomPage(zone, 'block', html);
  const sent = h.sent.find((s) => s.raw);
  t.is(sent?.body, html, 'the body is the HTML itself, not a JSON string');
  t.is(await c.getCustomPage(zone, 'block'), html);
  await c.deleteCustomPage(zone, 'block');
  t.is(await c.getCustomPage(zone, 'block'), undefined);
  const basic = await shieldZone(c, 'cl-pages-basic', 0);
  const e = await t.throwsAsync(c.putCustomPage(basic, 'block', html), { instanceOf: CdnApiError });
  t.true(isShieldPlanRefusal(e));
  await t.throwsAsync(c.putCustomPage(zone, 'block', ''), {
    instanceOf: CdnApiError,
    message: /html/,
  });
  assertStrict(t, h);
});

test('managed rules: by plan, per zone, and a triggered rule reviewed to log-only', async (t) => {
  const h = await startSimClient(t);
  const c = h.client;
  const zone = await shieldZone(c, 'cl-review', 0);
  const byPlan = await c.getWafRulesByPlan();
  t.is(byPlan.length, 4);
  const groups = await c.listWafRules(zone);
  t.true(groups.length > 0);
  await h.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/930100/metrics`, { totalTriggers: 3 });
  const triggered = await c.listTriggeredRules(zone);
  t.like(triggered, { total: 1, rules: [{ ruleId: '930100' }] });
  await c.reviewTriggeredRule(zone, { ruleId: '930100', action: 1 });
  t.deepEqual((await c.getShieldZone(zone)).wafLogOnlyRules, ['930100']);
  const e = await t.throwsAsync(c.reviewTriggeredRule(zone, { ruleId: '944100', action: 2 }), {
    instanceOf: CdnApiError,
  });
  t.true(isShieldPlanRefusal(e));
  assertStrict(t, h);
});
