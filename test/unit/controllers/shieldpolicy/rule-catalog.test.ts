import test from 'ava';
import type { WafRuleGroup, WafRulesByPlan } from '../../../../src/cdn/security-types.js';
import {
  MAX_CACHED_ZONES,
  WafRuleCatalog,
  type OverrideCheck,
  type RuleCatalogApi,
} from '../../../../src/controllers/shieldpolicy/rule-catalog.js';

function group(ids: string[]): WafRuleGroup[] {
  return [{ name: 'm', ruleGroups: [{ id: 1, rules: ids.map((ruleId) => ({ ruleId })) }] }];
}

interface Fake {
  api: RuleCatalogApi;
  calls: string[];
  clock: { now: number };
  catalog: WafRuleCatalog;
  /** Rule ids the zone has, per zone id (its plan may change). */
  zones: Map<number, string[]>;
}

function fake(): Fake {
  const calls: string[] = [];
  const zones = new Map<number, string[]>();
  const byPlan: WafRulesByPlan[] = [
    { planValue: 0, planName: 'Basic', rules: group(['913100']) },
    { planValue: 2, planName: 'Business', rules: group(['944100']) },
  ];
  const api: RuleCatalogApi = {
    listWafRules: (id) => {
      calls.push(`rules ${id}`);
      return Promise.resolve(group(zones.get(id) ?? []));
    },
    getWafRulesByPlan: () => {
      calls.push('plans');
      return Promise.resolve(byPlan);
    },
  };
  const clock = { now: 0 };
  return { api, calls, clock, zones, catalog: new WafRuleCatalog({ now: () => clock.now }) };
}

function check(f: Fake, zone: number, plan: string, add: string[]): OverrideCheck {
  return {
    api: f.api,
    account: 'acct',
    shieldZoneId: zone,
    plan: { name: plan, value: plan === 'Basic' ? 0 : 2 },
    desired: { wafDisabledRules: add },
    live: { wafDisabledRules: [] },
    differing: new Set(['wafDisabledRules']),
    opts: {},
  };
}

test('no call when the write adds no id, or the lists do not differ', async (t) => {
  const f = fake();
  const removal = { ...check(f, 1, 'Basic', []), live: { wafDisabledRules: ['913100'] } };
  t.deepEqual(await f.catalog.check(removal), []);
  const other = { ...check(f, 1, 'Basic', ['x']), differing: new Set(['wafEnabled']) };
  t.deepEqual(await f.catalog.check(other), []);
  t.deepEqual(f.calls, []);
});

test('the zone list is read once per zone and plan; the plans only when an id is missing', async (t) => {
  const f = fake();
  f.zones.set(1, ['913100']);
  t.deepEqual(await f.catalog.check(check(f, 1, 'Basic', ['913100'])), []);
  t.deepEqual(await f.catalog.check(check(f, 1, 'Basic', ['913100'])), []);
  t.deepEqual(f.calls, ['rules 1'], 'cached');
  const refused = await f.catalog.check(check(f, 1, 'Basic', ['944100']));
  t.like(refused[0], { ruleId: '944100', kind: 'PlanNotSufficient', plan: 'Business' });
  t.deepEqual(f.calls, ['rules 1', 'plans']);
  // The plan is raised: the list read for Basic does not answer for Business.
  f.zones.set(1, ['913100', '944100']);
  t.deepEqual(await f.catalog.check(check(f, 1, 'Business', ['944100'])), []);
  t.deepEqual(f.calls, ['rules 1', 'plans', 'rules 1']);
});

test('entries expire, are dropped when the policy goes, and stay bounded', async (t) => {
  const f = fake();
  f.zones.set(1, ['913100']);
  await f.catalog.check(check(f, 1, 'Basic', ['913100']));
  f.clock.now += 3_600_000;
  await f.catalog.check(check(f, 1, 'Basic', ['913100']));
  t.deepEqual(f.calls, ['rules 1', 'rules 1'], 'read again after an hour');
  f.catalog.forgetZone('acct', 1);
  t.is(f.catalog.cachedZones, 0);
  await f.catalog.check(check(f, 1, 'Basic', ['913100']));
  t.is(f.calls.length, 3, 'a forgotten zone is read again');
  for (let z = 2; z < MAX_CACHED_ZONES + 50; z++) {
    await f.catalog.check(check(f, z, 'Basic', ['913100']));
  }
  t.is(f.catalog.cachedZones, MAX_CACHED_ZONES);
});
