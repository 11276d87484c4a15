/**
 * specFromLiveZone (the export's reverse of mapping.ts): every field a live shield zone shows
 * becomes a spec member that maps forward to a desired value diffZone finds equal.
 */
import test from 'ava';
import { diffZone } from '../../../../src/controllers/shieldpolicy/diff.js';
import { FIELDS } from '../../../../src/controllers/shieldpolicy/fields.js';
import { toDesiredWire, type WireZone } from '../../../../src/controllers/shieldpolicy/mapping.js';
import { specFromLiveZone } from '../../../../src/controllers/shieldpolicy/reverse-mapping.js';

const LIVE: WireZone = {
  shieldZoneId: 100,
  pullZoneId: 1000,
  learningMode: false,
  learningModeUntil: '2026-12-01T00:00:00Z',
  wafEnabled: true,
  wafExecutionMode: 0,
  wafDisabledRules: ['920350', '913100'],
  wafLogOnlyRules: ['930100'],
  wafCustomRuleOrder: [3, 1, 2],
  wafRequestHeaderLoggingEnabled: true,
  requestBodyLoggingEnabled: false,
  wafRequestIgnoredHeaders: ['cookie'],
  wafRealtimeThreatIntelligenceEnabled: true,
  wafProfileId: 2,
  wafEngineConfig: [{ name: 'paranoia', valueEncoded: 'Mg==' }],
  wafRequestBodyLimitAction: 2,
  wafResponseBodyLimitAction: 1,
  dDoSShieldSensitivity: 0,
  dDoSExecutionMode: 1,
  dDoSChallengeWindow: 1800,
  whitelabelResponsePages: true,
  planType: 1,
};

test('every field of a live zone round-trips with no diff', (t) => {
  const spec = specFromLiveZone(LIVE);
  const desired = toDesiredWire(spec);
  t.deepEqual(Object.keys(desired).sort(), FIELDS.map((f) => f.wire).sort(), 'every field managed');
  t.deepEqual(diffZone(desired, LIVE), []);
});

test('enums are written by name (Off stays a string) and nested under waf/ddos', (t) => {
  const spec = specFromLiveZone(LIVE);
  t.is(spec.ddos?.shieldSensitivity, 'Off');
  t.is(spec.waf?.executionMode, 'Log');
  t.is(spec.waf?.requestBodyLimitAction, 'Ignore');
  t.is(spec.ddos?.executionMode, 'Block');
  t.is(spec.planType, 'Advanced', 'the plan is exported by name');
});

test('absent fields and unknown enum numbers stay unmanaged', (t) => {
  const spec = specFromLiveZone({
    wafEnabled: false,
    dDoSShieldSensitivity: 42,
    learningMode: null,
  });
  t.deepEqual(spec, { waf: { enabled: false } });
  t.deepEqual(diffZone(toDesiredWire(spec), { wafEnabled: false }), []);
});
