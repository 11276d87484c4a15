import test from 'ava';
import { diffFields, jsonEqual, renderValue } from '../../../../src/controllers/shared/plan.js';

test('only fields present in desired are compared (unmanaged fields are ignored)', (t) => {
  const diffs = diffFields({ A: 1, B: [1, 2] }, { A: 1, B: [2, 1], C: 'live only' });
  t.deepEqual(diffs, [{ field: 'B', live: '[2,1]', desired: '[1,2]' }]);
});

test('secret fields are never rendered', (t) => {
  const diffs = diffFields(
    { Token: 'new-secret' },
    { Token: 'old-secret' },
    { secretFields: new Set(['Token']) },
  );
  t.deepEqual(diffs, [{ field: 'Token', live: '<redacted>', desired: '<redacted>' }]);
});

test('absent live values render as <unset> and long values are truncated', (t) => {
  t.is(renderValue(undefined), '<unset>');
  t.is(renderValue('x'.repeat(500)).length, 200);
});

test('jsonEqual compares nested objects regardless of key order', (t) => {
  t.true(jsonEqual({ a: { b: [1, { c: 2 }] }, d: null }, { d: null, a: { b: [1, { c: 2 }] } }));
  t.false(jsonEqual({ a: [1] }, { a: [1, 2] }));
  t.false(jsonEqual({ a: 1 }, { a: '1' }));
});
