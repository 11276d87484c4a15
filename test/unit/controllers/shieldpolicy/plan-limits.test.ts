import test from 'ava';
import {
  checkPlanLimits,
  describeViolations,
  isPlanRefusal,
  PlanLimitError,
  PlanNotSufficientError,
  withPlanCheck,
} from '../../../../src/controllers/shieldpolicy/plan-limits.js';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import { classifyShieldError } from '../../../../src/controllers/shieldpolicy/index.js';
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

const REFUSALS: Array<{ why: string; err: unknown; plan: boolean }> = [
  {
    why: 'the plan error key (cdn-sim, and the key the platform uses for plan refusals)',
    err: new CdnApiError({
      operation: 'putCustomPage',
      kind: 'unauthorized',
      message: 'x',
      status: 403,
      errorKey: 'shield.plan_required',
      detail: 'custom response pages needs the Advanced plan or higher',
    }),
    plan: true,
  },
  {
    why: 'a 403 without a key whose message speaks of the plan',
    err: new CdnApiError({
      operation: 'updateBotDetection',
      kind: 'unauthorized',
      message: 'x',
      status: 403,
      detail: 'Your plan does not include this feature',
    }),
    plan: true,
  },
  {
    why: 'a 403 that is an auth refusal stays one',
    err: new CdnApiError({
      operation: 'updateBotDetection',
      kind: 'unauthorized',
      message: 'x',
      status: 403,
      detail: 'Forbidden',
    }),
    plan: false,
  },
  {
    why: 'a 400 mentioning a plan is a validation error, not a plan refusal',
    err: new CdnApiError({
      operation: 'updateShieldZone',
      kind: 'invalid',
      message: 'x',
      status: 400,
      detail: 'planType must be one of 0, 1, 2, 3',
    }),
    plan: false,
  },
  { why: 'not a platform error', err: new Error('plan'), plan: false },
];

for (const c of REFUSALS) {
  test(`isPlanRefusal: ${c.why}`, (t) => {
    t.is(isPlanRefusal(c.err), c.plan);
  });
}

test('withPlanCheck: a plan refusal becomes PlanNotSufficient, retried slowly, naming field and plan', async (t) => {
  const refusal = REFUSALS[0]!.err as CdnApiError;
  const err = await t.throwsAsync(
    withPlanCheck('customPages', 'Basic', 60_000, () => Promise.reject(refusal)),
  );
  t.true(err instanceof PlanNotSufficientError);
  t.is(
    err.message,
    "cannot apply spec.customPages: the zone's plan (Basic) does not include it: custom response pages needs the Advanced plan or higher",
  );
  t.deepEqual(classifyShieldError(err), {
    class: 'retryable',
    reason: 'PlanNotSufficient',
    message: err.message,
    retryAfterMs: 60_000,
  });
  const other = new Error('boom');
  t.is(await t.throwsAsync(withPlanCheck('x', undefined, 1, () => Promise.reject(other))), other);
  t.is(await withPlanCheck('x', undefined, 1, () => Promise.resolve(7)), 7);
});
