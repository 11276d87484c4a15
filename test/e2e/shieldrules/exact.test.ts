/**
 * `ShieldPolicy.spec.rulePolicy` end to end, on the real kube-apiserver, the real operator
 * process and cdn-sim (strict): on a zone with one ShieldWafRule, one ShieldRateLimit and one
 * ShieldAccessList object and one custom WAF rule, rate limit and custom list made directly on
 * the platform, `Additive` deletes nothing over forced passes; `Exact` deletes exactly the three
 * unmanaged items (three DELETEs, an Event each, status.deletedRules), never a curated list, and
 * writes nothing over further passes; rule objects of each kind created back to back while the
 * policy is forced to pass are never deleted; a rule whose create was committed but never
 * answered is kept, by the name its object claims, for as long as the object has no id (this one
 * fails when the name claim is left out); and cdn-sim rejected nothing by the documents.
 */
import test from 'ava';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { SHIELD_ACCESS_LIST_NAMES } from '../../../src/controllers/shieldaccesslist/types.js';
import { SHIELD_POLICY_NAMES } from '../../../src/controllers/shieldpolicy/types.js';
import { SHIELD_RATE_LIMIT_NAMES } from '../../../src/controllers/shieldratelimit/types.js';
import { SHIELD_WAF_RULE_NAMES } from '../../../src/controllers/shieldwafrule/types.js';
import { desiredConfiguration } from '../../../src/controllers/shieldrule-common/configuration.js';
import { RATE_LIMIT_FAMILY } from '../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../src/controllers/shieldwafrule/family.js';
import { RATE_SPEC, WAF_SPEC } from '../../support/shield-rule-specs.js';
import { apply, getObject, kubectl, patchObject, waitFor, type KubeJson } from '../support/kube.js';
import {
  pollingManifest,
  seedShieldZone,
  simAdmin,
  type SeededZone,
} from '../support/shield-zones.js';
import {
  resetCalls as clearCallLog,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  type TenancyEnv,
} from '../tenancy/setup.js';

const SHP = crdNameOf(SHIELD_POLICY_NAMES);
const KINDS = [
  { names: SHIELD_WAF_RULE_NAMES, spec: WAF_SPEC },
  { names: SHIELD_RATE_LIMIT_NAMES, spec: RATE_SPEC },
  {
    names: SHIELD_ACCESS_LIST_NAMES,
    spec: { type: 'IP', entries: ['192.0.2.10'], action: 'Block' } as Record<string, unknown>,
  },
];
const DELETE_ROUTES = [
  'DELETE /shield/waf/custom-rule/{id}',
  'DELETE /shield/rate-limit/{id}',
  'DELETE /shield/shield-zone/{shieldZoneId}/access-lists/{id}',
];

let env: TenancyEnv;
let zone: SeededZone;
/** Document rejections of call logs cleared so far (the last test counts the whole file). */
const rejectedEarlier = { count: 0, log: [] as unknown[] };

/** Clears cdn-sim's call log, keeping what it rejected for the last test. */
async function resetCalls(sim: TenancyEnv['sim']): Promise<void> {
  const { count, log } = sim.calls.snapshot().rejectedByDocument;
  rejectedEarlier.count += count;
  rejectedEarlier.log.push(...log);
  await clearCallLog(sim);
}

test.before(async () => {
  env = await startTenancyEnv();
  zone = await seedShieldZone(env.sim, 'e2e-exact-rules', 3);
});

test.after.always(async () => {
  await env?.stop();
});

/** Applies the policy `pol` (adopting the zone, Orphan) with this rule policy. */
async function applyPolicy(rulePolicy: 'Additive' | 'Exact'): Promise<void> {
  await apply(
    pollingManifest('ShieldPolicy', env.teamA, 'pol', {
      pullZoneId: zone.pullZoneId,
      deletionPolicy: 'Orphan',
      rulePolicy,
    }),
  );
}

let forced = 0;
/** Asks the operator for one more pass over the policy now. */
async function forcePass(): Promise<void> {
  await patchObject(SHP, env.teamA, 'pol', {
    metadata: { annotations: { 'cdn.operator.io/reconcile-requested-at': `pass-${++forced}` } },
  });
}

/** Applies one object of each kind named `<prefix>-<kind>` on the policy. */
async function applyRuleObjects(prefix: string): Promise<Array<[string, string]>> {
  const made: Array<[string, string]> = [];
  for (const k of KINDS) {
    const name = `${prefix}-${k.names.kind.toLowerCase()}`;
    await apply(
      pollingManifest(k.names.kind, env.teamA, name, {
        ...k.spec,
        shieldPolicyRef: { name: 'pol' },
      }),
    );
    made.push([crdNameOf(k.names), name]);
  }
  return made;
}

/** The platform ids of the objects once each is Ready. */
async function readyIds(objects: Array<[string, string]>): Promise<number[]> {
  const ids: number[] = [];
  for (const [res, name] of objects) {
    const obj = await waitCondition(res, env.teamA, name, 'Ready', 'True');
    ids.push(Number(obj.status?.ruleId ?? obj.status?.listId));
  }
  return ids;
}

interface Live {
  waf: number[];
  rate: number[];
  custom: number[];
  curated: number;
}

async function live(): Promise<Live> {
  const c = env.cdn;
  const overview = await c.listAccessLists(zone.shieldZoneId);
  return {
    waf: (await c.listCustomWafRules(zone.shieldZoneId)).map((r) => Number(r.id)),
    rate: (await c.listRateLimits(zone.shieldZoneId)).map((r) => Number(r.id)),
    custom: (overview.customLists ?? []).map((l) => l.listId),
    curated: (overview.managedLists ?? []).length,
  };
}

const allIds = (l: Live): number[] => [...l.waf, ...l.rate, ...l.custom];

/** Platform DELETEs logged since the last reset, by route. */
async function deletes(): Promise<string[]> {
  return (await simWrites(env.sim)).filter((c) => c.method === 'DELETE').map((c) => c.route);
}

async function seedStrays(): Promise<number[]> {
  const z = zone.shieldZoneId;
  const waf = await env.cdn.createCustomWafRule({
    shieldZoneId: z,
    ruleName: 'stray-waf',
    ruleConfiguration: desiredConfiguration(WAF_RULE_FAMILY.members, WAF_SPEC),
  });
  const rate = await env.cdn.createRateLimit({
    shieldZoneId: z,
    ruleName: 'stray-rate',
    ruleConfiguration: desiredConfiguration(RATE_LIMIT_FAMILY.members, RATE_SPEC),
  });
  const list = await env.cdn.createCustomAccessList(z, {
    name: 'stray-list',
    type: 0,
    content: '192.0.2.99',
  });
  return [Number(waf.id), Number(rate.id), Number(list.id)];
}

let managedIds: number[] = [];
let strayIds: number[] = [];

test.serial('Additive: nothing is deleted over forced passes', async (t) => {
  strayIds = await seedStrays();
  await applyPolicy('Additive');
  await waitCondition(SHP, env.teamA, 'pol', 'Ready', 'True');
  managedIds = await readyIds(await applyRuleObjects('managed'));
  await resetCalls(env.sim);
  for (let i = 0; i < 3; i++) {
    await forcePass();
    await settle(1000);
  }
  t.deepEqual(await deletes(), []);
  const now = allIds(await live());
  for (const id of [...managedIds, ...strayIds]) t.true(now.includes(id), `item ${id} kept`);
});

test.serial(
  'Exact: exactly the unmanaged rule, rate limit and list are deleted; then nothing is written',
  async (t) => {
    const curatedBefore = (await live()).curated;
    await resetCalls(env.sim);
    await applyPolicy('Exact');
    await waitFor(
      async () => {
        const now = allIds(await live());
        return strayIds.every((id) => !now.includes(id));
      },
      30_000,
      'the unmanaged items deleted',
    );
    await settle(1500);
    t.deepEqual(
      (await deletes()).sort(),
      [...DELETE_ROUTES].sort(),
      'one DELETE per unmanaged item',
    );
    const after = await live();
    t.deepEqual(allIds(after).sort(), [...managedIds].sort(), 'the managed items stay');
    t.is(after.curated, curatedBefore, 'curated lists untouched');
    const pol = await waitCondition(SHP, env.teamA, 'pol', 'Ready', 'True');
    t.is(
      (pol.status?.conditions ?? []).find((c) => c.type === 'Synced')?.status,
      'True',
      JSON.stringify(pol.status?.conditions),
    );
    const shown = (pol.status?.deletedRules ?? []) as Array<{ id: number; type: string }>;
    t.deepEqual(shown.map((d) => d.id).sort(), [...strayIds].sort());
    const events = JSON.parse(await kubectl(['get', 'events', '-n', env.teamA, '-o', 'json'])) as {
      items: Array<{ reason: string; message: string; involvedObject: { name: string } }>;
    };
    const deleted = events.items.filter(
      (e) => e.reason === 'DeletedUnmanagedRule' && e.involvedObject.name === 'pol',
    );
    t.is(deleted.length, 3, JSON.stringify(deleted.map((e) => e.message)));
    for (const id of strayIds)
      t.true(
        deleted.some((e) => e.message.includes(` ${id} `)),
        `${id}`,
      );

    await resetCalls(env.sim);
    for (let i = 0; i < 3; i++) {
      await forcePass();
      await settle(1200);
    }
    t.deepEqual(await simWrites(env.sim), [], 'no write once Exact holds');
  },
);

test.serial(
  'Exact: rule objects created back to back while the policy is forced to pass are never deleted',
  async (t) => {
    t.timeout(4 * 60_000);
    // (The window between a create's answer and its recorded id is too short to hit from
    // outside reliably; the next test holds it open.)
    await resetCalls(env.sim);
    const burst: Array<[string, string]> = [];
    for (const prefix of ['b1', 'b2']) burst.push(...(await applyRuleObjects(prefix)));
    const ready = readyIds(burst);
    let done = false;
    void ready.then(
      () => (done = true),
      () => (done = true),
    );
    while (!done) {
      await forcePass();
      await settle(200);
    }
    const ids = await ready;
    for (let i = 0; i < 3; i++) {
      await forcePass();
      await settle(1000);
    }
    t.deepEqual(await deletes(), [], 'an item being created was deleted by the Exact policy');
    const now = allIds(await live());
    for (const id of [...managedIds, ...ids]) t.true(now.includes(id), `item ${id} kept`);
    t.is(now.length, managedIds.length + ids.length);
    for (const [res, name] of burst) {
      const obj: KubeJson = await waitCondition(res, env.teamA, name, 'Synced', 'True');
      t.truthy(obj.status?.ruleId ?? obj.status?.listId, name);
    }
  },
);

test.serial(
  'Exact: a rule whose create answer was lost is never deleted while its object has no id',
  async (t) => {
    t.timeout(3 * 60_000);
    const RES = crdNameOf(SHIELD_WAF_RULE_NAMES);
    // The platform holds the create 3 s, commits it and drops the connection. The object is
    // paused while its create is held, so its id stays unrecorded (no lookup) for as long as
    // the test wants: only the name it claims keeps the Exact policy from taking the rule for
    // unmanaged, and the policy is made to pass meanwhile. (Without the pause the window
    // between a create and its recorded id is too short to hit from outside.)
    const route = 'POST /shield/waf/custom-rule';
    await simAdmin(env.sim, 'PUT', '/_sim/faults', {
      slowCommit: { routes: [route], delayMs: 3000 },
      commitThenDropRate: 1,
      errorRoutes: [route],
    });
    await resetCalls(env.sim);
    await apply(
      pollingManifest('ShieldWafRule', env.teamA, 'lost', {
        ...WAF_SPEC,
        shieldPolicyRef: { name: 'pol' },
      }),
    );
    // The finalizer goes on in the write just before the create is sent.
    await waitFor(
      async () => (await getObject(RES, env.teamA, 'lost'))?.metadata.finalizers?.length,
      30_000,
      'the create under way',
      50,
    );
    await patchObject(RES, env.teamA, 'lost', {
      metadata: { annotations: { 'cdn.operator.io/paused': 'true' } },
    });
    // The create goes out under the object's provisional name (docs/kit.md).
    const made = await waitFor(
      async () =>
        (await env.cdn.listCustomWafRules(zone.shieldZoneId)).find((r) =>
          /^cdnop-[0-9a-f]{16}$/.test(String(r.ruleName)),
        ),
      30_000,
      'the create committed',
      100,
    );
    await simAdmin(env.sim, 'PUT', '/_sim/faults', {});
    await waitCondition(RES, env.teamA, 'lost', 'Synced', 'False', 'ReconcilePaused');
    for (let i = 0; i < 3; i++) {
      await forcePass();
      await settle(1000);
    }
    const alive = (await env.cdn.listCustomWafRules(zone.shieldZoneId)).map((r) => r.id);
    t.true(alive.includes(made.id), 'the rule whose id is not recorded is kept');
    t.is((await getObject(RES, env.teamA, 'lost'))?.status?.ruleId, undefined, 'no id yet');
    await patchObject(RES, env.teamA, 'lost', {
      metadata: { annotations: { 'cdn.operator.io/paused': 'false' } },
    });
    const obj = await waitCondition(RES, env.teamA, 'lost', 'Ready', 'True');
    t.is(Number(obj.status?.ruleId), Number(made.id), 'the object found its own rule');
    await settle(1000);
    const writes = (await simWrites(env.sim)).map((c) => c.route);
    t.deepEqual(
      writes,
      [route, 'PATCH /shield/waf/custom-rule/{id}'],
      'one create and its rename, no DELETE',
    );
  },
);

// Runs last (serial): every request of this file.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const now = env.sim.calls.snapshot().rejectedByDocument;
  const log = JSON.stringify([...rejectedEarlier.log, ...now.log]);
  t.is(rejectedEarlier.count + now.count, 0, log);
});
