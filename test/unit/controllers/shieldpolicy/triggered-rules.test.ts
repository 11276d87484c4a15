import test from 'ava';
import type { TriggeredRule } from '../../../../src/cdn/security-types.js';
import {
  MAX_DESCRIPTION,
  SHOWN_TRIGGERED_RULES,
  triggeredStatus,
} from '../../../../src/controllers/shieldpolicy/triggered-rules.js';

function rule(ruleId: string | null, requests: number, description?: string): TriggeredRule {
  return {
    ruleId,
    ruleDescription: description ?? null,
    topTargetedUrls: { '/login': requests },
    totalTriggeredRequests: requests,
    ruleLogs: [],
  };
}

const CASES: Array<{
  why: string;
  rules: TriggeredRule[];
  total: number;
  expected: unknown;
}> = [
  {
    why: 'nothing waiting: the count only',
    rules: [],
    total: 0,
    expected: { triggeredRulesTotal: 0 },
  },
  {
    why: 'most requests first, ties by rule id; URLs and logs are not kept',
    rules: [rule('930100', 3, 'LFI'), rule('913100', 9, 'Scanner'), rule('913110', 3)],
    total: 3,
    expected: {
      triggeredRulesTotal: 3,
      triggeredRules: [
        { ruleId: '913100', description: 'Scanner', requests: 9 },
        { ruleId: '913110', requests: 3 },
        { ruleId: '930100', description: 'LFI', requests: 3 },
      ],
    },
  },
  {
    why: 'an entry without a rule id is left out; a rule listed twice counts once (its highest)',
    rules: [rule(null, 50), rule('', 40), rule('941100', 2), rule('941100', 7)],
    total: 0,
    expected: { triggeredRulesTotal: 1, triggeredRules: [{ ruleId: '941100', requests: 7 }] },
  },
  {
    why: 'a negative or missing count is 0; blank descriptions are left out',
    rules: [{ ruleId: 'x', ruleDescription: '  ', totalTriggeredRequests: -4 }],
    total: 1,
    expected: { triggeredRulesTotal: 1, triggeredRules: [{ ruleId: 'x', requests: 0 }] },
  },
];

for (const c of CASES) {
  test(`triggeredStatus: ${c.why}`, (t) => {
    t.deepEqual(triggeredStatus({ rules: c.rules, total: c.total }), c.expected);
  });
}

test('triggeredStatus: at most 20 shown, the total counts them all; long descriptions cut', (t) => {
  const rules = Array.from({ length: 45 }, (_, i) => rule(`r${String(i).padStart(2, '0')}`, i));
  rules[44]!.ruleDescription = 'd'.repeat(1000);
  const status = triggeredStatus({ rules, total: 45 });
  t.is(status.triggeredRulesTotal, 45);
  t.is(status.triggeredRules?.length, SHOWN_TRIGGERED_RULES);
  t.is(status.triggeredRules?.[0]?.ruleId, 'r44');
  t.is(status.triggeredRules?.[19]?.ruleId, 'r25');
  t.is(status.triggeredRules?.[0]?.description?.length, MAX_DESCRIPTION);
  t.true(status.triggeredRules?.[0]?.description?.endsWith('…'));
});

test('triggeredStatus: the same answer in another order maps to the same status', (t) => {
  const rules = [rule('a', 1), rule('b', 5), rule('c', 5)];
  t.deepEqual(
    triggeredStatus({ rules, total: 3 }),
    triggeredStatus({ rules: [...rules].reverse(), total: 3 }),
  );
});
