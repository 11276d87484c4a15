import test from 'ava';
import {
  checkPlanLimits,
  describeViolations,
  PlanLimitError,
} from '../../../../src/controllers/shieldpolicy/plan-limits.js';
import type { WireZone } from '../../../../src/controllers/shieldpolicy/mapping.js';

const CASES: Array<{
  why: string;
  desired: WireZone;
  live: WireZone;
  fields?: Set<string>;
  expected: Array<{ field: string; required: number; allowed: number }>;
}> = [
  {
    why: 'Basic plan (limit 0) with one custom rule exceeds',
    desired: { wafCustomRuleOrder: [5] },
    live: { customWafRulesLimit: 0 },
    expected: [{ field: 'wafCustomRuleOrder', required: 1, allowed: 0 }],
  },
  {
    why: 'as many rules as the limit is fine',
    desired: { wafCustomRuleOrder: [1, 2, 3] },
    live: { customWafRulesLimit: 3 },
    expected: [],
  },
  {
    why: 'one more than the limit exceeds',
    desired: { wafCustomRuleOrder: [1, 2, 3, 4] },
    live: { customWafRulesLimit: 3 },
    expected: [{ field: 'wafCustomRuleOrder', required: 4, allowed: 3 }],
  },
  {
    why: 'duplicate ids count once',
    desired: { wafCustomRuleOrder: [1, 1, 2] },
    live: { customWafRulesLimit: 2 },
    expected: [],
  },
  {
    why: 'an empty order never exceeds',
    desired: { wafCustomRuleOrder: [] },
    live: { customWafRulesLimit: 0 },
    expected: [],
  },
  {
    why: 'an unmanaged field is not checked',
    desired: { wafEnabled: true },
    live: { customWafRulesLimit: 0 },
    expected: [],
  },
  {
    why: 'an unknown limit is not enforced',
    desired: { wafCustomRuleOrder: [1, 2] },
    live: {},
    expected: [],
  },
  {
    why: 'rate-limit rules limit does not constrain any managed field',
    desired: { wafCustomRuleOrder: [1], wafDisabledRules: ['a', 'b', 'c'] },
    live: { customWafRulesLimit: 5, rateLimitRulesLimit: 0 },
    expected: [],
  },
  {
    why: 'only the fields being written are checked (already-live value is left alone)',
    desired: { wafCustomRuleOrder: [1, 2] },
    live: { customWafRulesLimit: 0 },
    fields: new Set(['wafEnabled']),
    expected: [],
  },
];

for (const c of CASES) {
  test(`checkPlanLimits: ${c.why}`, (t) => {
    const got = checkPlanLimits(c.desired, c.live, c.fields).map(
      ({ field, required, allowed }) => ({
        field,
        required,
        allowed,
      }),
    );
    t.deepEqual(got, c.expected);
  });
}

test('the message names the spec path, both numbers, the limit and the plan', (t) => {
  const v = checkPlanLimits({ wafCustomRuleOrder: [1, 2, 3] }, { customWafRulesLimit: 1 });
  t.is(
    describeViolations(v, 'Basic'),
    "spec.waf.customRuleOrder needs 3 but the zone's plan (Basic) allows 1 (customWafRulesLimit)",
  );
  const err = new PlanLimitError(v, 'Basic', 60_000);
  t.is(err.reason, 'PlanLimitExceeded');
  t.is(err.retryAfterMs, 60_000);
  t.regex(err.message, /needs 3 .* allows 1/);
});
