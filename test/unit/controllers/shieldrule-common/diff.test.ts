/**
 * Pure diff of a shield rule (its field table, shieldrule-common/fields.ts, compared by the kit,
 * the configuration sent whole by kit/nested.ts wholeNested): only members that differ are sent; a
 * configuration is sent whole (the platform binds it whole) and only when one of its managed
 * members differs; members the spec leaves out are not managed; the platform's defaults
 * (null, [], "", false, 0) compare equal to their absence. The export reads a record back
 * through the same table.
 */
import test from 'ava';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import {
  compareFields,
  createBody,
  specOfRecord,
  type AnyField,
  type FieldsDiff,
} from '../../../../src/controllers/kit/fields.js';
import { wholeNested } from '../../../../src/controllers/kit/nested.js';
import { CONFIGURATION } from '../../../../src/controllers/shieldrule-common/fields.js';
import { desiredConfiguration } from '../../../support/shield-rule-specs.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import { RATE_LIMIT_FAMILY } from '../../../../src/controllers/shieldratelimit/family.js';

const MEMBERS = WAF_RULE_FAMILY.members;

const SPEC: Record<string, unknown> = {
  shieldZoneId: 7,
  name: 'block-admin',
  action: 'Block',
  variables: { REQUEST_URI: '' },
  operator: 'BeginsWith',
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

/** The configuration members a PATCH of SPEC sends complete (the live defaults kept). */
const SENT = {
  actionType: 1,
  variableTypes: { REQUEST_URI: '' },
  operatorType: 0,
  value: '/admin',
  severityType: 0,
};

function objectOf(spec: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'ShieldWafRule',
    metadata: { name: 'meta-name', namespace: 'ns' },
    spec,
  };
}

function diffOf(
  spec: Record<string, unknown>,
  record: Record<string, unknown>,
  members: readonly AnyField[] = MEMBERS,
): FieldsDiff {
  const obj = objectOf(spec);
  const diff = compareFields(members, obj, record, 'rule');
  return wholeNested(members, CONFIGURATION, spec, record, diff);
}

test('the desired state maps names to the numbers the document gives', (t) => {
  const spec = {
    ...SPEC,
    severity: 'Critical',
    transformations: ['Lowercase', 'URLDecode'],
    operator: 'Within',
  };
  const body = createBody(MEMBERS, objectOf(spec));
  t.deepEqual(desiredConfiguration(MEMBERS, spec), body.ruleConfiguration);
  t.deepEqual(body.ruleConfiguration, {
    actionType: 1,
    variableTypes: { REQUEST_URI: '' },
    operatorType: 12,
    value: '/admin',
    severityType: 2,
    transformationTypes: [8, 19],
  });
  t.is(body.ruleName, 'block-admin');
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
        ...SENT,
        chainedRuleConditions: [],
      },
    },
    fields: ['ruleConfiguration.chainedRuleConditions'],
  },
  {
    why: 'a chained condition equal up to the defaults the platform fills is in sync',
    spec: {
      ...SPEC,
      chainedConditions: [{ variables: { ARGS: '' }, operator: 'Contains', value: 'x' }],
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
    why: 'severity Notice equals a record without one (the platform binds 0)',
    spec: { ...SPEC, severity: 'Notice', negated: false, value: '/admin' },
    record: live({ severityType: null }),
    patch: {},
    fields: [],
  },
  {
    why: 'a chained condition with an operator the table does not know is drift',
    spec: {
      ...SPEC,
      chainedConditions: [{ variables: { ARGS: '' }, operator: 'BeginsWith', value: 'x' }],
    },
    record: live({
      chainedRuleConditions: [{ variableTypes: { ARGS: '' }, operatorType: 99, value: 'x' }],
    }),
    patch: {
      ruleConfiguration: {
        ...SENT,
        chainedRuleConditions: [{ variableTypes: { ARGS: '' }, operatorType: 0, value: 'x' }],
      },
    },
    fields: ['ruleConfiguration.chainedRuleConditions'],
  },
  {
    why: 'a rule adopted by id without spec.name keeps its name',
    spec: { ...SPEC, name: undefined, adoption: { policy: 'ById', id: 11 } },
    record: live({}, { ruleName: 'their-name' }),
    patch: {},
    fields: [],
  },
];

for (const c of CASES) {
  test(`diff: ${c.why}`, (t) => {
    const d = diffOf(c.spec, c.record);
    t.deepEqual(d.update, c.patch);
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
  t.like(d.update.ruleConfiguration, {
    requestCount: 100,
    timeframe: 60,
    blockTime: 300,
    actionType: 1,
  });
});

test('transformations compare in order and are shown by name', (t) => {
  const d = diffOf(
    { ...SPEC, transformations: ['URLDecode', 'Lowercase'] },
    live({ transformationTypes: [8, 19] }),
  );
  t.deepEqual(d.diffs, [
    {
      field: 'ruleConfiguration.transformationTypes',
      live: '["Lowercase","URLDecode"]',
      desired: '["URLDecode","Lowercase"]',
    },
  ]);
});

test('the export reads every member back by name and leaves the defaults out', (t) => {
  const record = live(
    {
      isNegated: true,
      transformationTypes: [],
      chainedRuleConditions: [
        { variableTypes: { ARGS: 'q' }, operatorType: 12, value: '', isRegexVariable: null },
      ],
    },
    { ruleDescription: '' },
  );
  t.deepEqual(specOfRecord(MEMBERS, record), {
    name: 'block-admin',
    action: 'Block',
    variables: { REQUEST_URI: '' },
    operator: 'BeginsWith',
    value: '/admin',
    negated: true,
    severity: 'Notice',
    chainedConditions: [{ variables: { ARGS: 'q' }, operator: 'Within' }],
  });
  const spec = specOfRecord(MEMBERS, record);
  t.deepEqual(diffOf(spec, record).diffs, [], 'the exported spec is in sync with the rule');
});
