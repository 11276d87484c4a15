/**
 * ShieldPolicy end to end: kubectl on the shared real apiserver, the real operator process and
 * an in-process cdn-sim. Covers the acceptance list of issue 8: waiting for a referenced
 * PullZoneConfig, create, one PATCH per WAF change, zero writes in sync, drift correction,
 * metrics in status, plan limits, enum validation at apply time, dry-run, Reset and Orphan;
 * curated access lists with the plan check (issue 48).
 */
import { applyNamespaceAccount, defaultAccountArgs, deleteAccount } from '../support/account.js';
import test from 'ava';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CdnClient } from '../../../src/cdn/client.js';
import type { ShieldZone } from '../../../src/cdn/types.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyAllCrds } from '../support/crds.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { e2eResponseMode } from '../support/operator-env.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  deleteObject,
  getObject,
  kubectl,
  kubectlRaw,
  patchObject,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { freeCertificateHostnames } from '../../../hack/demo/example-hostnames.js';

const SHP = 'shieldpolicies.shield.cdn.operator.io';
const PZC = 'pullzoneconfigs.pullzones.cdn.operator.io';
const API_KEY = 'shp-e2e-key';
const PATCH_ROUTE = 'PATCH /shield/shield-zone';
const CREATE_ROUTE = 'POST /shield/shield-zone';
const BOT_PATCH_ROUTE = 'PATCH /shield/shield-zone/{shieldZoneId}/bot-detection';
const BOT_GET_ROUTE = 'GET /shield/shield-zone/{shieldZoneId}/bot-detection';
const UPLOAD_PATCH_ROUTE = 'PATCH /shield/shield-zone/{shieldZoneId}/upload-scanning';
const PAGE_PUT_ROUTE = 'PUT /shield/shield-zone/{shieldZoneId}/custom-page/{pageType}';
const METRICS_ROUTE = 'GET /shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}';
const CURATED_ROUTE = 'PATCH /shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}';
const ROOT = new URL('../../../', import.meta.url);

const kubeconfig = process.env.KUBECONFIG ?? '';
let ns = '';
let sim: SimulatorHandle;
let op: OperatorProcess;
let client: CdnClient;

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'X-Sim-Admin-Token': sim.adminToken, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`admin ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function callCount(route: string): Promise<number> {
  const calls = (await admin('GET', '/_sim/calls')) as {
    routes: Record<string, { count: number }>;
  };
  return calls.routes[route]?.count ?? 0;
}

/** The list form of a zone (every member, including the list-only enums). */
async function listedZone(pullZoneId: number): Promise<ShieldZone | undefined> {
  return (await client.listAllShieldZones()).find((z) => z.pullZoneId === pullZoneId);
}

const policy = (name: string): Promise<KubeJson | undefined> => getObject(SHP, ns, name);

/** Waits until the policy's Synced condition is about its current generation and matches. */
function waitSynced(
  name: string,
  status: 'True' | 'False',
  reason?: string,
  ms = 30_000,
): Promise<KubeJson> {
  return waitFor(
    async () => {
      const o = await policy(name);
      const c = conditionOf(o, 'Synced');
      const current = c?.observedGeneration === o?.metadata.generation;
      return current && c?.status === status && (!reason || c.reason === reason) ? o : undefined;
    },
    ms,
    `${name} Synced=${status}${reason ? ` (${reason})` : ''}`,
  );
}

function waitReady(name: string, ms = 30_000): Promise<KubeJson> {
  return waitFor(
    async () => {
      const o = await policy(name);
      const ready = conditionOf(o, 'Ready');
      const synced = conditionOf(o, 'Synced');
      return ready?.status === 'True' &&
        synced?.status === 'True' &&
        synced.observedGeneration === o?.metadata.generation
        ? o
        : undefined;
    },
    ms,
    `${name} Ready`,
  );
}

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  // The operator serves every kind in crds/; it is ready only once all of them are installed.
  await applyAllCrds();
  ns = await createNamespace('shp');
  sim = await startSimulator({
    apiKeys: [{ key: API_KEY }],
    responses: e2eResponseMode(),
    externalDns: freeCertificateHostnames(),
  });
  client = new CdnClient({ baseUrl: sim.url, credentials: API_KEY });
  await kubectl([
    'create',
    'secret',
    'generic',
    'cdn-credentials',
    '-n',
    ns,
    `--from-literal=apiKey=${API_KEY}`,
  ]);
  await applyNamespaceAccount(ns, 'cdn-credentials');
  op = await startOperator({
    kubeconfig,
    args: [
      '--namespace',
      ns,
      '--api-url',
      sim.url,
      ...defaultAccountArgs(ns),
      '--log-level',
      'info',
    ],
  });
});

test.after.always(async () => {
  if (ns) {
    // Let the operator release its finalizers before it stops.
    await kubectlRaw(['delete', SHP, '--all', '-n', ns, '--wait=false']);
    await kubectlRaw(['delete', PZC, '--all', '-n', ns, '--wait=false']);
  }
  await op?.stop();
  await sim?.close();
  if (ns) {
    await deleteNamespace(ns);
    await deleteAccount(ns);
  }
});

test.serial('an invalid enum or a double target is rejected at apply time', async (t) => {
  const bad = (spec: string): string => `apiVersion: shield.cdn.operator.io/v1beta1
kind: ShieldPolicy
metadata: { name: bad, namespace: ${ns} }
spec: ${spec}
`;
  const enumRes = await kubectlRaw(
    ['apply', '-f', '-'],
    bad('{ pullZoneId: 1, waf: { executionMode: Panic } }'),
  );
  t.not(enumRes.code, 0);
  t.regex(enumRes.stderr, /spec\.waf\.executionMode: Unsupported value: "Panic"/);
  const ddosRes = await kubectlRaw(
    ['apply', '-f', '-'],
    bad('{ pullZoneId: 1, ddos: { shieldSensitivity: 2 } }'),
  );
  t.not(ddosRes.code, 0, 'numbers are not accepted where names are expected');
  const both = await kubectlRaw(
    ['apply', '-f', '-'],
    bad('{ pullZoneId: 1, pullZoneRef: { name: demo-zone } }'),
  );
  t.not(both.code, 0);
  t.regex(both.stderr, /set exactly one of pullZoneRef and pullZoneId/);
  const repeated = await kubectlRaw(
    ['apply', '-f', '-'],
    bad('{ pullZoneId: 1, waf: { customRuleOrder: [7, 3, 7] } }'),
  );
  t.not(repeated.code, 0, 'an atomic list keeps the set it replaced from holding an id twice');
  t.regex(repeated.stderr, /each id may appear only once/);
  const oldMode = await kubectlRaw(
    ['apply', '-f', '-'],
    bad('{ pullZoneId: 1, botDetection: { executionMode: LogOnly } }'),
  );
  t.regex(oldMode.stderr, /Unsupported value: "LogOnly"/, 'v1alpha1 spelling: now Log');
  const neither = await kubectlRaw(['apply', '-f', '-'], bad('{ learningMode: true }'));
  t.regex(neither.stderr, /set exactly one of pullZoneRef and pullZoneId/);
  t.is(await policy('bad'), undefined);
});

test.serial(
  'a policy by pullZoneRef waits for the zone, then creates the shield zone',
  async (t) => {
    // The shipped example, with a short poll interval so the later steps run quickly.
    const example = (await readFile(new URL('examples/shieldpolicy.yaml', ROOT), 'utf8')).replace(
      'cdn.operator.io/poll-interval: 10m',
      'cdn.operator.io/poll-interval: 5s',
    );
    await kubectl(['apply', '-n', ns, '-f', '-'], example);
    const waiting = await waitFor(
      async () => {
        const o = await policy('shop-shield');
        return conditionOf(o, 'Ready')?.reason === 'ReferenceNotReady' ? o : undefined;
      },
      20_000,
      'ReferenceNotReady',
    );
    t.regex(conditionOf(waiting, 'Ready')!.message, /PullZoneConfig .*shop-cdn/);
    t.is(await callCount(CREATE_ROUTE), 0, 'nothing is created while waiting');

    // The shipped PullZoneConfig example (shop-cdn), which the ShieldPolicy example targets.
    const zoneExample = await readFile(new URL('examples/pullzoneconfig.yaml', ROOT), 'utf8');
    await kubectl(['apply', '-n', ns, '-f', '-'], zoneExample);
    const ready = await waitReady('shop-shield', 60_000);
    const pullZoneId = ready.status?.pullZoneId as number;
    const zoneConfig = await getObject(PZC, ns, 'shop-cdn');
    t.is(
      pullZoneId,
      zoneConfig?.status?.pullZoneId as number,
      'the referenced pull zone is protected',
    );
    t.is(typeof ready.status?.shieldZoneId, 'number');
    t.like(ready.status, { planType: 'Basic', customWafRulesLimit: 0, rateLimitRulesLimit: 2 });
    t.is(await callCount(CREATE_ROUTE), 1, 'one create');

    const zone = await listedZone(pullZoneId);
    t.like(zone, {
      learningMode: false,
      wafEnabled: true,
      wafExecutionMode: 1,
      wafLogOnlyRules: ['930120'],
      wafRequestHeaderLoggingEnabled: true,
      wafRealtimeThreatIntelligenceEnabled: true,
      wafRequestBodyLimitAction: 1,
      wafResponseBodyLimitAction: 2,
      dDoSShieldSensitivity: 2,
      dDoSChallengeWindow: 1800,
      whitelabelResponsePages: true,
    });
    const printed = await kubectl(['get', 'shp', '-n', ns]);
    t.regex(printed, /NAME\s+READY\s+SYNCED\s+ZONE\s+AGE/);
    t.regex(
      printed,
      new RegExp(`shop-shield\\s+True\\s+True\\s+${String(ready.status?.shieldZoneId)}`),
    );
  },
);

test.serial('in sync: periodic passes make no writes', async (t) => {
  const before = await callCount(PATCH_ROUTE);
  // Two poll intervals (5 s each) pass; a forced pass too.
  await patchObject(SHP, ns, 'shop-shield', {
    metadata: {
      annotations: { 'cdn.operator.io/reconcile-requested-at': new Date().toISOString() },
    },
  });
  await new Promise((r) => setTimeout(r, 12_000));
  t.is(await callCount(PATCH_ROUTE), before, 'zero PATCH calls while in sync');
  t.is(await callCount(CREATE_ROUTE), 1);
});

test.serial('changing one WAF setting costs exactly one PATCH', async (t) => {
  const before = await callCount(PATCH_ROUTE);
  await patchObject(SHP, ns, 'shop-shield', { spec: { waf: { executionMode: 'Log' } } });
  const o = await waitReady('shop-shield');
  await waitFor(
    async () => (await listedZone(o.status?.pullZoneId as number))?.wafExecutionMode === 0,
    20_000,
    'wafExecutionMode Log on the platform',
  );
  // Let a couple more passes run: the change must not be sent twice.
  await new Promise((r) => setTimeout(r, 6_000));
  t.is((await callCount(PATCH_ROUTE)) - before, 1, 'one PATCH for one changed field');
  t.is(conditionOf(await policy('shop-shield'), 'Synced')?.status, 'True');
});

test.serial('drift made outside Kubernetes is corrected', async (t) => {
  const o = (await policy('shop-shield'))!;
  const shieldZoneId = o.status?.shieldZoneId as number;
  const pullZoneId = o.status?.pullZoneId as number;
  await client.updateShieldZone({
    shieldZoneId,
    shieldZone: { wafEnabled: false, whitelabelResponsePages: false },
  });
  const fixed = await waitFor(
    async () => {
      const z = await client.getShieldZoneByPullZone(pullZoneId);
      return z?.wafEnabled === true && z.whitelabelResponsePages === true ? z : undefined;
    },
    30_000,
    'drift corrected',
  );
  t.truthy(fixed);
  const events = await kubectl(['get', 'events', '-n', ns, '-o', 'json']);
  t.regex(events, /UpdatedExternalResource/);
});

test.serial('rule metrics appear in status and follow the platform', async (t) => {
  const o = (await policy('shop-shield'))!;
  const zone = String(o.status?.shieldZoneId);
  await admin('PUT', `/_sim/shield-zones/${zone}/waf-rules/930120/metrics`, {
    totalTriggers: 12,
    blockedRequests: 7,
    loggedRequests: 4,
    challengedRequests: 1,
  });
  const withMetrics = await waitFor(
    async () => {
      const p = await policy('shop-shield');
      const m = p?.status?.ruleMetrics as Array<Record<string, unknown>> | undefined;
      return m?.[0]?.totalTriggers === 12 ? p : undefined;
    },
    30_000,
    'metrics of rule 930120 in status',
  );
  t.deepEqual(withMetrics.status?.ruleMetrics, [
    { ruleId: '930120', totalTriggers: 12, blocked: 7, logged: 4, challenged: 1 },
    { ruleId: '941100', totalTriggers: 0, blocked: 0, logged: 0, challenged: 0 },
  ]);
  t.truthy(withMetrics.status?.lastMetricsTime);
  // Reads happen at most once per poll interval (5 s here), not on every pass.
  const reads = await callCount(METRICS_ROUTE);
  await new Promise((r) => setTimeout(r, 6_000));
  const after = await callCount(METRICS_ROUTE);
  t.true(after - reads <= 4, `at most two refreshes of two rules in 6 s, got ${after - reads}`);
  const unchanged = await policy('shop-shield');
  t.is(unchanged?.status?.lastMetricsTime, withMetrics.status?.lastMetricsTime, 'same values');
  t.is(
    unchanged?.metadata.resourceVersion,
    withMetrics.metadata.resourceVersion,
    'no status write',
  );
});

test.serial('a configuration above the plan limits is reported with the numbers', async (t) => {
  const before = await callCount(PATCH_ROUTE);
  await patchObject(SHP, ns, 'shop-shield', { spec: { waf: { customRuleOrder: [101, 102] } } });
  const o = await waitSynced('shop-shield', 'False', 'PlanLimitExceeded');
  t.regex(
    conditionOf(o, 'Synced')!.message,
    /spec\.waf\.customRuleOrder needs 2 but the zone's plan \(Basic\) allows 0 \(customWafRulesLimit\)/,
  );
  t.is(await callCount(PATCH_ROUTE), before, 'nothing is sent for an over-limit field');
  // Back within the limits.
  await patchObject(SHP, ns, 'shop-shield', { spec: { waf: { customRuleOrder: null } } });
  await waitReady('shop-shield');
  t.pass();
});

/** A curated list of the zone as `[isEnabled, action]`. */
async function curatedList(shieldZoneId: number, name: string): Promise<[boolean, number]> {
  const overview = await client.listAccessLists(shieldZoneId);
  const found = overview.managedLists?.find((l) => l.name === name);
  if (!found) throw new Error(`no curated list ${name} on zone ${shieldZoneId}`);
  return [found.isEnabled, found.action];
}

test.serial(
  'curated access lists: set by name; one above the plan is PlanNotSufficient, the others written',
  async (t) => {
    const o = (await policy('shop-shield'))!;
    const zone = o.status?.shieldZoneId as number;
    // The shipped example enables Tor Exit Nodes (every plan has it) with Challenge.
    t.deepEqual(await curatedList(zone, 'Tor Exit Nodes'), [true, 3]);
    const before = await callCount(CURATED_ROUTE);
    await patchObject(SHP, ns, 'shop-shield', {
      spec: {
        curatedAccessLists: [
          { name: 'Tor Exit Nodes', enabled: true, action: 'Block' },
          { name: 'VPN Providers', enabled: true, action: 'Block' },
        ],
      },
    });
    const held = await waitSynced('shop-shield', 'False', 'PlanNotSufficient');
    t.regex(
      conditionOf(held, 'Synced')!.message,
      /curatedAccessLists\[VPN Providers\]: the list needs the Advanced plan or higher; the zone's plan is Basic/,
    );
    await waitFor(
      async () => (await curatedList(zone, 'Tor Exit Nodes'))[1] === 2,
      20_000,
      'Tor Exit Nodes set to Block',
    );
    t.deepEqual(await curatedList(zone, 'VPN Providers'), [false, 0], 'nothing sent for it');
    t.is((await callCount(CURATED_ROUTE)) - before, 1, 'one PATCH: the list the plan allows');
    // Without the list above the plan, the policy is in sync again.
    await patchObject(SHP, ns, 'shop-shield', {
      spec: { curatedAccessLists: [{ name: 'Tor Exit Nodes', enabled: true, action: 'Block' }] },
    });
    await waitReady('shop-shield');
    t.deepEqual(await curatedList(zone, 'VPN Providers'), [false, 0]);
  },
);

test.serial('planType is set, drift-restored, and left alone once out of the spec', async (t) => {
  const o = (await policy('shop-shield'))!;
  const zone = String(o.status?.shieldZoneId);
  const pullZoneId = o.status?.pullZoneId as number;
  const platformPlan = async (): Promise<unknown> => (await listedZone(pullZoneId))?.planType;
  // The upgrade and the custom rule order it makes room for, in one spec change.
  await patchObject(SHP, ns, 'shop-shield', {
    spec: { planType: 'Advanced', waf: { customRuleOrder: [101, 102] } },
  });
  const upgraded = await waitFor(
    async () => {
      const p = await policy('shop-shield');
      const synced = conditionOf(p, 'Synced');
      return p?.status?.planType === 'Advanced' &&
        synced?.status === 'True' &&
        synced.observedGeneration === p.metadata.generation
        ? p
        : undefined;
    },
    60_000,
    'plan Advanced in status and in sync',
  );
  t.is(upgraded.status?.customWafRulesLimit, 10);
  t.like(await listedZone(pullZoneId), { planType: 1, wafCustomRuleOrder: [101, 102] });

  // Downgraded on the dashboard: put back.
  await admin('PUT', `/_sim/shield-zones/${zone}/plan`, { planType: 0 });
  await waitFor(async () => (await platformPlan()) === 1, 30_000, 'plan restored to Advanced');

  // Out of the spec: not managed any more.
  await patchObject(SHP, ns, 'shop-shield', { spec: { planType: null } });
  await waitReady('shop-shield');
  await admin('PUT', `/_sim/shield-zones/${zone}/plan`, { planType: 2 });
  const before = await callCount(PATCH_ROUTE);
  await new Promise((r) => setTimeout(r, 12_000));
  t.is(await platformPlan(), 2, 'the plan set elsewhere stays');
  t.is(await callCount(PATCH_ROUTE), before, 'no write for an unmanaged plan');
});

test.serial(
  'bot detection and upload scanning: set, drift restored, left alone once out of the spec',
  async (t) => {
    const o = (await policy('shop-shield'))!;
    const zone = o.status?.shieldZoneId as number;
    const before = await callCount(BOT_PATCH_ROUTE);
    await patchObject(SHP, ns, 'shop-shield', {
      spec: {
        botDetection: { executionMode: 'Challenge', browserFingerprint: { aggression: 'High' } },
        uploadScanning: { enabled: true, antivirusScanningMode: 'Block' },
      },
    });
    await waitReady('shop-shield');
    await waitFor(
      async () => (await client.getUploadScanning(zone)).isEnabled === true,
      30_000,
      'upload scanning on',
    );
    t.like(await client.getBotDetection(zone), {
      executionMode: 1,
      browserFingerprint: { sensitivity: 1, aggression: 3, complexEnabled: false },
    });
    t.like(await client.getUploadScanning(zone), { isEnabled: true, antivirusScanningMode: 2 });
    await new Promise((r) => setTimeout(r, 6_000));
    t.is((await callCount(BOT_PATCH_ROUTE)) - before, 1, 'one bot detection PATCH, then in sync');

    // Drift on the dashboard: put back, members the spec leaves out untouched.
    await client.updateBotDetection(zone, {
      executionMode: 0,
      ipAddress: { sensitivity: 3 },
    });
    await waitFor(
      async () => (await client.getBotDetection(zone)).executionMode === 1,
      30_000,
      'bot detection execution mode restored',
    );
    t.is((await client.getBotDetection(zone)).ipAddress?.sensitivity, 3, 'unmanaged member kept');

    // Out of the spec: neither read nor written.
    await patchObject(SHP, ns, 'shop-shield', {
      spec: { botDetection: null, uploadScanning: null },
    });
    await waitReady('shop-shield');
    await client.updateUploadScanning(zone, { isEnabled: false });
    const reads = await callCount(BOT_GET_ROUTE);
    const writes = await callCount(UPLOAD_PATCH_ROUTE);
    await new Promise((r) => setTimeout(r, 12_000));
    t.is(await callCount(BOT_GET_ROUTE), reads, 'an unmanaged block is not read');
    t.is(await callCount(UPLOAD_PATCH_ROUTE), writes, 'nor written');
    t.false((await client.getUploadScanning(zone)).isEnabled);
  },
);

function pagesConfigMap(name: string, html: string): string {
  return `apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}, namespace: ${ns} }
data:
  block.html: ${JSON.stringify(html)}
`;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

test.serial(
  'custom pages from a ConfigMap: set, follow the ConfigMap, drift restored, out of spec left alone',
  async (t) => {
    const o = (await policy('shop-shield'))!;
    const zone = o.status?.shieldZoneId as number;
    await apply(pagesConfigMap('shield-pages', '<h1>shop: blocked</h1>'));
    await patchObject(SHP, ns, 'shop-shield', {
      spec: {
        customPages: [
          { pageType: 'block', configMapRef: { name: 'shield-pages', key: 'block.html' } },
        ],
      },
    });
    await waitFor(
      async () => (await client.getCustomPage(zone, 'block')) === '<h1>shop: blocked</h1>',
      30_000,
      'page uploaded',
    );
    const ready = await waitFor(
      async () => {
        const p = await policy('shop-shield');
        const pages = p?.status?.customPages as Array<{ sha256: string }> | undefined;
        return pages?.[0]?.sha256 === sha256('<h1>shop: blocked</h1>') ? p : undefined;
      },
      30_000,
      'hash in status',
    );
    t.false(JSON.stringify(ready.status).includes('shop: blocked'), 'no HTML in status');

    // The ConfigMap changes: the new content is uploaded.
    await apply(pagesConfigMap('shield-pages', '<h1>shop: go away</h1>'));
    await waitFor(
      async () => (await client.getCustomPage(zone, 'block')) === '<h1>shop: go away</h1>',
      30_000,
      'page follows the ConfigMap',
    );
    const puts = await callCount(PAGE_PUT_ROUTE);
    await new Promise((r) => setTimeout(r, 6_000));
    t.is(await callCount(PAGE_PUT_ROUTE), puts, 'same content: no upload');

    // Drift: put back.
    await client.putCustomPage(zone, 'block', '<p>changed on the dashboard</p>');
    await waitFor(
      async () => (await client.getCustomPage(zone, 'block')) === '<h1>shop: go away</h1>',
      30_000,
      'drift restored',
    );

    // Out of the spec: left alone.
    await patchObject(SHP, ns, 'shop-shield', { spec: { customPages: null } });
    await waitReady('shop-shield');
    await client.putCustomPage(zone, 'block', '<p>someone else</p>');
    const after = await callCount(PAGE_PUT_ROUTE);
    await new Promise((r) => setTimeout(r, 12_000));
    t.is(await callCount(PAGE_PUT_ROUTE), after, 'no upload for an unmanaged page');
    t.is(await client.getCustomPage(zone, 'block'), '<p>someone else</p>');
    t.is((await policy('shop-shield'))?.status?.customPages, undefined, 'status cleared');
  },
);

test.serial(
  'a page the plan does not include: PlanNotSufficient, slow retry, then applied after an upgrade; Reset removes it',
  async (t) => {
    const seeded = (await admin('POST', '/_sim/seed', { pullZones: [{ Name: 'shp-pages' }] })) as {
      pullZones: number[];
    };
    const pullZoneId = seeded.pullZones[0]!;
    await apply(pagesConfigMap('basic-pages', '<h1>basic</h1>'));
    const puts = await callCount(PAGE_PUT_ROUTE);
    await apply(`apiVersion: shield.cdn.operator.io/v1beta1
kind: ShieldPolicy
metadata:
  name: pages-basic
  namespace: ${ns}
  annotations: { cdn.operator.io/poll-interval: 5s }
spec:
  pullZoneId: ${pullZoneId}
  customPages: [{ pageType: block, configMapRef: { name: basic-pages, key: block.html } }]
`);
    const refused = await waitSynced('pages-basic', 'False', 'PlanNotSufficient', 60_000);
    t.regex(
      conditionOf(refused, 'Synced')!.message,
      /spec\.customPages: the zone's plan \(Basic\) does not include it: .*Advanced plan/,
    );
    await new Promise((r) => setTimeout(r, 10_000));
    const attempts = (await callCount(PAGE_PUT_ROUTE)) - puts;
    t.true(attempts >= 1 && attempts <= 4, `bounded retries at the poll interval, got ${attempts}`);

    const zone = refused.status?.shieldZoneId as number;
    await admin('PUT', `/_sim/shield-zones/${String(zone)}/plan`, { planType: 1 });
    await waitReady('pages-basic', 30_000);
    t.is(await client.getCustomPage(zone, 'block'), '<h1>basic</h1>');

    await deleteObject(SHP, ns, 'pages-basic');
    await waitFor(async () => (await policy('pages-basic')) === undefined, 30_000, 'deleted');
    t.is(await client.getCustomPage(zone, 'block'), undefined, 'Reset removed the page');
  },
);

test.serial('dry-run plans the shield zone without creating it', async (t) => {
  const seeded = (await admin('POST', '/_sim/seed', { pullZones: [{ Name: 'shp-dry' }] })) as {
    pullZones: number[];
  };
  const pullZoneId = seeded.pullZones[0]!;
  await apply(`apiVersion: shield.cdn.operator.io/v1beta1
kind: ShieldPolicy
metadata:
  name: dry
  namespace: ${ns}
  annotations: { cdn.operator.io/dry-run: "true" }
spec: { pullZoneId: ${pullZoneId}, waf: { enabled: false } }
`);
  const o = await waitSynced('dry', 'False', 'DryRun');
  t.deepEqual(o.status?.plannedChanges, [
    { field: '(resource)', live: '<absent>', desired: '<created>' },
  ]);
  t.is(await client.getShieldZoneByPullZone(pullZoneId), undefined, 'nothing created');
  await deleteObject(SHP, ns, 'dry');
  await waitFor(async () => (await policy('dry')) === undefined, 20_000, 'dry deleted');
});

test.serial('deletionPolicy Reset returns the managed settings to the defaults', async (t) => {
  const o = (await policy('shop-shield'))!;
  const pullZoneId = o.status?.pullZoneId as number;
  const shieldZoneId = o.status?.shieldZoneId as number;
  await deleteObject(SHP, ns, 'shop-shield');
  await waitFor(async () => (await policy('shop-shield')) === undefined, 30_000, 'policy gone');
  const zone = await listedZone(pullZoneId);
  t.like(zone, {
    learningMode: true,
    wafEnabled: true,
    wafExecutionMode: 1,
    wafLogOnlyRules: [],
    wafRequestHeaderLoggingEnabled: false,
    wafRequestIgnoredHeaders: [],
    wafRealtimeThreatIntelligenceEnabled: false,
    wafRequestBodyLimitAction: 0,
    wafResponseBodyLimitAction: 0,
    dDoSShieldSensitivity: 2,
    dDoSChallengeWindow: 3600,
    whitelabelResponsePages: false,
  });
  t.truthy(zone, 'the shield zone itself remains (the platform has no delete)');
  t.deepEqual(await curatedList(shieldZoneId, 'Tor Exit Nodes'), [false, 0], 'off, no action');
});

test.serial('deletionPolicy Orphan leaves the shield zone as it is', async (t) => {
  const seeded = (await admin('POST', '/_sim/seed', { pullZones: [{ Name: 'shp-orphan' }] })) as {
    pullZones: number[];
  };
  const pullZoneId = seeded.pullZones[0]!;
  await apply(`apiVersion: shield.cdn.operator.io/v1beta1
kind: ShieldPolicy
metadata: { name: orphan, namespace: ${ns} }
spec:
  pullZoneId: ${pullZoneId}
  deletionPolicy: Orphan
  waf: { enabled: false, executionMode: Log }
  ddos: { shieldSensitivity: High }
`);
  await waitReady('orphan');
  const patches = await callCount(PATCH_ROUTE);
  await deleteObject(SHP, ns, 'orphan');
  await waitFor(async () => (await policy('orphan')) === undefined, 30_000, 'orphan gone');
  t.like(await listedZone(pullZoneId), {
    wafEnabled: false,
    wafExecutionMode: 0,
    dDoSShieldSensitivity: 3,
  });
  t.is(await callCount(PATCH_ROUTE), patches, 'no write on delete');
});

// Runs last (serial): every request of the file, deletion with Reset and Orphan included.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
