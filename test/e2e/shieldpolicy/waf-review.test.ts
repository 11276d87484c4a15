/**
 * ShieldPolicy and the WAF review (issue 34), end to end: kubectl on the shared real
 * apiserver, the real operator process and an in-process cdn-sim.
 *
 * - Triggered rules waiting for review appear in status.waf, read once per poll interval:
 *   passes in between make no extra platform call and no status write.
 * - A LogOnly / DisableRule review made on the platform for a list the policy manages is drift
 *   the operator puts back with one PATCH; an Ignore review is not drift.
 * - An override of a rule the zone's plan lacks is PlanNotSufficient with that list not
 *   written; raising the plan in the spec applies it.
 * - A Basic zone refuses bot detection (cdn-sim's plan gate): PlanNotSufficient naming the
 *   field and the plan, no write, retried at the poll interval, applied once planType is raised.
 * - An id in both lists is refused at apply time (CEL), and nothing the operator sent was
 *   rejected by the official documents.
 */
import test from 'ava';
import { CdnClient } from '../../../src/cdn/client.js';
import { startSimulator, type SimulatorHandle } from '../../../src/simulator/server.js';
import { applyNamespaceAccount, defaultAccountArgs, deleteAccount } from '../support/account.js';
import {
  apply,
  conditionOf,
  createNamespace,
  deleteNamespace,
  getObject,
  kubectl,
  kubectlRaw,
  patchObject,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import { applyAllCrds } from '../support/crds.js';
import { startOperator, type OperatorProcess } from '../support/operator.js';
import { e2eResponseMode } from '../support/operator-env.js';

const SHP = 'shieldpolicies.shield.cdn.operator.io';
const API_KEY = 'shp-review-e2e-key';
const POLL_S = 5;
const ZONE_PATCH = 'PATCH /shield/shield-zone';
const TRIGGERED = 'GET /shield/waf/rules/review-triggered/{shieldZoneId}';
const BY_PULL_ZONE = 'GET /shield/shield-zone/get-by-pullzone/{pullZoneId}';
const BOT_PATCH = 'PATCH /shield/shield-zone/{shieldZoneId}/bot-detection';

const kubeconfig = process.env.KUBECONFIG ?? '';
let ns = '';
let sim: SimulatorHandle;
let op: OperatorProcess;
let client: CdnClient;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const policy = (name: string): Promise<KubeJson | undefined> => getObject(SHP, ns, name);

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

/** Calls of `route` whose path names `id` (one zone's calls among all policies of the file). */
function callsOf(route: string, id?: number): Array<{ t: number; status: number }> {
  return sim.calls
    .snapshot()
    .log.filter(
      (c) => c.route === route && (id === undefined || c.path.split('/').includes(String(id))),
    );
}

async function seedPullZone(name: string): Promise<number> {
  const seeded = (await admin('POST', '/_sim/seed', { pullZones: [{ Name: name }] })) as {
    pullZones: number[];
  };
  return seeded.pullZones[0]!;
}

function policyYaml(name: string, pullZoneId: number, spec: string): string {
  return `apiVersion: shield.cdn.operator.io/v1beta1
kind: ShieldPolicy
metadata:
  name: ${name}
  namespace: ${ns}
  annotations: { cdn.operator.io/poll-interval: ${POLL_S}s }
spec:
  pullZoneId: ${pullZoneId}
${spec}`;
}

function waitSynced(name: string, status: 'True' | 'False', reason?: string): Promise<KubeJson> {
  return waitFor(
    async () => {
      const o = await policy(name);
      const c = conditionOf(o, 'Synced');
      const current = c?.observedGeneration === o?.metadata.generation;
      return current && c?.status === status && (!reason || c.reason === reason) ? o : undefined;
    },
    60_000,
    `${name} Synced=${status}${reason ? ` (${reason})` : ''}`,
  );
}

function waitReady(name: string): Promise<KubeJson> {
  return waitFor(
    async () => {
      const o = await policy(name);
      const synced = conditionOf(o, 'Synced');
      return conditionOf(o, 'Ready')?.status === 'True' &&
        synced?.status === 'True' &&
        synced.observedGeneration === o?.metadata.generation
        ? o
        : undefined;
    },
    60_000,
    `${name} Ready`,
  );
}

type Triggered = { triggeredRulesTotal?: number; triggeredRules?: Array<{ ruleId: string }> };

function triggeredOf(o: KubeJson | undefined): Triggered | undefined {
  return o?.status?.waf as Triggered | undefined;
}

test.before(async () => {
  if (!kubeconfig)
    throw new Error('KUBECONFIG is not set: run through test/cluster/with-cluster.ts');
  await applyAllCrds();
  ns = await createNamespace('shp-review');
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }], responses: e2eResponseMode() });
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
  if (ns) await kubectlRaw(['delete', SHP, '--all', '-n', ns, '--wait=false']);
  await op?.stop();
  await sim?.close();
  if (ns) {
    await deleteNamespace(ns);
    await deleteAccount(ns);
  }
});

test.serial('an id in both override lists is refused at apply time', async (t) => {
  const res = await kubectlRaw(
    ['apply', '-f', '-'],
    policyYaml(
      'both',
      1,
      '  waf: { disabledRules: ["913100"], logOnlyRules: ["930120", "913100"] }\n',
    ),
  );
  t.not(res.code, 0);
  t.regex(res.stderr, /a rule id cannot be in both disabledRules and logOnlyRules/);
  t.is(await policy('both'), undefined);
});

let reviewZone = 0;
let reviewPullZone = 0;

test.serial(
  'triggered rules appear in status; passes between reads make no extra call and no status write',
  async (t) => {
    reviewPullZone = await seedPullZone('review-e2e');
    await apply(
      policyYaml(
        'review',
        reviewPullZone,
        '  waf: { enabled: true, disabledRules: ["913100"], logOnlyRules: ["930120"] }\n',
      ),
    );
    const ready = await waitReady('review');
    reviewZone = ready.status?.shieldZoneId as number;
    await waitFor(
      async () => (await client.getShieldZone(reviewZone)).wafLogOnlyRules?.[0] === '930120',
      30_000,
      'override lists applied',
    );
    await admin('PUT', `/_sim/shield-zones/${reviewZone}/waf-rules/930100/metrics`, {
      totalTriggers: 12,
    });
    await admin('PUT', `/_sim/shield-zones/${reviewZone}/waf-rules/913110/metrics`, {
      totalTriggers: 3,
    });
    const shown = await waitFor(
      async () => {
        const o = await policy('review');
        return triggeredOf(o)?.triggeredRulesTotal === 2 ? o : undefined;
      },
      30_000,
      'triggered rules in status',
    );
    t.deepEqual(triggeredOf(shown), {
      triggeredRulesTotal: 2,
      triggeredRules: [
        { ruleId: '930100', description: 'Path traversal attack (/../)', requests: 12 },
        {
          ruleId: '913110',
          description: 'Found request header associated with security scanner',
          requests: 3,
        },
      ],
    });

    // Forced passes (annotation changes) within ~12 s: observed each time, triggered rules read
    // at most once per 5 s poll interval.
    const reads = callsOf(TRIGGERED, reviewZone).length;
    const passes = callsOf(BY_PULL_ZONE, reviewPullZone).length;
    const start = Date.now();
    for (let i = 0; i < 6; i++) {
      await patchObject(SHP, ns, 'review', {
        metadata: {
          annotations: { 'cdn.operator.io/reconcile-requested-at': new Date().toISOString() },
        },
      });
      await sleep(2_000);
    }
    const seconds = (Date.now() - start) / 1000;
    const extraReads = callsOf(TRIGGERED, reviewZone).length - reads;
    const extraPasses = callsOf(BY_PULL_ZONE, reviewPullZone).length - passes;
    t.true(extraPasses >= 6, `each forced pass observed the zone (${extraPasses} passes)`);
    t.true(
      extraReads <= Math.floor(seconds / POLL_S) + 1,
      `${extraReads} reads in ${seconds.toFixed(1)} s at a ${POLL_S} s interval`,
    );

    // Two more intervals without spec or annotation changes: reads happen, status is not written.
    const before = (await policy('review'))!;
    await sleep(2 * POLL_S * 1000 + 1_000);
    const after = (await policy('review'))!;
    t.true(callsOf(TRIGGERED, reviewZone).length > reads + extraReads, 'still read');
    t.is(after.metadata.resourceVersion, before.metadata.resourceVersion, 'no status write');
  },
);

test.serial(
  'a review made on the platform for a managed list is put back with one PATCH; Ignore is not drift',
  async (t) => {
    const patches = callsOf(ZONE_PATCH).length;
    await client.reviewTriggeredRule(reviewZone, { ruleId: '930100', action: 1 });
    t.deepEqual((await client.getShieldZone(reviewZone)).wafLogOnlyRules, ['930120', '930100']);
    await waitFor(
      async () => {
        const z = await client.getShieldZone(reviewZone);
        return z.wafLogOnlyRules?.length === 1 && z.wafLogOnlyRules[0] === '930120';
      },
      30_000,
      'log-only list restored',
    );
    await sleep(POLL_S * 1000 + 1_000);
    t.is(callsOf(ZONE_PATCH).length - patches, 1, 'one PATCH');

    // Ignore: acknowledged on the platform, nothing to restore; it leaves the status list.
    await client.reviewTriggeredRule(reviewZone, { ruleId: '913110', action: 0 });
    const cleared = await waitFor(
      async () => {
        const o = await policy('review');
        return triggeredOf(o)?.triggeredRulesTotal === 0 ? o : undefined;
      },
      30_000,
      'reviewed rules gone from status',
    );
    t.is(triggeredOf(cleared)?.triggeredRules, undefined);
    await sleep(POLL_S * 1000);
    t.is(callsOf(ZONE_PATCH).length - patches, 1, 'no PATCH for an Ignore review');
    t.like(await client.getShieldZone(reviewZone), {
      wafDisabledRules: ['913100'],
      wafLogOnlyRules: ['930120'],
    });
  },
);

test.serial(
  'an override of a rule the plan lacks is PlanNotSufficient and that list is not written',
  async (t) => {
    const patches = callsOf(ZONE_PATCH, undefined).length;
    await patchObject(SHP, ns, 'review', {
      spec: { waf: { disabledRules: ['913100', '944100'], requestHeaderLoggingEnabled: true } },
    });
    const refused = await waitSynced('review', 'False', 'PlanNotSufficient');
    t.is(
      conditionOf(refused, 'Synced')!.message,
      "cannot apply the WAF rule overrides, nothing was written for these lists: spec.waf.disabledRules: rule 944100 needs the Business plan or higher; the zone's plan is Basic",
    );
    await waitFor(
      async () => (await client.getShieldZone(reviewZone)).wafRequestHeaderLoggingEnabled === true,
      30_000,
      'the other field applied',
    );
    await sleep(POLL_S * 1000 + 1_000);
    t.deepEqual((await client.getShieldZone(reviewZone)).wafDisabledRules, ['913100']);
    t.is(callsOf(ZONE_PATCH).length - patches, 1, 'one PATCH: the other field only');

    // An unknown id: InvalidSpec, naming it.
    await patchObject(SHP, ns, 'review', {
      spec: { waf: { disabledRules: ['913100', 'no-such-rule'] } },
    });
    const unknown = await waitSynced('review', 'False', 'InvalidSpec');
    t.regex(
      conditionOf(unknown, 'Synced')!.message,
      /spec\.waf\.disabledRules: rule no-such-rule is not one of the zone's managed WAF rules/,
    );

    // The plan is raised in the spec: the list follows.
    await patchObject(SHP, ns, 'review', {
      spec: { planType: 'Business', waf: { disabledRules: ['913100', '944100'] } },
    });
    await waitReady('review');
    await waitFor(
      async () => (await client.getShieldZone(reviewZone)).wafDisabledRules?.includes('944100'),
      30_000,
      'list applied after the upgrade',
    );
    t.like(await client.getShieldZone(reviewZone), { planType: 2 });
  },
);

test.serial(
  'a Basic zone refuses bot detection: PlanNotSufficient, no write, retried at the poll interval, applied once planType is raised',
  async (t) => {
    const pullZoneId = await seedPullZone('bots-e2e');
    await apply(policyYaml('bots', pullZoneId, '  botDetection: { executionMode: Challenge }\n'));
    const refused = await waitSynced('bots', 'False', 'PlanNotSufficient');
    t.regex(
      conditionOf(refused, 'Synced')!.message,
      /^cannot apply spec\.botDetection: the zone's plan \(Basic\) does not include it: bot detection needs the Advanced plan or higher/,
    );
    const zone = refused.status?.shieldZoneId as number;
    await sleep(3 * POLL_S * 1000);
    const attempts = callsOf(BOT_PATCH, zone);
    t.true(attempts.length >= 3 && attempts.length <= 6, `${attempts.length} attempts in ~15 s`);
    t.true(
      attempts.every((c) => c.status === 403),
      'every attempt refused: no write',
    );
    // The create pass tries once right after the create (settling it), its confirming pass
    // 2 s later; from that failure on, the retries wait a poll interval.
    for (let i = 2; i < attempts.length; i++) {
      const gap = attempts[i]!.t - attempts[i - 1]!.t;
      t.true(gap >= POLL_S * 1000 * 0.8, `retried at the poll interval, not sooner (${gap} ms)`);
    }
    t.is((await client.getBotDetection(zone)).executionMode, 0);

    await patchObject(SHP, ns, 'bots', { spec: { planType: 'Advanced' } });
    await waitReady('bots');
    t.is((await client.getBotDetection(zone)).executionMode, 1);
    t.is(callsOf(BOT_PATCH, zone).filter((c) => c.status === 200).length, 1, 'one write');
  },
);

// Runs last (serial): every request of the file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
