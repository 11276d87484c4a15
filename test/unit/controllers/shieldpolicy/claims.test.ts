import test from 'ava';
import { shieldClaimsOf } from '../../../../src/controllers/shieldpolicy/index.js';
import type { ShieldPolicy } from '../../../../src/controllers/shieldpolicy/types.js';

function policy(spec: Record<string, unknown>, status?: Record<string, unknown>): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns' },
    spec,
    ...(status ? { status } : {}),
  };
}

const cases: Array<[string, ShieldPolicy, unknown]> = [
  [
    'spec id, not yet recorded',
    policy({ pullZoneId: 7 }),
    [{ type: 'ShieldPolicy', id: '7', recorded: false }],
  ],
  [
    'spec id recorded in status',
    policy({ pullZoneId: 7 }, { pullZoneId: 7 }),
    [{ type: 'ShieldPolicy', id: '7', recorded: true }],
  ],
  [
    'reference with a recorded zone (older operator version too)',
    policy({ pullZoneRef: { name: 'z' } }, { pullZoneId: 9 }),
    [{ type: 'ShieldPolicy', id: '9', recorded: true }],
  ],
  [
    'reference not resolved yet: claimed once connected',
    policy({ pullZoneRef: { name: 'z' } }),
    [],
  ],
  ['invalid id claims nothing', policy({ pullZoneId: -1 }), []],
];
for (const [title, obj, expected] of cases) {
  test(`shield claims: ${title}`, (t) => {
    t.deepEqual(shieldClaimsOf(obj), expected);
  });
}
