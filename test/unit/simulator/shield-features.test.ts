/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- response bodies are read loosely here; call() has already validated each against the official schema */
import test, { type ExecutionContext } from 'ava';
import type { SimulatorHandle } from '../../../src/simulator/server.js';
import { validateResponse } from '../../support/openapi.js';
import { admin, call, startTestSim, TEST_KEY } from '../../support/sim-client.js';
import { createShieldZone } from './shield-zone-helper.js';

let sim: SimulatorHandle;
test.before(async () => {
  sim = await startTestSim();
});
test.after.always(async () => {
  await sim.close();
});

const ZONE = '/shield/shield-zone/{shieldZoneId}';

test('bot detection: defaults, then a patch that replaces one nested object and keeps the rest', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'bot', 1);
  const before = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: `${ZONE}/bot-detection`,
    params: { shieldZoneId },
  });
  t.like((before.body as any).data, {
    shieldZoneId,
    executionMode: 0,
    ipAddress: { sensitivity: 1 },
  });
  const patched = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${ZONE}/bot-detection`,
    params: { shieldZoneId },
    body: { executionMode: 1, browserFingerprint: { sensitivity: 3, aggression: 2 } },
  });
  t.is(patched.status, 200);
  const data = (patched.body as any).data;
  t.deepEqual(data.browserFingerprint, { sensitivity: 3, aggression: 2, complexEnabled: false });
  t.like(data, {
    executionMode: 1,
    ipAddress: { sensitivity: 1 },
    requestIntegrity: { sensitivity: 1 },
  });
  const reread = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: `${ZONE}/bot-detection`,
    params: { shieldZoneId },
  });
  t.deepEqual((reread.body as any).data, data);
  const mismatch = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${ZONE}/bot-detection`,
    params: { shieldZoneId },
    body: { shieldZoneId: shieldZoneId + 1 },
  });
  t.is(mismatch.status, 400);
});

test('upload scanning: only the members given change', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'scan', 1);
  const patched = await call(t, sim, {
    area: 'shield',
    method: 'PATCH',
    template: `${ZONE}/upload-scanning`,
    params: { shieldZoneId },
    body: { isEnabled: true, antivirusScanningMode: 2 },
  });
  t.deepEqual((patched.body as any).data, {
    shieldZoneId,
    isEnabled: true,
    csamScanningMode: 0,
    antivirusScanningMode: 2,
  });
  const missing = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: `${ZONE}/upload-scanning`,
    params: { shieldZoneId: 999999 },
  });
  t.is(missing.status, 404);
  t.like(missing.body, { error: { errorKey: 'shield.zone_not_found' } });
});

const PLAN_KEYS: Record<string, string> = {
  'bot-detection': 'invalid_plan_type.bot_detection',
  'upload-scanning': 'shield.plan_required',
};

for (const feature of ['bot-detection', 'upload-scanning']) {
  test(`${feature}: turning it on on a Basic zone is 403 in the error member; reads stay open`, async (t) => {
    const shieldZoneId = await createShieldZone(t, sim, `gate-${feature}`, 0);
    const before = await call(t, sim, {
      area: 'shield',
      method: 'GET',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
    });
    t.is(before.status, 200);
    const body = feature === 'bot-detection' ? { executionMode: 1 } : { isEnabled: true };
    const refused = await call(t, sim, {
      area: 'shield',
      method: 'PATCH',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
      body,
    });
    t.is(refused.status, 403);
    t.like(refused.body, {
      error: { statusCode: 403, success: false, errorKey: PLAN_KEYS[feature] },
    });
    t.regex(
      String((refused.body as any).error.message),
      /needs the Advanced plan or higher.*Basic plan/,
    );
    const after = await call(t, sim, {
      area: 'shield',
      method: 'GET',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
    });
    t.deepEqual(after.body, before.body, 'nothing changed');
    await admin(sim, 'PUT', `/_sim/shield-zones/${shieldZoneId}/plan`, { planType: 1 });
    const allowed = await call(t, sim, {
      area: 'shield',
      method: 'PATCH',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
      body,
    });
    t.is(allowed.status, 200, 'allowed once the plan is raised');
  });
}

/** The vendor's bot detection PATCH for a shield zone configured without bot detection. */
const VENDOR_OFF = {
  executionMode: 0,
  requestIntegrity: { sensitivity: 0 },
  ipAddress: { sensitivity: 0 },
  browserFingerprint: { sensitivity: 0, aggression: 0, complexEnabled: false },
};

const BASIC_PATCHES: Array<[string, string, Record<string, unknown>, number]> = [
  [
    "bot detection left off (the vendor's flow for every new shield zone)",
    'bot-detection',
    VENDOR_OFF,
    200,
  ],
  [
    'bot detection with one check on',
    'bot-detection',
    { ...VENDOR_OFF, ipAddress: { sensitivity: 1 } },
    403,
  ],
  ['bot detection keeping the Low defaults', 'bot-detection', { executionMode: 0 }, 403],
  [
    'upload scanning left disabled',
    'upload-scanning',
    { isEnabled: false, csamScanningMode: 1 },
    200,
  ],
];

BASIC_PATCHES.forEach(([why, feature, body, status], i) => {
  test(`a Basic zone: a PATCH of ${why} answers ${status}`, async (t) => {
    const shieldZoneId = await createShieldZone(t, sim, `basic-off-${i}`, 0);
    const res = await call(t, sim, {
      area: 'shield',
      method: 'PATCH',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
      body,
    });
    t.is(res.status, status, JSON.stringify(res.body));
    if (status !== 200) return;
    const read = await call(t, sim, {
      area: 'shield',
      method: 'GET',
      template: `${ZONE}/${feature}`,
      params: { shieldZoneId },
    });
    t.like((read.body as any).data, body, 'stored and read back as written');
  });
});

async function pageCall(
  t: ExecutionContext,
  method: string,
  shieldZoneId: number,
  pageType: string,
  html?: string,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sim.url}/shield/shield-zone/${shieldZoneId}/custom-page/${pageType}`, {
    method,
    headers: {
      AccessKey: TEST_KEY,
      ...(html === undefined ? {} : { 'content-type': 'text/html' }),
    },
    ...(html === undefined ? {} : { body: html }),
  });
  const text = await res.text();
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  const template = `${ZONE}/custom-page/{pageType}`;
  t.deepEqual(validateResponse('shield', method, template, res.status, body), []);
  return { status: res.status, body };
}

test('custom pages: raw HTML in, JSON string out; Advanced plan or higher; unknown page type 400', async (t) => {
  const html = '<!doctype html><h1>Blocked</h1>\n<p>"quoted" & more</p>';
  const basic = await createShieldZone(t, sim, 'page-basic', 0);
  const refused = await pageCall(t, 'PUT', basic, 'block', html);
  t.is(refused.status, 403);
  t.like(refused.body, { errorKey: 'shield.plan_required', success: false });
  const zone = await createShieldZone(t, sim, 'page-adv', 1);
  t.is((await pageCall(t, 'GET', zone, 'block')).status, 404);
  const put = await pageCall(t, 'PUT', zone, 'block', html);
  t.is(put.status, 200);
  t.like(put.body, { success: true });
  const got = await pageCall(t, 'GET', zone, 'Block');
  t.is(got.body, html, 'the page comes back byte for byte (page type is case-insensitive)');
  t.is((await pageCall(t, 'PUT', zone, 'teapot', html)).status, 400);
  t.is((await pageCall(t, 'PUT', zone, 'challenge', '  ')).status, 400);
  t.is((await pageCall(t, 'DELETE', zone, 'block')).status, 200);
  t.is((await pageCall(t, 'DELETE', zone, 'block')).status, 404);
  t.is(
    sim.calls.snapshot().rejectedByDocument.count,
    0,
    'the strict gate lets the raw page through',
  );
});

test('managed rules by plan and the triggered-rules review moving a rule to the log-only list', async (t) => {
  const shieldZoneId = await createShieldZone(t, sim, 'review', 0);
  const segmented = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/rules/plan-segmentation',
  });
  t.deepEqual(
    (segmented.body as any).data.map((p: any) => p.planName),
    ['Basic', 'Advanced', 'Business', 'Enterprise'],
  );
  const rules = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/rules/{shieldZoneId}',
    params: { shieldZoneId },
  });
  const ids = (rules.body as any)[0].ruleGroups.flatMap((g: any) =>
    g.rules.map((r: any) => r.ruleId),
  );
  t.true(ids.includes('913100'));
  t.false(ids.includes('942100'), 'SQL injection rules need the Advanced plan here');
  await admin(sim, 'PUT', `/_sim/shield-zones/${shieldZoneId}/waf-rules/913100/metrics`, {
    totalTriggers: 12,
  });
  const triggered = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/rules/review-triggered/{shieldZoneId}',
    params: { shieldZoneId },
  });
  t.like(triggered.body, {
    totalTriggeredRules: 1,
    triggeredRules: [{ ruleId: '913100', totalTriggeredRequests: 12 }],
  });
  const reviewed = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/waf/rules/review-triggered/{shieldZoneId}',
    params: { shieldZoneId },
    body: { ruleId: '913100', action: 1 },
  });
  t.like(reviewed.body, { success: true });
  t.deepEqual(sim.state.shieldZones.get(shieldZoneId)?.wafLogOnlyRules, ['913100']);
  const after = await call(t, sim, {
    area: 'shield',
    method: 'GET',
    template: '/shield/waf/rules/review-triggered/{shieldZoneId}',
    params: { shieldZoneId },
  });
  t.is((after.body as any).totalTriggeredRules, 0);
  const higher = await call(t, sim, {
    area: 'shield',
    method: 'POST',
    template: '/shield/waf/rules/review-triggered/{shieldZoneId}',
    params: { shieldZoneId },
    body: { ruleId: '942100', action: 2 },
  });
  t.is(higher.status, 403);
  t.like(higher.body, { errorResponse: { errorKey: 'shield.plan_required' } });
});
