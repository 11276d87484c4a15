import test from 'ava';
import type { WafRuleGroup, WafRulesByPlan } from '../../../../src/cdn/security-types.js';
import { classifyShieldError } from '../../../../src/controllers/shieldpolicy/index.js';
import type { WireZone } from '../../../../src/controllers/shieldpolicy/mapping.js';
import {
  addedIds,
  missingRuleProblems,
  overlapProblems,
  overridesReason,
  RuleOverrideError,
  rulePlans,
  zoneRuleIds,
  type OverrideProblem,
} from '../../../../src/controllers/shieldpolicy/rule-overrides.js';

function groups(...ids: string[][]): WafRuleGroup[] {
  return [
    {
      name: 'OWASP',
      ruleGroups: ids.map((rules, i) => ({
        id: i,
        rules: rules.map((ruleId) => ({ ruleId, description: `rule ${ruleId}` })),
      })),
    },
  ];
}

const BY_PLAN: WafRulesByPlan[] = [
  { planValue: 0, planName: 'Basic', rules: groups(['913100', '930100']) },
  { planValue: 1, planName: 'Advanced', rules: groups(['941100'], ['942100']) },
  // Listed again under a higher plan: the lowest plan wins.
  { planValue: 2, planName: 'Business', rules: groups(['944100', '941100']) },
  { planValue: 3, planName: 'Enterprise', rules: null },
];

test('zoneRuleIds: every rule id of every group, empty and missing ids left out', (t) => {
  const answer: WafRuleGroup[] = [
    ...groups(['913100', '930100'], ['941100']),
    { name: 'other', ruleGroups: [{ id: 9, rules: [{ ruleId: '' }, { ruleId: null }] }] },
    { name: 'empty', ruleGroups: null },
  ];
  t.deepEqual([...zoneRuleIds(answer)].sort(), ['913100', '930100', '941100']);
});

test('rulePlans: the lowest plan that lists a rule', (t) => {
  const plans = rulePlans(BY_PLAN);
  t.deepEqual(plans.get('913100'), { value: 0, name: 'Basic' });
  t.deepEqual(plans.get('941100'), { value: 1, name: 'Advanced' });
  t.deepEqual(plans.get('944100'), { value: 2, name: 'Business' });
  t.is(plans.get('999999'), undefined);
});

const ADDED_CASES: Array<{
  why: string;
  desired: WireZone;
  live: WireZone;
  differing: string[];
  expected: Record<string, string[]>;
}> = [
  {
    why: 'only ids the write adds',
    desired: { wafDisabledRules: ['913100', '941100'] },
    live: { wafDisabledRules: ['913100'] },
    differing: ['wafDisabledRules'],
    expected: { wafDisabledRules: ['941100'] },
  },
  {
    why: 'a removal adds nothing',
    desired: { wafLogOnlyRules: [] },
    live: { wafLogOnlyRules: ['944100'] },
    differing: ['wafLogOnlyRules'],
    expected: {},
  },
  {
    why: 'a list that does not differ is not checked',
    desired: { wafDisabledRules: ['bogus'], wafLogOnlyRules: ['930100'] },
    live: { wafDisabledRules: ['bogus'] },
    differing: ['wafLogOnlyRules'],
    expected: { wafLogOnlyRules: ['930100'] },
  },
  {
    why: 'duplicates count once; a live list that is absent is empty',
    desired: { wafDisabledRules: ['930100', '930100'] },
    live: {},
    differing: ['wafDisabledRules'],
    expected: { wafDisabledRules: ['930100'] },
  },
  {
    why: 'an unmanaged list is never checked',
    desired: {},
    live: {},
    differing: ['wafDisabledRules'],
    expected: {},
  },
];

for (const c of ADDED_CASES) {
  test(`addedIds: ${c.why}`, (t) => {
    t.deepEqual(Object.fromEntries(addedIds(c.desired, c.live, new Set(c.differing))), c.expected);
  });
}

const BASIC_ZONE = new Set(['913100', '930100']);

const MISSING_CASES: Array<{
  why: string;
  added: Record<string, string[]>;
  zonePlan?: number;
  expected: Array<Partial<OverrideProblem>>;
}> = [
  {
    why: 'a rule of the zone is fine',
    added: { wafDisabledRules: ['913100'] },
    zonePlan: 0,
    expected: [],
  },
  {
    why: 'a rule of a higher plan names that plan',
    added: { wafDisabledRules: ['944100'], wafLogOnlyRules: ['941100'] },
    zonePlan: 0,
    expected: [
      { field: 'wafDisabledRules', ruleId: '944100', kind: 'PlanNotSufficient', plan: 'Business' },
      { field: 'wafLogOnlyRules', ruleId: '941100', kind: 'PlanNotSufficient', plan: 'Advanced' },
    ],
  },
  {
    why: 'an id no plan has is unknown',
    added: { wafLogOnlyRules: ['999999'] },
    zonePlan: 0,
    expected: [{ field: 'wafLogOnlyRules', ruleId: '999999', kind: 'UnknownRule' }],
  },
  {
    why: 'a plan not above the zone cannot explain a missing rule: unknown',
    added: { wafDisabledRules: ['941100'] },
    zonePlan: 1,
    expected: [{ field: 'wafDisabledRules', ruleId: '941100', kind: 'UnknownRule' }],
  },
  {
    why: 'an unknown zone plan: any plan that has the rule is named',
    added: { wafDisabledRules: ['941100'] },
    expected: [{ ruleId: '941100', kind: 'PlanNotSufficient', plan: 'Advanced' }],
  },
];

for (const c of MISSING_CASES) {
  test(`missingRuleProblems: ${c.why}`, (t) => {
    const added = new Map(Object.entries(c.added)) as Parameters<typeof missingRuleProblems>[0];
    const got = missingRuleProblems(added, BASIC_ZONE, rulePlans(BY_PLAN), c.zonePlan);
    t.is(got.length, c.expected.length, JSON.stringify(got));
    c.expected.forEach((e, i) => t.like(got[i], e));
  });
}

test('overlapProblems: an id in both lists is refused for both fields', (t) => {
  const got = overlapProblems({
    wafDisabledRules: ['913100', '930100'],
    wafLogOnlyRules: ['930100', '941100'],
  });
  t.deepEqual(
    got.map((p) => [p.field, p.ruleId, p.kind]),
    [
      ['wafDisabledRules', '930100', 'InBothLists'],
      ['wafLogOnlyRules', '930100', 'InBothLists'],
    ],
  );
  t.deepEqual(overlapProblems({ wafDisabledRules: ['1'], wafLogOnlyRules: ['2'] }), []);
  t.deepEqual(overlapProblems({ wafDisabledRules: ['1'] }), []);
});

test('RuleOverrideError: names field, rule and plan; reason PlanNotSufficient only when all are', (t) => {
  const plan: OverrideProblem = {
    field: 'wafDisabledRules',
    specPath: 'waf.disabledRules',
    ruleId: '944100',
    kind: 'PlanNotSufficient',
    plan: 'Business',
  };
  const unknown: OverrideProblem = {
    field: 'wafLogOnlyRules',
    specPath: 'waf.logOnlyRules',
    ruleId: '999999',
    kind: 'UnknownRule',
  };
  const onlyPlan = new RuleOverrideError([plan], 'Basic', 600_000);
  t.is(onlyPlan.reason, 'PlanNotSufficient');
  t.is(
    onlyPlan.message,
    "cannot apply the WAF rule overrides, nothing was written for these lists: spec.waf.disabledRules: rule 944100 needs the Business plan or higher; the zone's plan is Basic",
  );
  t.like(classifyShieldError(onlyPlan), {
    class: 'retryable',
    reason: 'PlanNotSufficient',
    retryAfterMs: 600_000,
  });
  const mixed = new RuleOverrideError([plan, unknown], 'Basic', undefined);
  t.is(mixed.reason, 'InvalidSpec');
  t.regex(
    mixed.message,
    /spec\.waf\.logOnlyRules: rule 999999 is not one of the zone's managed WAF rules/,
  );
  const classified = classifyShieldError(mixed);
  t.like(classified, { class: 'retryable', reason: 'InvalidSpec' });
  t.false('retryAfterMs' in classified, 'after a plan change: the normal backoff');
  const both = new RuleOverrideError(
    overlapProblems({ wafDisabledRules: ['1'], wafLogOnlyRules: ['1'] }),
    'Basic',
  );
  t.is(both.reason, 'InvalidSpec');
  t.regex(both.message, /spec\.waf\.disabledRules and spec\.waf\.logOnlyRules: rule 1 is in both/);
  t.is(both.message.match(/rule 1/g)?.length, 1, 'said once');
  t.is(overridesReason([]), 'PlanNotSufficient');
});
