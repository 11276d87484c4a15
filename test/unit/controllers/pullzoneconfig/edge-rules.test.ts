import test from 'ava';
import { TerminalError } from '../../../../src/runtime/errors.js';
import type { EdgeRule } from '../../../../src/cdn/types.js';
import {
  canonicalRule,
  fromWireRule,
  toWireRule,
  type EdgeRuleSpec,
} from '../../../../src/controllers/pullzoneconfig/edge-rules-mapping.js';
import {
  ACTION_TYPES,
  TRIGGER_TYPES,
} from '../../../../src/controllers/pullzoneconfig/edge-rules-types.js';
import {
  planEdgeRules,
  statusAfterCreates,
  type EdgeRulePlanInput,
} from '../../../../src/controllers/pullzoneconfig/edge-rules.js';

const redirect: EdgeRuleSpec = {
  name: 'old-to-new',
  action: { type: 'Redirect', parameter1: 'https://new.example/', parameter2: '301' },
  triggers: [{ type: 'Url', patternMatches: ['*/old/*'] }],
};

function live(
  spec: EdgeRuleSpec,
  guid: string,
  index = 0,
  extra: Partial<EdgeRule> = {},
): EdgeRule {
  return { ...toWireRule(spec, index), Guid: guid, ReadOnly: false, ...extra };
}

const foreign = live({ name: 'x', action: { type: 'ForceSSL' } }, 'g-foreign', 5);

interface Case {
  title: string;
  input: EdgeRulePlanInput;
  ops: string[];
  observed: Array<{ name: string; guid: string }>;
}

const CASES: Case[] = [
  {
    title: 'nothing live: one create',
    input: { rules: [redirect], policy: undefined, live: [], previous: undefined },
    ops: ['create:old-to-new'],
    observed: [],
  },
  {
    title: 'mapped and equal: no call',
    input: {
      rules: [redirect],
      policy: undefined,
      live: [live(redirect, 'g1')],
      previous: [{ name: 'old-to-new', guid: 'g1' }],
    },
    ops: [],
    observed: [{ name: 'old-to-new', guid: 'g1' }],
  },
  {
    title: 'only enabled differs: one toggle',
    input: {
      rules: [redirect],
      policy: undefined,
      live: [live(redirect, 'g1', 0, { Enabled: false })],
      previous: [{ name: 'old-to-new', guid: 'g1' }],
    },
    ops: ['setEnabled:g1:true'],
    observed: [{ name: 'old-to-new', guid: 'g1' }],
  },
  {
    title: 'content changed behind our back: one update by Guid',
    input: {
      rules: [redirect],
      policy: undefined,
      live: [live(redirect, 'g1', 0, { ActionParameter2: '302' })],
      previous: [{ name: 'old-to-new', guid: 'g1' }],
    },
    ops: ['update:g1'],
    observed: [{ name: 'old-to-new', guid: 'g1' }],
  },
  {
    title: 'no status but an identical unclaimed rule: adopted, no call',
    input: {
      rules: [redirect],
      policy: undefined,
      live: [foreign, live(redirect, 'g7')],
      previous: undefined,
    },
    ops: [],
    observed: [{ name: 'old-to-new', guid: 'g7' }],
  },
  {
    title: 'Additive: a foreign rule stays, a created rule dropped from spec goes',
    input: {
      rules: [],
      policy: 'Additive',
      live: [foreign, live(redirect, 'g1')],
      previous: [{ name: 'old-to-new', guid: 'g1', createdByOperator: true }],
    },
    ops: ['delete:g1'],
    observed: [{ name: 'old-to-new', guid: 'g1' }],
  },
  {
    title: 'Additive: an adopted rule dropped from spec stays',
    input: {
      rules: [],
      policy: 'Additive',
      live: [live(redirect, 'g1')],
      previous: [{ name: 'old-to-new', guid: 'g1' }],
    },
    ops: [],
    observed: [],
  },
  {
    title: 'Exact: every unlisted rule goes except read-only ones',
    input: {
      rules: [redirect],
      policy: 'Exact',
      live: [foreign, live(redirect, 'g1'), { ...foreign, Guid: 'g-ro', ReadOnly: true }],
      previous: [{ name: 'old-to-new', guid: 'g1' }],
    },
    ops: ['delete:g-foreign'],
    observed: [{ name: 'old-to-new', guid: 'g1' }],
  },
];

for (const c of CASES) {
  test(`planEdgeRules: ${c.title}`, (t) => {
    const plan = planEdgeRules(c.input);
    const ops = plan.actions.map((a) => {
      if (a.op === 'create') return `create:${a.name}`;
      if (a.op === 'update') return `update:${a.rule.Guid}`;
      if (a.op === 'setEnabled') return `setEnabled:${a.guid}:${a.enabled}`;
      return `delete:${a.guid}`;
    });
    t.deepEqual(ops, c.ops);
    t.deepEqual(
      plan.observed.map(({ name, guid }) => ({ name, guid })),
      c.observed,
    );
    t.is(plan.diffs.length, c.ops.length, 'one plan entry per call');
  });
}

test('planEdgeRules refuses to change a read-only rule', (t) => {
  t.throws(
    () =>
      planEdgeRules({
        rules: [redirect],
        policy: undefined,
        live: [live(redirect, 'g1', 0, { ActionParameter2: '302', ReadOnly: true })],
        previous: [{ name: 'old-to-new', guid: 'g1' }],
      }),
    { instanceOf: TerminalError, message: /cannot update edge rule old-to-new .*read-only/ },
  );
});

test('statusAfterCreates maps each created rule to the new GUID with its content', (t) => {
  const other: EdgeRuleSpec = {
    name: 'block',
    action: { type: 'BlockRequest' },
    triggers: [{ type: 'RemoteIP', patternMatches: ['10.0.0.1'] }],
  };
  const plan = planEdgeRules({
    rules: [redirect, other],
    policy: undefined,
    live: [foreign],
    previous: undefined,
  });
  const after = [foreign, live(other, 'n2', 1), live(redirect, 'n1', 0)];
  t.deepEqual(statusAfterCreates(plan, [foreign], after, ['old-to-new', 'block']), [
    { name: 'old-to-new', guid: 'n1', createdByOperator: true },
    { name: 'block', guid: 'n2', createdByOperator: true },
  ]);
});

test('every action and trigger type maps to the wire and back unchanged', (t) => {
  for (const action of Object.keys(ACTION_TYPES)) {
    for (const trigger of Object.keys(TRIGGER_TYPES)) {
      const spec: EdgeRuleSpec = {
        name: 'r',
        action: { type: action, parameter1: '10' },
        triggers: [{ type: trigger, patternMatches: ['a'], parameter1: 'X-H' }],
      };
      const wire = toWireRule(spec, 0);
      t.true(wire.ActionType === ACTION_TYPES[action], action);
      t.true(wire.Triggers?.[0]?.Type === TRIGGER_TYPES[trigger], trigger);
      t.deepEqual(fromWireRule(wire, 'r', 0), spec);
      t.deepEqual(canonicalRule(toWireRule(fromWireRule(wire, 'r', 0), 0)), canonicalRule(wire));
    }
  }
});

test('toWireRule rejects a name outside the tables with the field', (t) => {
  t.throws(() => toWireRule({ name: 'r', action: { type: 'Teleport' } }, 0), {
    message: 'cannot map action.type: unknown value Teleport',
  });
});
