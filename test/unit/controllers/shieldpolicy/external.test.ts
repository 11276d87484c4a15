/**
 * The ShieldPolicy external client against an in-process cdn-sim: create, zero writes when in
 * sync, one PATCH per change carrying only the differing fields, drift (including list-only
 * fields through the fleet cache), plan limits, metrics refresh and Reset deletion.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { accountReader } from '../shared/account-fixture.js';
import { pino } from 'pino';
import { CdnClient } from '../../../../src/cdn/client.js';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import type { ShieldZoneUpdate } from '../../../../src/cdn/types.js';
import {
  createShieldShared,
  type ShieldApi,
  type ShieldShared,
} from '../../../../src/controllers/shieldpolicy/external.js';
import {
  classifyShieldError,
  createShieldPolicyKind,
} from '../../../../src/controllers/shieldpolicy/index.js';
import { PlanLimitError } from '../../../../src/controllers/shieldpolicy/plan-limits.js';
import type {
  ShieldPolicy,
  ShieldPolicySpec,
} from '../../../../src/controllers/shieldpolicy/types.js';
import type {
  ConnectContext,
  ExternalContext,
  ManagedObject,
  Observation,
} from '../../../../src/runtime/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';

const API_KEY = 'shieldpolicy-unit-key';
const log = pino({ level: 'silent' });
const POLL_MS = 600_000;

interface Harness {
  sim: SimulatorHandle;
  client: CdnClient;
  shared: ShieldShared;
  clock: { now: number };
  patches: ShieldZoneUpdate[];
  /** Bodies of the bot detection / upload scanning PATCHes, keyed by feature. */
  featurePatches: Array<Record<string, unknown>>;
  /** ConfigMaps by `namespace/name`, as connect reads them. */
  configMaps: Map<string, Record<string, string>>;
  pullZoneId: number;
  connect(obj: ShieldPolicy): ReturnType<ReturnType<typeof createShieldPolicyKind>['connect']>;
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  callCount(route: string): Promise<number>;
}

async function setUp(): Promise<Harness> {
  const sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const shared: ShieldShared = createShieldShared({
    now: () => new Date(clock.now),
    monotonicMs: () => clock.now,
  });
  const client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY, logger: log });
  const patches: ShieldZoneUpdate[] = [];
  const featurePatches: Array<Record<string, unknown>> = [];
  const configMaps = new Map<string, Record<string, string>>();
  const api: ShieldApi = {
    getShieldZoneByPullZone: (id, o) => client.getShieldZoneByPullZone(id, o),
    listAllShieldZones: (o) => client.listAllShieldZones(o),
    createShieldZone: (b, o) => client.createShieldZone(b, o),
    updateShieldZone: (b, o) => (patches.push(structuredClone(b)), client.updateShieldZone(b, o)),
    getWafRuleMetrics: (z, r, o) => client.getWafRuleMetrics(z, r, o),
    listTriggeredRules: (z, o) => client.listTriggeredRules(z, o),
    listWafRules: (z, o) => client.listWafRules(z, o),
    getWafRulesByPlan: (o) => client.getWafRulesByPlan(o),
    getBotDetection: (z, o) => client.getBotDetection(z, o),
    updateBotDetection: (z, p, o) => (
      featurePatches.push({ botDetection: structuredClone(p) }),
      client.updateBotDetection(z, p, o)
    ),
    getUploadScanning: (z, o) => client.getUploadScanning(z, o),
    getCustomPage: (z, p, o) => client.getCustomPage(z, p, o),
    putCustomPage: (z, p, html, o) => (
      featurePatches.push({ customPage: p }),
      client.putCustomPage(z, p, html, o)
    ),
    deleteCustomPage: (z, p, o) => (
      featurePatches.push({ deletedPage: p }),
      client.deleteCustomPage(z, p, o)
    ),
    updateUploadScanning: (z, p, o) => (
      featurePatches.push({ uploadScanning: structuredClone(p) }),
      client.updateUploadScanning(z, p, o)
    ),
    listCustomWafRules: (z, o) => client.listCustomWafRules(z, o),
    listRateLimits: (z, o) => client.listRateLimits(z, o),
    listAccessLists: (z, o) => client.listAccessLists(z, o),
    updateAccessListConfiguration: (z, id, p, o) =>
      client.updateAccessListConfiguration(z, id, p, o),
    deleteCustomWafRule: (id, o) => client.deleteCustomWafRule(id, o),
    deleteRateLimit: (id, o) => client.deleteRateLimit(id, o),
    deleteCustomAccessList: (z, id, o) => client.deleteCustomAccessList(z, id, o),
  };
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sim.url}${path}`, {
      method,
      headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const seeded = (await admin('POST', '/_sim/seed', { pullZones: [{ Name: 'shield-unit' }] })) as {
    pullZones: number[];
  };
  const kind = createShieldPolicyKind(
    {
      apiBaseUrl: sim.url,
      defaultAccount: 'default',
      operatorNamespace: 'cdn-system',
      log,
    },
    { apiFor: () => api, shared, defaultPollIntervalMs: POLL_MS },
  );
  const ctx: ConnectContext = {
    readSecret: (ns, name) =>
      Promise.resolve(ns === 'cdn-system' && name === 'creds' ? { apiKey: API_KEY } : undefined),
    readConfigMap: (ns, name) => Promise.resolve(configMaps.get(`${ns}/${name}`)),
    getObject: (): ManagedObject | undefined => undefined,
    readClusterObject: accountReader({ account: 'default', secretName: 'creds' }),
    log,
  };
  return {
    sim,
    client,
    shared,
    clock,
    patches,
    featurePatches,
    configMaps,
    pullZoneId: seeded.pullZones[0]!,
    connect: (obj) => kind.connect(obj, ctx),
    admin,
    callCount: async (route) => {
      const calls = (await admin('GET', '/_sim/calls')) as {
        routes: Record<string, { count: number }>;
      };
      return calls.routes[route]?.count ?? 0;
    },
  };
}

function policy(h: Harness, spec: ShieldPolicySpec): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns', uid: 'uid-1', generation: 1 },
    spec: { pullZoneId: h.pullZoneId, ...spec },
    status: {},
  };
}

function ectx(obj: ShieldPolicy): ExternalContext {
  const id = obj.status?.shieldZoneId;
  return {
    ...(id !== undefined ? { externalId: String(id) } : {}),
    createPending: false,
    log,
    signal: new AbortController().signal,
  };
}

/** One reconcile pass the way the runtime does it (observe, then create or update), status merged. */
async function pass(h: Harness, obj: ShieldPolicy): Promise<Observation> {
  const external = await h.connect(obj);
  const obs = await external.observe(obj, ectx(obj));
  obj.status = { ...obj.status, ...obs.status };
  if (!obs.exists && !obj.metadata.deletionTimestamp) {
    const created = await external.create(obj, ectx(obj));
    obj.status = { ...obj.status, ...created.status };
  } else if (!obs.upToDate && !obj.metadata.deletionTimestamp) {
    await external.update(obj, obs, ectx(obj));
  }
  return obs;
}

test('creates the shield zone, then stays in sync with zero writes', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    waf: { enabled: true, executionMode: 'Log', requestBodyLimitAction: 'Ignore' },
    ddos: { shieldSensitivity: 'High', challengeWindowSeconds: 60 },
    whitelabelResponsePages: true,
  });
  const first = await pass(h, obj);
  t.false(first.exists, 'no zone before the first pass');
  t.is(await h.callCount('POST /shield/shield-zone'), 1, 'one create');
  t.is(typeof obj.status?.shieldZoneId, 'number');

  const second = await pass(h, obj);
  t.true(second.exists && second.upToDate, JSON.stringify(second.diff));
  t.is(second.externalId, String(obj.status?.shieldZoneId));
  t.like(obj.status, { pullZoneId: h.pullZoneId, customWafRulesLimit: 0, rateLimitRulesLimit: 2 });
  t.is(await h.callCount('PATCH /shield/shield-zone'), 0, 'in sync: no PATCH');

  // A fresh process (empty fleet cache) reads the list: the platform really holds the values.
  h.clock.now += POLL_MS;
  const third = await pass(h, obj);
  t.true(third.upToDate, JSON.stringify(third.diff));
  t.is(obj.status?.planType, 'Basic', 'plan type comes from the zone list');
  t.is(await h.callCount('PATCH /shield/shield-zone'), 0);
  t.is(await h.callCount('POST /shield/shield-zone'), 1, 'never a second create');
});

test('changing one WAF setting sends one PATCH with only that field', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    waf: { enabled: true, executionMode: 'Block', disabledRules: ['913100'] },
  });
  await pass(h, obj); // create
  await pass(h, obj); // the override list follows the create (it needs the zone's rules)
  t.deepEqual(h.patches, [
    {
      shieldZoneId: Number(obj.status?.shieldZoneId),
      shieldZone: { wafDisabledRules: ['913100'] },
    },
  ]);
  h.patches.length = 0;
  t.true((await pass(h, obj)).upToDate);
  t.is(await h.callCount('PATCH /shield/shield-zone'), 1);

  obj.spec = { ...obj.spec, waf: { ...obj.spec!.waf, executionMode: 'Log' } };
  const obs = await pass(h, obj);
  t.deepEqual(obs.diff, [{ field: 'wafExecutionMode', live: 'Block', desired: 'Log' }]);
  t.is(await h.callCount('PATCH /shield/shield-zone'), 2);
  t.deepEqual(h.patches, [
    { shieldZoneId: Number(obj.status?.shieldZoneId), shieldZone: { wafExecutionMode: 0 } },
  ]);
  t.true((await pass(h, obj)).upToDate, 'the written value is seen at once (write-through)');
  t.is(await h.callCount('PATCH /shield/shield-zone'), 2, 'no second PATCH');
});

test('drift is corrected: single-zone fields at once, list-only fields after the fleet refresh', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { enabled: true, executionMode: 'Log' } });
  await pass(h, obj);
  const shieldZoneId = Number(obj.status?.shieldZoneId);
  // Someone changes the zone behind the operator's back.
  await h.client.updateShieldZone({
    shieldZoneId,
    shieldZone: { wafEnabled: false, wafExecutionMode: 1 },
  });

  const obs = await pass(h, obj);
  t.deepEqual(
    obs.diff.map((d) => d.field),
    ['wafEnabled'],
    'the list-only field is not seen until the list is read again',
  );
  h.clock.now += POLL_MS;
  const later = await pass(h, obj);
  t.deepEqual(
    later.diff.map((d) => d.field),
    ['wafExecutionMode'],
  );
  t.deepEqual(
    h.patches.map((p) => p.shieldZone),
    [{ wafEnabled: true }, { wafExecutionMode: 0 }],
    'one PATCH per correction, each with only the drifted field',
  );
  t.true((await pass(h, obj)).upToDate);
});

test('plan limits: over-limit fields are held back with the numbers, the rest is applied', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { enabled: false, customRuleOrder: [11, 12] } });
  await pass(h, obj); // create: customRuleOrder is left for the first update
  const err = await t.throwsAsync(pass(h, obj));
  t.true(err instanceof PlanLimitError);
  t.regex(err.message, /spec\.waf\.customRuleOrder needs 2 .*allows 0 \(customWafRulesLimit\)/);
  const classified = classifyShieldError(err);
  t.like(classified, { class: 'retryable', reason: 'PlanLimitExceeded', retryAfterMs: POLL_MS });
  t.is(await h.callCount('PATCH /shield/shield-zone'), 0, 'wafEnabled was applied at create');

  // The plan is upgraded outside Kubernetes; the next pass applies the held-back field.
  await h.admin('PUT', `/_sim/shield-zones/${String(obj.status?.shieldZoneId)}/plan`, {
    planType: 1,
  });
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { wafCustomRuleOrder: [11, 12] });
  t.true((await pass(h, obj)).upToDate);
});

test('planType: set, drift restored, upgrade and its limits applied without a poll-interval wait', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { planType: 'Advanced', waf: { customRuleOrder: [21, 22] } });
  await pass(h, obj); // create carries the plan; the custom rule order waits for its limits
  const listed = async (): Promise<Record<string, unknown> | undefined> =>
    (await h.client.listAllShieldZones()).find((z) => z.pullZoneId === h.pullZoneId);
  t.like(await listed(), { planType: 1, customWafRulesLimit: 10 });
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { wafCustomRuleOrder: [21, 22] });
  t.like(obj.status, { planType: 'Advanced', customWafRulesLimit: 10 });

  // Downgraded outside Kubernetes: restored once the fleet view is refreshed.
  await h.admin('PUT', `/_sim/shield-zones/${String(obj.status?.shieldZoneId)}/plan`, {
    planType: 0,
  });
  h.clock.now += POLL_MS;
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { planType: 1 });
  t.like(await listed(), { planType: 1 });

  // Left out of the spec: not managed, a later downgrade is left alone.
  const unmanaged = policy(h, { waf: { customRuleOrder: [21, 22] } });
  unmanaged.status = obj.status;
  await h.admin('PUT', `/_sim/shield-zones/${String(obj.status?.shieldZoneId)}/plan`, {
    planType: 2,
  });
  h.clock.now += POLL_MS;
  const patches = h.patches.length;
  t.true((await pass(h, unmanaged)).upToDate);
  t.is(h.patches.length, patches, 'no write for an unmanaged plan');
});

test('planType upgrade in the same PATCH as held-back fields rechecks with the normal backoff', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { learningMode: false });
  await pass(h, obj);
  obj.spec = { ...obj.spec, planType: 'Business', waf: { customRuleOrder: [1, 2, 3] } };
  h.clock.now += POLL_MS;
  const err = await t.throwsAsync(pass(h, obj));
  t.true(err instanceof PlanLimitError);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { planType: 2 });
  const classified = classifyShieldError(err);
  t.like(classified, { class: 'retryable', reason: 'PlanLimitExceeded' });
  t.false('retryAfterMs' in classified, 'not a whole poll interval: the limits just changed');
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { wafCustomRuleOrder: [1, 2, 3] });
});

test('bot detection and upload scanning: set, minimal writes, drift restored, absent = not managed, reset', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  // Advanced: cdn-sim refuses bot detection and upload scanning changes on Basic zones.
  const obj = policy(h, {
    planType: 'Advanced',
    botDetection: { executionMode: 'Challenge', browserFingerprint: { aggression: 'High' } },
    uploadScanning: { enabled: true },
  });
  await pass(h, obj); // create; the features follow on the next pass (they need the zone id)
  const zoneId = Number(obj.status?.shieldZoneId);
  await pass(h, obj);
  t.deepEqual(h.featurePatches, [
    {
      botDetection: {
        executionMode: 1,
        browserFingerprint: { sensitivity: 1, aggression: 3, complexEnabled: false },
      },
    },
    { uploadScanning: { isEnabled: true } },
  ]);
  t.true((await pass(h, obj)).upToDate, 'in sync after one write each');
  t.is(h.featurePatches.length, 2);

  // Drift on one member: only that member (with its nested object) is sent back.
  await h.client.updateUploadScanning(zoneId, { isEnabled: false, csamScanningMode: 2 });
  const drifted = await pass(h, obj);
  t.deepEqual(drifted.diff, [
    { field: 'uploadScanning.isEnabled', live: 'false', desired: 'true' },
  ]);
  t.deepEqual(h.featurePatches.at(-1), { uploadScanning: { isEnabled: true } });
  t.is((await h.client.getUploadScanning(zoneId)).csamScanningMode, 2, 'unmanaged member kept');

  // Blocks left out: not read, not written.
  const reads = await h.callCount('GET /shield/shield-zone/{shieldZoneId}/bot-detection');
  const unmanaged = policy(h, { learningMode: true });
  unmanaged.status = obj.status;
  await h.client.updateBotDetection(zoneId, { executionMode: 0 });
  const writes = h.featurePatches.length;
  t.true((await pass(h, unmanaged)).upToDate);
  t.is(h.featurePatches.length, writes);
  t.is(await h.callCount('GET /shield/shield-zone/{shieldZoneId}/bot-detection'), reads);

  // Reset on delete: the managed members go back to a fresh zone's values.
  await h.client.updateBotDetection(zoneId, { executionMode: 1 });
  const deleting: ShieldPolicy = {
    ...obj,
    metadata: { ...obj.metadata, deletionTimestamp: new Date(h.clock.now).toISOString() },
  };
  const external = await h.connect(deleting);
  t.true((await external.observe(deleting, ectx(deleting))).exists, 'not at the defaults yet');
  await external.delete(deleting, ectx(deleting));
  t.like(await h.client.getBotDetection(zoneId), {
    executionMode: 0,
    browserFingerprint: { sensitivity: 1, aggression: 1, complexEnabled: false },
  });
  t.like(await h.client.getUploadScanning(zoneId), { isEnabled: false, csamScanningMode: 2 });
  const after = await h.connect(deleting);
  t.false((await after.observe(deleting, ectx(deleting))).exists, 'reset done');
});

test('a feature write the plan refuses is PlanNotSufficient, retried after the poll interval', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    uploadScanning: { enabled: true },
    botDetection: { executionMode: 'Challenge' },
  });
  await pass(h, obj); // create (Basic plan)
  const zoneId = Number(obj.status?.shieldZoneId);
  h.clock.now += POLL_MS; // the fleet view shows the plan
  const err = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(err), {
    class: 'retryable',
    reason: 'PlanNotSufficient',
    retryAfterMs: POLL_MS,
  });
  t.regex(
    err.message,
    /^cannot apply spec\.botDetection: the zone's plan \(Basic\) does not include it: bot detection needs the Advanced plan or higher/,
  );
  t.like(await h.client.getBotDetection(zoneId), { executionMode: 0 }, 'nothing written');
  t.false((await h.client.getUploadScanning(zoneId)).isEnabled);

  // The plan is raised in the spec: one pass sends the plan first, then the features.
  obj.spec = { ...obj.spec, planType: 'Advanced' };
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { planType: 1 });
  t.like(await h.client.getBotDetection(zoneId), { executionMode: 1 });
  t.true((await h.client.getUploadScanning(zoneId)).isEnabled);
  t.true((await pass(h, obj)).upToDate);
});

test('custom pages: uploaded from the ConfigMap, compared by hash, plan refusal, reset deletes them', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  h.configMaps.set('ns/pages', { block: '<h1>blocked</h1>' });
  const obj = policy(h, {
    customPages: [{ pageType: 'block', configMapRef: { name: 'pages', key: 'block' } }],
  });
  await pass(h, obj); // create (Basic plan)
  const zoneId = Number(obj.status?.shieldZoneId);
  const refused = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(refused), {
    class: 'retryable',
    reason: 'PlanNotSufficient',
    retryAfterMs: POLL_MS,
  });
  t.regex(refused.message, /spec\.customPages: the zone's plan \(Basic\).*Advanced plan/);

  await h.admin('PUT', `/_sim/shield-zones/${String(zoneId)}/plan`, { planType: 1 });
  await pass(h, obj);
  t.is(await h.client.getCustomPage(zoneId, 'block'), '<h1>blocked</h1>');
  const synced = await pass(h, obj);
  t.true(synced.upToDate, 'same content: no upload');
  t.deepEqual(obj.status?.customPages, [
    { pageType: 'block', sha256: createHash('sha256').update('<h1>blocked</h1>').digest('hex') },
  ]);
  t.false(JSON.stringify(obj.status).includes('blocked'), 'no HTML in status');
  const uploads = h.featurePatches.filter((p) => 'customPage' in p).length;
  t.is(uploads, 2, 'the refused attempt, then one upload');

  // The ConfigMap changes: one upload of the new content.
  h.configMaps.set('ns/pages', { block: '<h1>go away</h1>' });
  const changed = await pass(h, obj);
  t.regex(changed.diff[0]?.desired ?? '', /^sha256:[0-9a-f]{16}$/);
  t.is(await h.client.getCustomPage(zoneId, 'block'), '<h1>go away</h1>');

  // Out of the spec: left alone.
  const unmanaged = policy(h, { learningMode: true });
  unmanaged.status = obj.status;
  t.true((await pass(h, unmanaged)).upToDate);
  t.is(await h.client.getCustomPage(zoneId, 'block'), '<h1>go away</h1>');

  // Reset on delete removes the managed page.
  const deleting: ShieldPolicy = {
    ...obj,
    metadata: { ...obj.metadata, deletionTimestamp: new Date(h.clock.now).toISOString() },
  };
  h.configMaps.clear(); // a deleted ConfigMap never blocks the deletion
  const external = await h.connect(deleting);
  await external.delete(deleting, ectx(deleting));
  t.is(await h.client.getCustomPage(zoneId, 'block'), undefined);
  t.false((await (await h.connect(deleting)).observe(deleting, ectx(deleting))).exists);
});

test('a DDoS execution mode difference is reported, never sent', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { ddos: { executionMode: 'Log', challengeWindowSeconds: 30 } });
  await pass(h, obj);
  h.clock.now += POLL_MS;
  const err = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(err), { class: 'terminal', reason: 'FieldNotWritable' });
  for (const p of h.patches) t.false('dDoSExecutionMode' in (p.shieldZone ?? {}));
});

test('metrics: read once per poll interval, unchanged values change nothing in status', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { ruleMetrics: ['r1', 'r2'] });
  await pass(h, obj);
  const zone = String(obj.status?.shieldZoneId);
  await h.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/r1/metrics`, {
    totalTriggers: 5,
    blockedRequests: 3,
    loggedRequests: 1,
    challengedRequests: 1,
  });
  const route = 'GET /shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}';
  await pass(h, obj);
  t.deepEqual(obj.status?.ruleMetrics, [
    { ruleId: 'r1', totalTriggers: 5, blocked: 3, logged: 1, challenged: 1 },
    { ruleId: 'r2', totalTriggers: 0, blocked: 0, logged: 0, challenged: 0 },
  ]);
  const firstTime = obj.status?.lastMetricsTime;
  t.truthy(firstTime);
  t.is(await h.callCount(route), 2);

  const before = structuredClone(obj.status);
  h.clock.now += 60_000;
  await pass(h, obj);
  t.is(await h.callCount(route), 2, 'within the interval: not read');
  t.deepEqual(obj.status, before);

  h.clock.now += POLL_MS;
  await pass(h, obj);
  t.is(await h.callCount(route), 4, 'after the interval: read again');
  t.deepEqual(obj.status, before, 'same values: status unchanged (no status write)');

  await h.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/r2/metrics`, { totalTriggers: 9 });
  h.clock.now += POLL_MS;
  await pass(h, obj);
  t.is(obj.status?.ruleMetrics?.[1]?.totalTriggers, 9);
  t.not(obj.status?.lastMetricsTime, firstTime, 'changed values move lastMetricsTime');

  obj.spec = { ...obj.spec, ruleMetrics: [] };
  await pass(h, obj);
  t.is(obj.status?.ruleMetrics, undefined, 'no rules wanted: the list is removed');
});

test('Reset deletion returns managed fields to the defaults, then reports the zone gone', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    learningMode: false,
    waf: { executionMode: 'Log', disabledRules: ['913100'] },
    ddos: { challengeWindowSeconds: 60 },
    deletionPolicy: 'Reset',
  });
  await pass(h, obj); // create
  await pass(h, obj); // the override list, checked against the zone's rules
  const shieldZoneId = Number(obj.status?.shieldZoneId);
  // A field the policy does not manage must survive the reset.
  await h.client.updateShieldZone({ shieldZoneId, shieldZone: { whitelabelResponsePages: true } });
  const patchesBefore = await h.callCount('PATCH /shield/shield-zone');

  obj.metadata.deletionTimestamp = '2030-01-01T00:00:00Z';
  const external = await h.connect(obj);
  const obs = await external.observe(obj, ectx(obj));
  t.true(obs.exists, 'managed fields are not at the defaults yet');
  await external.delete(obj, ectx(obj));
  t.is(await h.callCount('PATCH /shield/shield-zone'), patchesBefore + 1, 'one PATCH');
  t.deepEqual(h.patches.at(-1)?.shieldZone, {
    learningMode: true,
    wafExecutionMode: 1,
    wafDisabledRules: [],
    dDoSChallengeWindow: 3600,
  });
  t.false((await external.observe(obj, ectx(obj))).exists, 'at the defaults: gone for the runtime');
  const zone = await h.client.getShieldZoneByPullZone(h.pullZoneId);
  t.is(zone?.whitelabelResponsePages, true, 'unmanaged field untouched');
  await external.delete(obj, ectx(obj));
  t.is(await h.callCount('PATCH /shield/shield-zone'), patchesBefore + 1, 'idempotent');
});

test('errors: invalid requests are terminal, rejected keys unauthorized', (t) => {
  const invalid = new CdnApiError({
    operation: 'updateShieldZone',
    kind: 'invalid',
    message: 'x',
    status: 400,
  });
  t.is(classifyShieldError(invalid).class, 'terminal');
  const denied = new CdnApiError({
    operation: 'getShieldZoneByPullZone',
    kind: 'unauthorized',
    message: 'x',
    status: 401,
  });
  t.is(classifyShieldError(denied).class, 'unauthorized');
});

test('fleet view: N policies cost one list pass (N/pageSize calls), not N calls', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const n = 150;
  const seeded = (await h.admin('POST', '/_sim/seed', {
    pullZones: Array.from({ length: n }, (_, i) => ({ Name: `fleet-${i}` })),
  })) as { pullZones: number[] };
  await h.admin('POST', '/_sim/seed', {
    shieldZones: seeded.pullZones.map((pullZoneId) => ({ pullZoneId, wafExecutionMode: 0 })),
  });
  const policies = seeded.pullZones.map((pullZoneId, i) => ({
    ...policy(h, { waf: { executionMode: 'Log' as const } }),
    metadata: { name: `p${i}`, namespace: 'ns', uid: `uid-${i}` },
    spec: { pullZoneId, waf: { executionMode: 'Log' as const } },
  }));
  const observations = await Promise.all(
    policies.map(async (p) => (await h.connect(p)).observe(p, ectx(p))),
  );
  t.true(observations.every((o) => o.exists && o.upToDate));
  t.is(await h.callCount('GET /shield/shield-zones'), 2, '150 zones / 100 per page = 2 calls');
  t.is(await h.callCount('GET /shield/shield-zone/get-by-pullzone/{pullZoneId}'), n);
  t.is(h.shared.fleet.refreshes, 1, 'one list pass shared by every policy');
});

const TRIGGERED_ROUTE = 'GET /shield/waf/rules/review-triggered/{shieldZoneId}';
const ZONE_RULES_ROUTE = 'GET /shield/waf/rules/{shieldZoneId}';

test('triggered rules: in status while the WAF is on, read once per poll interval, written only when changed', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { enabled: true } });
  await pass(h, obj); // create
  const zone = String(obj.status?.shieldZoneId);
  await h.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/913100/metrics`, { totalTriggers: 5 });
  await h.admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/930100/metrics`, {
    totalTriggers: 12,
  });
  await pass(h, obj);
  t.deepEqual(obj.status?.waf, {
    triggeredRulesTotal: 2,
    triggeredRules: [
      { ruleId: '930100', description: 'Path traversal attack (/../)', requests: 12 },
      {
        ruleId: '913100',
        description: 'Found User-Agent associated with security scanner',
        requests: 5,
      },
    ],
  });
  t.is(await h.callCount(TRIGGERED_ROUTE), 1);

  // Within the interval: not read, status untouched.
  const before = structuredClone(obj.status);
  h.clock.now += 60_000;
  const quiet = await pass(h, obj);
  t.false('waf' in (quiet.status ?? {}), 'nothing for status.waf in this pass');
  t.is(await h.callCount(TRIGGERED_ROUTE), 1);
  // After the interval: read again; the same answer changes nothing.
  h.clock.now += POLL_MS;
  const same = await pass(h, obj);
  t.is(await h.callCount(TRIGGERED_ROUTE), 2);
  t.false('waf' in (same.status ?? {}), 'an equal answer adds nothing to the status write');
  t.deepEqual(obj.status, before);

  // Reviewed (Ignore) on the platform: gone from the list at the next read, no write.
  await h.client.reviewTriggeredRule(Number(zone), { ruleId: '930100', action: 0 });
  h.clock.now += POLL_MS;
  await pass(h, obj);
  t.like(obj.status?.waf, { triggeredRulesTotal: 1, triggeredRules: [{ ruleId: '913100' }] });
  t.is(h.patches.length, 0, 'an Ignore review is not drift');

  // WAF off: cleared, not read.
  obj.spec = { ...obj.spec, waf: { enabled: false } };
  await pass(h, obj);
  h.clock.now += POLL_MS;
  const off = await pass(h, obj);
  t.true(off.upToDate);
  t.true('waf' in (off.status ?? {}) && off.status?.waf === undefined, 'status.waf removed');
  t.is(obj.status?.waf, undefined);
  t.is(await h.callCount(TRIGGERED_ROUTE), 3, 'not read while the WAF is off');
});

test('override lists: a rule the plan lacks is PlanNotSufficient with nothing written for that list', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    learningMode: false,
    waf: { disabledRules: ['944100', '913100'], logOnlyRules: ['930100'] },
  });
  await pass(h, obj); // create (Basic plan): the lists wait for the zone's rules
  const zoneId = Number(obj.status?.shieldZoneId);
  t.deepEqual((await h.client.getShieldZone(zoneId)).wafDisabledRules, []);
  const err = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(err), {
    class: 'retryable',
    reason: 'PlanNotSufficient',
    retryAfterMs: POLL_MS,
  });
  t.is(
    err.message,
    "cannot apply the WAF rule overrides, nothing was written for these lists: spec.waf.disabledRules: rule 944100 needs the Business plan or higher; the zone's plan is Basic",
  );
  t.deepEqual(
    h.patches.map((p) => p.shieldZone),
    [{ wafLogOnlyRules: ['930100'] }],
    'the valid list is written, the refused one is not',
  );
  t.deepEqual((await h.client.getShieldZone(zoneId)).wafDisabledRules, []);

  // Retried: the zone's rules come from the cache, the list is still held.
  await t.throwsAsync(pass(h, obj), { message: /rule 944100/ });
  t.is(await h.callCount(ZONE_RULES_ROUTE), 1, 'the zone rule list is cached');
  t.is(h.patches.length, 1);

  // An unknown id: InvalidSpec.
  obj.spec = {
    ...obj.spec,
    waf: { disabledRules: ['913100', 'nope-1'], logOnlyRules: ['930100'] },
  };
  const unknown = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(unknown), { class: 'retryable', reason: 'InvalidSpec' });
  t.regex(
    unknown.message,
    /spec\.waf\.disabledRules: rule nope-1 is not one of the zone's managed WAF rules/,
  );
  t.is(h.patches.length, 1);

  // The plan is raised in the spec: the plan goes first, the list follows at the next pass.
  obj.spec = {
    ...obj.spec,
    planType: 'Business',
    waf: { disabledRules: ['944100', '913100'], logOnlyRules: ['930100'] },
  };
  const raising = await t.throwsAsync(pass(h, obj));
  t.false('retryAfterMs' in classifyShieldError(raising), 'normal backoff after a plan change');
  t.deepEqual(h.patches.at(-1)?.shieldZone, { planType: 2 });
  await pass(h, obj);
  t.deepEqual(h.patches.at(-1)?.shieldZone, { wafDisabledRules: ['944100', '913100'] });
  t.true((await pass(h, obj)).upToDate);
});

test('override lists: a rule in both lists is InvalidSpec with neither list written', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { disabledRules: ['913100'], logOnlyRules: ['913100', '930100'] } });
  await pass(h, obj);
  const err = await t.throwsAsync(pass(h, obj));
  t.like(classifyShieldError(err), { class: 'retryable', reason: 'InvalidSpec' });
  t.regex(err.message, /rule 913100 is in both/);
  t.deepEqual(h.patches, []);
});

test('a review made on the platform for a managed list is drift: one PATCH puts the lists back', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { disabledRules: ['913100'], logOnlyRules: ['930100'] } });
  await pass(h, obj);
  await pass(h, obj);
  const zoneId = Number(obj.status?.shieldZoneId);
  h.patches.length = 0;
  const rulesRead = await h.callCount(ZONE_RULES_ROUTE);

  // LogOnly of a rule the policy does not list: removed again.
  await h.client.reviewTriggeredRule(zoneId, { ruleId: '913110', action: 1 });
  const drift = await pass(h, obj);
  t.deepEqual(
    drift.diff.map((d) => d.field),
    ['wafLogOnlyRules'],
  );
  t.deepEqual(
    h.patches.map((p) => p.shieldZone),
    [{ wafLogOnlyRules: ['930100'] }],
  );
  t.is(await h.callCount(ZONE_RULES_ROUTE), rulesRead, 'a write that adds no id reads no rules');

  // DisableRule of a log-only rule moves it between the lists: both put back in one PATCH.
  await h.client.reviewTriggeredRule(zoneId, { ruleId: '930100', action: 2 });
  await pass(h, obj);
  t.is(h.patches.length, 2);
  t.deepEqual(h.patches.at(-1)?.shieldZone, {
    wafDisabledRules: ['913100'],
    wafLogOnlyRules: ['930100'],
  });
  t.true((await pass(h, obj)).upToDate);
  t.like(await h.client.getShieldZone(zoneId), {
    wafDisabledRules: ['913100'],
    wafLogOnlyRules: ['930100'],
  });
});

test('deleting a policy forgets its read clocks and its zone rule list', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { enabled: true, disabledRules: ['913100'] }, ruleMetrics: ['r1'] });
  await pass(h, obj);
  await pass(h, obj);
  t.is(h.shared.triggeredReadAt.size, 1);
  t.is(h.shared.metricsReadAt.size, 1);
  t.is(h.shared.wafRules.cachedZones, 1);
  const deleting: ShieldPolicy = {
    ...obj,
    metadata: { ...obj.metadata, deletionTimestamp: new Date(h.clock.now).toISOString() },
  };
  await (await h.connect(deleting)).observe(deleting, ectx(deleting));
  t.is(h.shared.triggeredReadAt.size, 0);
  t.is(h.shared.metricsReadAt.size, 0);
  t.is(h.shared.wafRules.cachedZones, 0);
});

test('triggered rules and metrics share one cadence: a metrics read reads the triggered rules too', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, { waf: { enabled: true }, ruleMetrics: ['913100'] });
  await pass(h, obj); // create
  await pass(h, obj); // reads both
  const metricsRoute = 'GET /shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}';
  const triggered = await h.callCount(TRIGGERED_ROUTE);
  const metrics = await h.callCount(metricsRoute);
  h.clock.now += 60_000;
  await pass(h, obj);
  t.is(await h.callCount(TRIGGERED_ROUTE), triggered, 'within the interval: neither read');
  // The rule list changes: the metrics are read at once, and the triggered rules with them,
  // so the two land in one status write.
  obj.spec = { ...obj.spec, ruleMetrics: ['913100', '930100'] };
  await pass(h, obj);
  t.is(await h.callCount(metricsRoute), metrics + 2);
  t.is(await h.callCount(TRIGGERED_ROUTE), triggered + 1);
});

test('Reset: a feature the zone plan no longer includes is left as it is, the deletion completes', async (t) => {
  const h = await setUp();
  t.teardown(() => h.sim.close());
  const obj = policy(h, {
    planType: 'Advanced',
    learningMode: false,
    botDetection: { executionMode: 'Challenge' },
  });
  await pass(h, obj);
  await pass(h, obj);
  const zoneId = Number(obj.status?.shieldZoneId);
  t.is((await h.client.getBotDetection(zoneId)).executionMode, 1);
  // Downgraded on the dashboard: bot detection can no longer be changed.
  await h.admin('PUT', `/_sim/shield-zones/${String(zoneId)}/plan`, { planType: 0 });
  const deleting: ShieldPolicy = {
    ...obj,
    metadata: { ...obj.metadata, deletionTimestamp: new Date(h.clock.now).toISOString() },
  };
  const external = await h.connect(deleting);
  t.true((await external.observe(deleting, ectx(deleting))).exists);
  await external.delete(deleting, ectx(deleting)); // no error: the refused feature is skipped
  t.is((await h.client.getShieldZone(zoneId)).learningMode, true, 'the rest was reset');
  t.is((await h.client.getBotDetection(zoneId)).executionMode, 1, 'left as it is');
  const after = await h.connect(deleting);
  const seen = await after.observe(deleting, ectx(deleting));
  t.false(seen.exists, JSON.stringify(seen.diff));
});
