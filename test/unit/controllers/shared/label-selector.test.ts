import test from 'ava';
import {
  matchesLabelSelector,
  type LabelSelector,
} from '../../../../src/controllers/shared/label-selector.js';

const labels = { team: 'a', tier: 'prod', 'kubernetes.io/metadata.name': 'team-a' };

const cases: Array<
  [string, LabelSelector | undefined, Record<string, string> | undefined, boolean]
> = [
  ['absent selector selects nothing', undefined, labels, false],
  ['empty selector selects nothing', {}, labels, false],
  [
    'empty matchLabels and expressions select nothing',
    { matchLabels: {}, matchExpressions: [] },
    labels,
    false,
  ],
  ['matchLabels match', { matchLabels: { team: 'a' } }, labels, true],
  ['matchLabels mismatch', { matchLabels: { team: 'b' } }, labels, false],
  [
    'In',
    { matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod', 'dev'] }] },
    labels,
    true,
  ],
  [
    'In without the label',
    { matchExpressions: [{ key: 'x', operator: 'In', values: ['1'] }] },
    labels,
    false,
  ],
  [
    'NotIn',
    { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['prod'] }] },
    labels,
    false,
  ],
  [
    'NotIn without the label',
    { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['1'] }] },
    labels,
    true,
  ],
  [
    'Exists (open to every namespace)',
    { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }] },
    labels,
    true,
  ],
  [
    'DoesNotExist',
    { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] },
    labels,
    false,
  ],
  [
    'all terms must hold',
    {
      matchLabels: { team: 'a' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['dev'] }],
    },
    labels,
    false,
  ],
  [
    'unknown operator never matches',
    { matchExpressions: [{ key: 'team', operator: 'Gt', values: ['1'] }] },
    labels,
    false,
  ],
  ['no labels at all', { matchLabels: { team: 'a' } }, undefined, false],
  // Prototype keys are labels like any other: absent unless the object has them.
  [
    'label key constructor: Exists on a namespace without it',
    { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] },
    labels,
    false,
  ],
  [
    'label key __proto__: DoesNotExist',
    { matchExpressions: [{ key: '__proto__', operator: 'DoesNotExist' }] },
    labels,
    true,
  ],
  ['matchLabels toString', { matchLabels: { toString: 'x' } }, labels, false],
];

for (const [why, selector, l, want] of cases) {
  test(why, (t) => {
    t.is(matchesLabelSelector(selector, l), want);
  });
}
