/**
 * The end-to-end flows every shield rule kind (ShieldWafRule, ShieldRateLimit) goes through, on
 * the real kube-apiserver, the real operator process and cdn-sim (strict), with two tenant
 * namespaces (tenancy/setup.ts): export of rules made outside Kubernetes -> kubectl apply -> zero
 * platform writes and `cdnctl diff` clean; create through a ShieldPolicy reference (waiting
 * first), one PATCH per change, drift restored; adoption by id (minimal PATCH, Orphan by
 * default) and by name (no write when equal); a zone whose ShieldPolicy lives in another
 * namespace and a rule another namespace manages refused with zero writes; the zone's plan
 * refusing a rule (PlanNotSufficient, no hot loop); deletion; and nothing cdn-sim rejected by
 * the official documents. Each kind's test file calls {@link defineShieldRuleTests}.
 */
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desiredConfiguration } from '../../support/shield-rule-specs.js';
import type { RuleFamily } from '../../../src/controllers/shieldrule-common/family.js';
import type { RuleRecord } from '../../../src/controllers/shieldrule-common/types.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { runCdnctl, type CdnctlResult } from '../support/cdnctl.js';
import {
  adoptShieldPolicy,
  pollingManifest,
  seedShieldZone,
  type SeededZone,
} from '../support/shield-zones.js';
import { SHIELD_POLICY_NAMES } from '../../../src/controllers/shieldpolicy/types.js';
import {
  apply,
  deleteObject,
  getObject,
  kubectl,
  waitFor,
  type KubeJson,
} from '../support/kube.js';
import {
  API_KEY,
  resetCalls,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';

const SHP = crdNameOf(SHIELD_POLICY_NAMES);

/** What differs between the kinds. */
export interface RuleKindCase {
  family: RuleFamily;
  /** A valid spec without target (action, condition, counting). */
  spec: Record<string, unknown>;
  /** Platform path of one rule, e.g. `/shield/waf/custom-rule`. */
  prefix: string;
  /** How many rules of the kind a Basic zone allows. */
  basicAllows: number;
}

/** Runs the real cdnctl against the simulator. */
function cdnctl(env: TenancyEnv, args: string[]): Promise<CdnctlResult> {
  return runCdnctl(env.sim.url, API_KEY, args);
}

/** Defines the flows for one kind (see the module comment). */
export function defineShieldRuleTests(k: RuleKindCase): void {
  const { family } = k;
  const KIND = family.names.kind;
  const RES = crdNameOf(family.names);
  let env: TenancyEnv;
  let zoneCount = 0;

  test.before(async () => {
    env = await startTenancyEnv();
  });

  test.after.always(async () => {
    await env?.stop();
  });

  /** A pull zone with a shield zone on `planType`, made outside Kubernetes. */
  function seedZone(planType: number): Promise<SeededZone> {
    return seedShieldZone(env.sim, `e2e-${KIND.toLowerCase()}-${++zoneCount}`, planType);
  }

  const manifest = pollingManifest;

  const api = (): ReturnType<RuleFamily['api']> => family.api(env.cdn);

  async function liveRule(id: number): Promise<RuleRecord> {
    return api().get(id);
  }

  async function writeRoutes(): Promise<string[]> {
    return (await simWrites(env.sim)).map((c) => c.route);
  }

  const policy = adoptShieldPolicy;

  let teamAZone: SeededZone | undefined;
  /** Team-a's zone (Enterprise plan) with its ShieldPolicy `pol`. */
  async function teamA(): Promise<SeededZone> {
    if (teamAZone) return teamAZone;
    const zone = await seedZone(3);
    const recorded = await policy(env.teamA, 'pol', zone.pullZoneId);
    if (recorded !== zone.shieldZoneId) throw new Error(`policy zone ${recorded}`);
    teamAZone = zone;
    return zone;
  }

  test.serial(
    `${KIND}: rules made outside, exported, applied: Ready with zero writes; diff clean`,
    async (t) => {
      t.timeout(5 * 60_000);
      const zone = await seedZone(3);
      const a = await api().create({
        shieldZoneId: zone.shieldZoneId,
        ruleName: 'Outside One',
        ruleDescription: 'made on the dashboard',
        ruleConfiguration: {
          ...desiredConfig(k),
          severityType: 2,
          transformationTypes: [8, 19],
          isNegated: true,
          chainedRuleConditions: [
            { variableTypes: { REQUEST_METHOD: '' }, operatorType: 15, value: 'POST' },
          ],
        },
      });
      const b = await api().create({
        shieldZoneId: zone.shieldZoneId,
        ruleName: 'outside-two',
        ruleConfiguration: desiredConfig(k),
      });
      const dir = mkdtempSync(join(tmpdir(), `export-${KIND.toLowerCase()}-`));
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      const out = await cdnctl(env, [
        'export',
        '-n',
        env.teamA,
        '--kinds',
        `ShieldPolicy,${KIND}`,
        '-o',
        dir,
      ]);
      t.is(out.code, 0, out.stderr);
      t.true(readdirSync(dir).some((f) => f.endsWith('.yaml')));
      await resetCalls(env.sim);
      await kubectl(['apply', '-f', dir]);
      for (const id of [a.id, b.id]) {
        await waitFor(
          async () => {
            const list = JSON.parse(await kubectl(['get', RES, '-n', env.teamA, '-o', 'json'])) as {
              items: KubeJson[];
            };
            const obj = list.items.find((o) => o.status?.ruleId === id);
            return obj?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
              ? obj
              : undefined;
          },
          60_000,
          `${KIND} with ruleId ${id} Ready`,
        );
      }
      const list = JSON.parse(await kubectl(['get', RES, '-n', env.teamA, '-o', 'json'])) as {
        items: KubeJson[];
      };
      const first = list.items.find((o) => o.status?.ruleId === a.id);
      t.like(first?.spec, {
        name: 'Outside One',
        severity: 'Critical',
        negated: true,
        transformations: ['Lowercase', 'URLDecode'],
      });
      t.truthy(
        (first?.spec as { shieldPolicyRef?: unknown }).shieldPolicyRef,
        'names the exported policy',
      );
      await settle(6000); // one more poll interval: still nothing to write
      t.deepEqual(await writeRoutes(), [], 'zero platform writes after applying the export');
      const diff = await cdnctl(env, ['diff', '-f', dir]);
      t.is(diff.code, 0, `${diff.stdout}\n${diff.stderr}`);
      // The exported objects orphan their rules: delete them, the rules stay.
      await kubectl(['delete', RES, '--all', '-n', env.teamA, '--wait=true', '--timeout=60s']);
      await kubectl(['delete', SHP, '--all', '-n', env.teamA, '--wait=true', '--timeout=60s']);
      t.is((await api().list(zone.shieldZoneId)).length, 2);
    },
  );

  test.serial(
    `${KIND}: waits for its ShieldPolicy, creates once, one PATCH per change, drift restored, deleted`,
    async (t) => {
      const ns = env.teamA;
      await apply(
        manifest(KIND, ns, 'r1', {
          ...k.spec,
          shieldPolicyRef: { name: 'pol' },
          description: 'one',
        }),
      );
      await waitCondition(RES, ns, 'r1', 'Ready', 'False', 'ReferenceNotReady');
      await resetCalls(env.sim);
      // The policy adopts its zone without a write; the rule is created once it has the zone.
      const zone = await teamA();
      const obj = await waitCondition(RES, ns, 'r1', 'Ready', 'True');
      const id = Number(obj.status?.ruleId);
      t.is(obj.status?.shieldZoneId, zone.shieldZoneId);
      // The create goes out under the provisional name; the same pass renames it (docs/kit.md).
      t.deepEqual(await writeRoutes(), [`POST ${k.prefix}`, `PATCH ${k.prefix}/{id}`]);
      t.like(await liveRule(id), {
        ruleName: 'r1',
        ruleDescription: 'one',
        shieldZoneId: zone.shieldZoneId,
      });

      await resetCalls(env.sim);
      await apply(
        manifest(KIND, ns, 'r1', {
          ...k.spec,
          shieldPolicyRef: { name: 'pol' },
          description: 'two',
        }),
      );
      await waitFor(
        async () => (await liveRule(id)).ruleDescription === 'two',
        30_000,
        'description',
      );
      await waitCondition(RES, ns, 'r1', 'Synced', 'True');
      await settle(1000);
      t.deepEqual(await writeRoutes(), [`PATCH ${k.prefix}/{id}`]);

      // Drift on the platform: renamed and its value changed; restored at the next poll.
      const live = await liveRule(id);
      await api().update(id, {
        ruleName: 'hijacked',
        ruleConfiguration: { ...live.ruleConfiguration, value: '/elsewhere' },
      });
      await waitFor(
        async () => {
          const now = await liveRule(id);
          return now.ruleName === 'r1' && now.ruleConfiguration?.value === k.spec.value;
        },
        30_000,
        'drift restored',
      );
      await resetCalls(env.sim);
      await deleteObject(RES, ns, 'r1');
      await waitGone(RES, ns, 'r1');
      t.deepEqual(await writeRoutes(), [`DELETE ${k.prefix}/{id}`]);
      await t.throwsAsync(liveRule(id));
    },
  );

  test.serial(
    `${KIND}: adoption by id (minimal PATCH, Orphan) and by name (no write when equal)`,
    async (t) => {
      const ns = env.teamA;
      const zone = await teamA();
      const byId = await api().create({
        shieldZoneId: zone.shieldZoneId,
        ruleName: 'ext-id',
        ruleConfiguration: desiredConfig(k),
      });
      const byName = await api().create({
        shieldZoneId: zone.shieldZoneId,
        ruleName: 'Ext-Name',
        ruleConfiguration: desiredConfig(k),
      });
      await resetCalls(env.sim);
      await apply(
        manifest(KIND, ns, 'adopt-id', {
          ...k.spec,
          shieldZoneId: zone.shieldZoneId,
          adoption: { policy: 'ById', id: byId.id },
          description: 'adopted',
        }),
      );
      await apply(
        manifest(KIND, ns, 'adopt-name', {
          ...k.spec,
          shieldPolicyRef: { name: 'pol' },
          name: 'Ext-Name',
          adoption: { policy: 'ByName' },
        }),
      );
      const a = await waitCondition(RES, ns, 'adopt-id', 'Ready', 'True');
      const b = await waitCondition(RES, ns, 'adopt-name', 'Ready', 'True');
      t.is(a.status?.ruleId, byId.id);
      t.is(b.status?.ruleId, byName.id);
      t.like(a.status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
      t.like(await liveRule(Number(byId.id)), { ruleName: 'ext-id', ruleDescription: 'adopted' });
      await settle(1000);
      t.deepEqual(
        await writeRoutes(),
        [`PATCH ${k.prefix}/{id}`],
        'one PATCH (the description) and nothing for the equal rule',
      );

      await deleteObject(RES, ns, 'adopt-id');
      await deleteObject(RES, ns, 'adopt-name');
      await waitGone(RES, ns, 'adopt-id');
      await waitGone(RES, ns, 'adopt-name');
      t.truthy(await liveRule(Number(byId.id)), 'an adopted rule is orphaned by default');
      t.truthy(await liveRule(Number(byName.id)));
    },
  );

  test.serial(
    `${KIND}: another namespace cannot use team-a's zone by id, nor take team-a's rule: zero writes`,
    async (t) => {
      const zone = await teamA();
      await apply(
        manifest(KIND, env.teamA, 'owned', { ...k.spec, shieldPolicyRef: { name: 'pol' } }),
      );
      const owned = await waitCondition(RES, env.teamA, 'owned', 'Ready', 'True');
      const other = await seedZone(3);
      await settle(1000);
      await resetCalls(env.sim);
      await apply(
        manifest(KIND, env.teamB, 'thief-zone', { ...k.spec, shieldZoneId: zone.shieldZoneId }),
      );
      await apply(
        manifest(KIND, env.teamB, 'thief-rule', {
          ...k.spec,
          shieldZoneId: other.shieldZoneId,
          adoption: { policy: 'ById', id: owned.status?.ruleId },
        }),
      );
      const z = await waitCondition(
        RES,
        env.teamB,
        'thief-zone',
        'Synced',
        'False',
        'ReferenceNotAllowed',
      );
      const msg = JSON.stringify(z.status?.conditions);
      t.true(msg.includes('spec.shieldZoneId') && msg.includes(`namespace ${env.teamA}`), msg);
      await waitCondition(RES, env.teamB, 'thief-rule', 'Synced', 'False', 'AlreadyManaged');
      await settle(3000);
      t.deepEqual(await simWrites(env.sim), [], 'nothing sent for either');
      t.is(
        (await api().list(zone.shieldZoneId)).filter((r) => r.ruleName === 'thief-zone').length,
        0,
      );
      for (const name of ['thief-zone', 'thief-rule']) await deleteObject(RES, env.teamB, name);
      await deleteObject(RES, env.teamA, 'owned');
      await waitGone(RES, env.teamA, 'owned');
      t.truthy(await getObject(SHP, env.teamA, 'pol'));
    },
  );

  test.serial(
    `${KIND}: a rule the zone's plan does not allow: PlanNotSufficient, no hot loop`,
    async (t) => {
      const basic = await seedZone(0);
      const ns = env.teamA;
      const names = Array.from({ length: k.basicAllows + 1 }, (_, i) => `basic-${i}`);
      for (const name of names.slice(0, -1)) {
        await apply(manifest(KIND, ns, name, { ...k.spec, shieldZoneId: basic.shieldZoneId }));
        await waitCondition(RES, ns, name, 'Ready', 'True');
      }
      await resetCalls(env.sim);
      const last = names.at(-1)!;
      await apply(manifest(KIND, ns, last, { ...k.spec, shieldZoneId: basic.shieldZoneId }));
      const obj = await waitCondition(RES, ns, last, 'Synced', 'False', 'PlanNotSufficient');
      t.regex(JSON.stringify(obj.status?.conditions), new RegExp(family.limitField));
      await settle(8000);
      t.deepEqual(
        await writeRoutes(),
        [`POST ${k.prefix}`],
        'one refused create, not retried in a loop',
      );
      for (const name of names) await deleteObject(RES, ns, name);
      for (const name of names) await waitGone(RES, ns, name);
    },
  );

  test.serial(`${KIND}: nothing was rejected by the official documents`, (t) => {
    const rejected = env.sim.calls.snapshot().rejectedByDocument;
    t.is(rejected.count, 0, JSON.stringify(rejected));
  });
}

/** The wire configuration of the kind's spec (what a create from it sends). */
function desiredConfig(k: RuleKindCase): Record<string, unknown> {
  return desiredConfiguration(k.family.members, k.spec);
}
