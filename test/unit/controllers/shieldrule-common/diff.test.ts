/**
 * Pure diff of a shield rule (shieldrule-common/diff.ts): only members that differ are sent;
 * a configuration is sent whole (the platform binds it whole) and only when one of its managed
 * members differs; members the spec leaves out are not managed; the platform's defaults
 * (null, [], "", false, 0) compare equal to their absence.
 */
import test from 'ava';
import {
  desiredRule,
  diffRule,
  type RuleDiff,
} from '../../../../src/controllers/shieldrule-common/diff.js';
import type { ShieldRuleSpecBase } from '../../../../src/controllers/shieldrule-common/types.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import { RATE_LIMIT_FAMILY } from '../../../../src/controllers/shieldratelimit/family.js';

const MEMBERS = WAF_RULE_FAMILY.members;

const SPEC: Record<string, unknown> = {
  shieldZoneId: 7,
  name: 'block-admin',
  action: 'Block',
  variables: { REQUEST_URI: '' },
  operator: 'BEGINSWITH',
  value: '/admin',
};

/** The rule as the platform stores it after a create from SPEC (bound model: defaults filled). */
function live(
  config: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: 11,
    shieldZoneId: 7,
    ruleName: 'block-admin',
    ruleDescription: null,
    ruleConfiguration: {
      actionType: 1,
      variableTypes: { REQUEST_URI: '' },
      operatorType: 0,
      value: '/admin',
      isNegated: null,
      isRegexVariable: null,
      severityType: 0,
      transformationTypes: null,
      chainedRuleConditions: null,
      ...config,
    },
    ...extra,
  };
}

function diffOf(
  spec: Record<string, unknown>,
  record: Record<string, unknown>,
  members = MEMBERS,
): RuleDiff {
  return diffRule(
    members,
    desiredRule(members, spec as unknown as ShieldRuleSpecBase, 'meta-name'),
    record,
  );
}

test('the desired state maps names to the numbers the document gives', (t) => {
  const want = desiredRule(
    MEMBERS,
    {
      ...SPEC,
      severity: 'CRITICAL',
      transformations: ['LOWERCASE', 'URLDECODE'],
      operator: 'WITHIN',
    } as unknown as ShieldRuleSpecBase,
    'x',
  );
  t.deepEqual(want.config, {
    actionType: 1,
    variableTypes: { REQUEST_URI: '' },
    operatorType: 12,
    value: '/admin',
    severityType: 2,
    transformationTypes: [8, 19],
  });
  t.is(want.name, 'block-admin');
});

const CASES: Array<{
  why: string;
  spec: Record<string, unknown>;
  record: Record<string, unknown>;
  patch: Record<string, unknown>;
  fields: string[];
}> = [
  {
    why: 'in sync: the platform defaults (null, 0) equal members the spec leaves out',
    spec: SPEC,
    record: live(),
    patch: {},
    fields: [],
  },
  {
    why: 'a renamed rule: only ruleName is sent',
    spec: SPEC,
    record: live({}, { ruleName: 'renamed' }),
    patch: { ruleName: 'block-admin' },
    fields: ['ruleName'],
  },
  {
    why: 'description is managed only when set; "" equals null',
    spec: { ...SPEC, description: '' },
    record: live(),
    patch: {},
    fields: [],
  },
  {
    why: 'a changed value sends the whole configuration, keeping unmanaged live members',
    spec: SPEC,
    record: live({ value: '/other', severityType: 2, transformationTypes: [8] }),
    patch: {
      ruleConfiguration: {
        actionType: 1,
        variableTypes: { REQUEST_URI: '' },
        operatorType: 0,
        value: '/admin',
        severityType: 2,
        transformationTypes: [8],
      },
    },
    fields: ['ruleConfiguration.value'],
  },
  {
    why: 'chainedConditions [] removes live ones; null live equals []',
    spec: { ...SPEC, chainedConditions: [] },
    record: live({
      chainedRuleConditions: [{ variableTypes: { ARGS: '' }, operatorType: 2, value: 'x' }],
    }),
    patch: {
      ruleConfiguration: {
        actionType: 1,
        variableTypes: { REQUEST_URI: '' },
        operatorType: 0,
        value: '/admin',
        severityType: 0,
        chainedRuleConditions: [],
      },
    },
    fields: ['ruleConfiguration.chainedRuleConditions'],
  },
  {
    why: 'a chained condition equal up to the defaults the platform fills is in sync',
    spec: {
      ...SPEC,
      chainedConditions: [{ variables: { ARGS: '' }, operator: 'CONTAINS', value: 'x' }],
    },
    record: live({
      chainedRuleConditions: [
        {
          variableTypes: { ARGS: '' },
          operatorType: 2,
          value: 'x',
          isNegated: null,
          isRegexVariable: null,
        },
      ],
    }),
    patch: {},
    fields: [],
  },
  {
    why: 'variables compare as a map (order ignored)',
    spec: { ...SPEC, variables: { REQUEST_URI: '', ARGS: 'q' } },
    record: live({ variableTypes: { ARGS: 'q', REQUEST_URI: '' } }),
    patch: {},
    fields: [],
  },
  {
    why: 'a rule adopted by id without spec.name keeps its name',
    spec: { ...SPEC, name: undefined, ruleId: 11 },
    record: live({}, { ruleName: 'their-name' }),
    patch: {},
    fields: [],
  },
];

for (const c of CASES) {
  test(`diff: ${c.why}`, (t) => {
    const d = diffOf(c.spec, c.record);
    t.deepEqual(d.patch, c.patch);
    t.deepEqual(
      d.diffs.map((x) => x.field),
      c.fields,
    );
  });
}

test('a rate limit diff covers count, timeframe and block time, rendered by name', (t) => {
  const spec = {
    ...SPEC,
    action: 'RateLimit',
    requestCount: 100,
    timeframe: 'PerOneMinute',
    blockTime: 'ForFiveMinutes',
    counterKey: 'IP',
  };
  const record = live({ requestCount: 50, timeframe: 60, blockTime: 30, counterKeyType: 0 });
  const d = diffOf(spec, record, RATE_LIMIT_FAMILY.members);
  t.deepEqual(d.diffs, [
    { field: 'ruleConfiguration.requestCount', live: '50', desired: '100' },
    { field: 'ruleConfiguration.blockTime', live: 'ForThirtySeconds', desired: 'ForFiveMinutes' },
  ]);
  t.like(d.patch.ruleConfiguration, {
    requestCount: 100,
    timeframe: 60,
    blockTime: 300,
    actionType: 1,
  });
});
