import test from 'ava';
import { RESET_DEFAULTS, toResetWire } from '../../../../src/controllers/shieldpolicy/defaults.js';
import { NOT_WRITABLE, resetTarget } from '../../../../src/controllers/shieldpolicy/external.js';
import { FIELDS } from '../../../../src/controllers/shieldpolicy/fields.js';
import { newShieldZone } from '../../../../src/simulator/routes/shield-model.js';

test('reset defaults equal the values of a zone created without settings', (t) => {
  const fresh = newShieldZone(1, 2);
  for (const [field, value] of Object.entries(RESET_DEFAULTS)) {
    t.deepEqual(value, fresh[field], field);
  }
});

test('every managed field has a reset default except the documented exceptions', (t) => {
  const without = FIELDS.map((f) => f.wire).filter((w) => !(w in RESET_DEFAULTS));
  t.deepEqual(without.sort(), ['dDoSExecutionMode', 'learningModeUntil', 'planType']);
});

test('deleting a policy never changes the plan (billing; other objects rely on its limits)', (t) => {
  t.deepEqual(toResetWire({ planType: 'Enterprise', learningMode: false }), { learningMode: true });
});

test('toResetWire resets only the fields the spec manages', (t) => {
  t.deepEqual(
    toResetWire({ waf: { enabled: false, executionMode: 'Log' }, whitelabelResponsePages: true }),
    {
      wafEnabled: true,
      wafExecutionMode: 1,
      whitelabelResponsePages: false,
    },
  );
  t.deepEqual(toResetWire({ pullZoneId: 5 }), {}, 'a policy managing nothing resets nothing');
});

test('the reset target never contains a field the update call cannot carry', (t) => {
  const obj = {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'n' },
    spec: {
      ddos: { executionMode: 'Log' as const, challengeWindowSeconds: 5 },
      learningModeEndTime: '2030-01-01T00:00:00Z',
    },
  };
  const target = resetTarget(obj);
  t.deepEqual(target, { dDoSChallengeWindow: 3600 });
  for (const f of NOT_WRITABLE) t.false(f in target, f);
});
