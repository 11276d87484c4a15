import test from 'ava';
import {
  buildPatchSettings,
  diffZone,
  valuesEqual,
} from '../../../../src/controllers/shieldpolicy/diff.js';
import type { CompareMode } from '../../../../src/controllers/shieldpolicy/fields.js';
import {
  mergeLiveZone,
  statusFromZone,
  toDesiredWire,
} from '../../../../src/controllers/shieldpolicy/mapping.js';

test('toDesiredWire maps every spec member to its API field, enums by number', (t) => {
  const wire = toDesiredWire({
    planType: 'Enterprise',
    learningMode: false,
    learningModeEndTime: '2030-01-01T00:00:00Z',
    waf: {
      enabled: true,
      executionMode: 'Log',
      disabledRules: ['920100'],
      logOnlyRules: ['930100'],
      customRuleOrder: [7, 3],
      requestHeaderLoggingEnabled: true,
      requestBodyLoggingEnabled: false,
      requestIgnoredHeaders: ['cookie'],
      realtimeThreatIntelligenceEnabled: true,
      profileId: 4,
      engineConfig: [{ name: 'paranoia', valueEncoded: 'Mg==' }],
      requestBodyLimitAction: 'Ignore',
      responseBodyLimitAction: 'Log',
    },
    ddos: { shieldSensitivity: 'Challenge', executionMode: 'Log', challengeWindowSeconds: 60 },
    whitelabelResponsePages: true,
  });
  t.deepEqual(wire, {
    planType: 3,
    learningMode: false,
    learningModeUntil: '2030-01-01T00:00:00Z',
    wafEnabled: true,
    wafExecutionMode: 0,
    wafDisabledRules: ['920100'],
    wafLogOnlyRules: ['930100'],
    wafCustomRuleOrder: [7, 3],
    wafRequestHeaderLoggingEnabled: true,
    requestBodyLoggingEnabled: false,
    wafRequestIgnoredHeaders: ['cookie'],
    wafRealtimeThreatIntelligenceEnabled: true,
    wafProfileId: 4,
    wafEngineConfig: [{ name: 'paranoia', valueEncoded: 'Mg==' }],
    wafRequestBodyLimitAction: 2,
    wafResponseBodyLimitAction: 1,
    dDoSShieldSensitivity: 4,
    dDoSExecutionMode: 0,
    dDoSChallengeWindow: 60,
    whitelabelResponsePages: true,
  });
});

test('toDesiredWire leaves unset members out (they are not managed)', (t) => {
  t.deepEqual(toDesiredWire({ pullZoneId: 1 }), {}, 'targets only: nothing managed');
  t.deepEqual(
    toDesiredWire({ waf: { enabled: false } }),
    { wafEnabled: false },
    'false is a value',
  );
});

const EQUAL_CASES: Array<[CompareMode, unknown, unknown, boolean, string]> = [
  ['exact', true, true, true, 'same boolean'],
  ['exact', false, null, false, 'false differs from an unset live value'],
  ['exact', 1, 2, false, 'different numbers'],
  ['set', ['b', 'a'], ['a', 'b'], true, 'sets ignore order'],
  ['set', [], null, true, 'an empty set equals an absent list'],
  ['set', ['a'], ['a', 'b'], false, 'a missing member differs'],
  ['list', [1, 2], [2, 1], false, 'ordered lists compare in order'],
  ['list', [], undefined, true, 'an empty list equals an absent one'],
  [
    'instant',
    '2030-01-01T00:00:00Z',
    '2030-01-01T00:00:00.000+00:00',
    true,
    'same instant, other format',
  ],
  ['instant', '2030-01-01T00:00:00Z', '2030-01-01T00:00:01Z', false, 'different instants'],
  ['instant', null, undefined, true, 'both unset'],
  ['instant', '2030-01-01T00:00:00Z', null, false, 'set versus unset'],
  [
    'engineConfig',
    [
      { name: 'b', valueEncoded: '2' },
      { name: 'a', valueEncoded: '1' },
    ],
    [
      { name: 'a', valueEncoded: '1' },
      { name: 'b', valueEncoded: '2' },
    ],
    true,
    'engine variables compare by name, not position',
  ],
  [
    'engineConfig',
    [{ name: 'a', valueEncoded: '1' }],
    [{ name: 'a', valueEncoded: '2' }],
    false,
    'a changed value differs',
  ],
];

for (const [mode, desired, live, equal, why] of EQUAL_CASES) {
  test(`valuesEqual ${mode}: ${why}`, (t) => {
    t.is(valuesEqual(mode, desired, live), equal);
  });
}

const LIVE = {
  shieldZoneId: 100,
  pullZoneId: 1000,
  learningMode: true,
  wafEnabled: true,
  wafDisabledRules: [],
  dDoSChallengeWindow: 3600,
  rateLimitRulesLimit: 2,
  customWafRulesLimit: 0,
};
const LIST_ITEM = { ...LIVE, wafExecutionMode: 1, dDoSShieldSensitivity: 2, planType: 0 };

test('diffZone reports only managed fields that differ, enums by name', (t) => {
  const live = mergeLiveZone(LIVE, LIST_ITEM);
  const desired = toDesiredWire({
    learningMode: true,
    waf: { enabled: true, executionMode: 'Log', disabledRules: ['1'] },
    ddos: { shieldSensitivity: 'Medium' },
  });
  t.deepEqual(diffZone(desired, live), [
    { field: 'wafExecutionMode', live: 'Block', desired: 'Log' },
    { field: 'wafDisabledRules', live: '[]', desired: '["1"]' },
  ]);
});

test('diffZone is empty when in sync', (t) => {
  const live = mergeLiveZone(LIVE, LIST_ITEM);
  t.deepEqual(diffZone(toDesiredWire({ waf: { executionMode: 'Block' } }), live), []);
});

test('a list-only field the list has not shown yet is reported as unset', (t) => {
  const live = mergeLiveZone(LIVE, undefined);
  t.deepEqual(diffZone(toDesiredWire({ waf: { executionMode: 'Block' } }), live), [
    { field: 'wafExecutionMode', live: '<unset>', desired: 'Block' },
  ]);
});

test('buildPatchSettings carries exactly the differing fields with their desired values', (t) => {
  const desired = toDesiredWire({
    learningMode: true,
    waf: { enabled: false, executionMode: 'Log' },
  });
  const diff = diffZone(desired, mergeLiveZone(LIVE, LIST_ITEM));
  t.deepEqual(
    diff.map((d) => d.field),
    ['wafEnabled', 'wafExecutionMode'],
  );
  t.deepEqual(buildPatchSettings(desired, diff), { wafEnabled: false, wafExecutionMode: 0 });
  t.deepEqual(buildPatchSettings(desired, []), {}, 'in sync: empty settings');
});

test('mergeLiveZone takes only list-only members from the list entry', (t) => {
  const live = mergeLiveZone(
    { ...LIVE, wafEnabled: false },
    { ...LIST_ITEM, wafEnabled: true, wafExecutionMode: 0 },
  );
  t.is(live.wafEnabled, false, 'the single-zone answer wins for shared members');
  t.is(live.wafExecutionMode, 0, 'list-only members come from the list');
  t.is(live.planType, 0, 'the plan type comes from the list');
});

test('statusFromZone reports ids, plan name and limits', (t) => {
  t.deepEqual(statusFromZone(mergeLiveZone(LIVE, { ...LIST_ITEM, planType: 2 })), {
    shieldZoneId: 100,
    pullZoneId: 1000,
    planType: 'Business',
    rateLimitRulesLimit: 2,
    customWafRulesLimit: 0,
  });
  t.false('planType' in statusFromZone(LIVE), 'no plan type without the list');
});
