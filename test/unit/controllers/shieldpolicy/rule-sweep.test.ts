/**
 * The decision table of `rulePolicy: Exact` (rule-sweep.ts): which live custom WAF rules, rate
 * limits and custom access lists a ShieldPolicy deletes, given who claims what in the claim
 * index. Claimed by id (recorded anywhere, or asked for in the policy's namespace), claimed by
 * name while a create may be in flight, named by the policy's own customRuleOrder, or on
 * another zone: kept. Everything else: deleted, one plan entry each.
 */
import test from 'ava';
import type { ClaimHolder } from '../../../../src/runtime/types.js';
import {
  planRuleSweep,
  type LiveItem,
  type SweepInput,
} from '../../../../src/controllers/shieldpolicy/rule-sweep.js';
import type { SweptItemType } from '../../../../src/controllers/shieldpolicy/types.js';

const ZONE = 101;
const NS = 'shop';

interface Claim {
  type: string;
  id: string;
  holder: Partial<ClaimHolder>;
}

function holder(h: Partial<ClaimHolder>): ClaimHolder {
  return { kind: 'ShieldWafRule', namespace: NS, name: 'obj', recorded: true, ...h };
}

function input(
  live: Partial<Record<SweptItemType, LiveItem[]>>,
  claims: Claim[],
  extra: Partial<SweepInput> = {},
): SweepInput {
  return {
    zoneId: ZONE,
    policy: { namespace: NS, name: 'pol' },
    live: new Map(Object.entries(live) as Array<[SweptItemType, LiveItem[]]>),
    claimantsOf: (type, id) =>
      claims.filter((c) => c.type === type && c.id === id).map((c) => holder(c.holder)),
    ...extra,
  };
}

const byId = (id: number, h: Partial<ClaimHolder> = {}, kind = 'ShieldWafRule'): Claim => ({
  type: kind,
  id: String(id),
  holder: { kind, ...h },
});

const byName = (key: string, h: Partial<ClaimHolder> = {}): Claim => ({
  type: 'ShieldRuleName',
  id: key,
  holder: { recorded: false, ...h },
});

const rule = (id: number, name = `r${id}`): LiveItem => ({ id, name, shieldZoneId: ZONE });

/** title, live WAF rules, claims, the ids expected deleted. */
const table: Array<[string, LiveItem[], Claim[], number[]]> = [
  ['unclaimed: deleted', [rule(1)], [], [1]],
  ['claimed by id, recorded, this namespace: kept', [rule(1)], [byId(1)], []],
  [
    'claimed by id, only asked for (spec.adoption.id), this namespace: kept',
    [rule(1)],
    [byId(1, { recorded: false })],
    [],
  ],
  [
    'claimed by id, recorded in another namespace: kept (its owner made it first)',
    [rule(1)],
    [byId(1, { namespace: 'other' })],
    [],
  ],
  [
    'claimed by id, only asked for in another namespace: deleted (refused there, protects nothing)',
    [rule(1)],
    [byId(1, { namespace: 'other', recorded: false })],
    [1],
  ],
  [
    'a claim of another kind with the same id protects nothing',
    [rule(1)],
    [byId(1, {}, 'ShieldRateLimit')],
    [1],
  ],
  [
    'create in flight by shieldPolicyRef (name claim, no id yet): kept',
    [rule(1, 'web')],
    [byName('policy/shop/pol/ShieldWafRule/web')],
    [],
  ],
  [
    'create in flight by shieldZoneId: kept',
    [rule(1, 'web')],
    [byName(`zone/${ZONE}/ShieldWafRule/web`)],
    [],
  ],
  [
    'name claimed from another namespace: deleted',
    [rule(1, 'web')],
    [byName(`zone/${ZONE}/ShieldWafRule/web`, { namespace: 'other' })],
    [1],
  ],
  [
    'name claimed through another policy: deleted',
    [rule(1, 'web')],
    [byName('policy/shop/other-pol/ShieldWafRule/web')],
    [1],
  ],
  [
    'name claimed by another kind: deleted',
    [rule(1, 'web')],
    [byName(`zone/${ZONE}/ShieldRateLimit/web`, { kind: 'ShieldRateLimit' })],
    [1],
  ],
  [
    'names are case-sensitive: deleted',
    [rule(1, 'Web')],
    [byName(`zone/${ZONE}/ShieldWafRule/web`)],
    [1],
  ],
  [
    'a stray with the name of a managed rule whose id is recorded and live: the stray deleted',
    [rule(1, 'web'), rule(2, 'web')],
    [
      byId(1, { name: 'w' }),
      byName(`zone/${ZONE}/ShieldWafRule/web`, { name: 'w', recorded: true }),
    ],
    [2],
  ],
  [
    'an object whose recorded rule is gone (being created again): its name keeps the new one',
    [rule(2, 'web')],
    [byName(`zone/${ZONE}/ShieldWafRule/web`, { name: 'w', recorded: true })],
    [],
  ],
  ['a rule on another zone is never touched', [{ id: 1, name: 'r1', shieldZoneId: 999 }], [], []],
  ['a rule without a name: deleted by id', [{ id: 1 }], [], [1]],
];

for (const [title, live, claims, deleted] of table) {
  test(`sweep: ${title}`, (t) => {
    const plan = planRuleSweep(input({ CustomWafRule: live }, claims));
    t.deepEqual(
      plan.deletions.map((d) => d.id),
      deleted,
    );
    t.is(plan.diffs.length, deleted.length, 'one plan entry per deletion');
  });
}

test('sweep: each family by its own kind; entries name the item', (t) => {
  const plan = planRuleSweep(
    input(
      {
        CustomWafRule: [rule(1, 'a')],
        RateLimit: [rule(1, 'a'), rule(2, 'b')],
        CustomAccessList: [
          { id: 7, name: 'bad-ips' },
          { id: 8, name: 'kept' },
        ],
      },
      [
        byId(1, {}, 'ShieldWafRule'),
        byId(2, {}, 'ShieldRateLimit'),
        byId(8, { kind: 'ShieldAccessList' }, 'ShieldAccessList'),
      ],
    ),
  );
  t.deepEqual(
    plan.deletions.map((d) => `${d.family.type} ${d.label}`),
    ['RateLimit rate limit 1 "a"', 'CustomAccessList custom access list 7 "bad-ips"'],
  );
  t.deepEqual(plan.diffs, [
    { field: 'rateLimits[1 "a"]', live: 'present', desired: '<absent>' },
    { field: 'accessLists[7 "bad-ips"]', live: 'present', desired: '<absent>' },
  ]);
});

test('sweep: a custom WAF rule the policy lists in waf.customRuleOrder is kept (rate limits not)', (t) => {
  const plan = planRuleSweep(
    input({ CustomWafRule: [rule(5), rule(6)], RateLimit: [rule(5)] }, [], {
      orderedRuleIds: [5],
    }),
  );
  t.deepEqual(
    plan.deletions.map((d) => `${d.family.type} ${d.id}`),
    ['CustomWafRule 6', 'RateLimit 5'],
  );
});

test('sweep: nothing live, nothing planned', (t) => {
  t.deepEqual(planRuleSweep(input({}, [])), { diffs: [], deletions: [] });
});
