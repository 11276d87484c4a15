import test from 'ava';
import {
  findCondition,
  setCondition,
  setConditions,
  truncateMessage,
} from '../../../src/runtime/conditions.js';
import type { Condition } from '../../../src/runtime/types.js';

const t0 = new Date('2025-01-01T00:00:00.123Z');
const t1 = new Date('2025-01-01T01:00:00Z');
const ready: Condition = {
  type: 'Ready',
  status: 'True',
  reason: 'Available',
  message: '',
  lastTransitionTime: '2025-01-01T00:00:00Z',
  observedGeneration: 1,
};

test('lastTransitionTime is kept when the status does not change', (t) => {
  const next = setCondition(
    [ready],
    { type: 'Ready', status: 'True', reason: 'Available', message: 'still', observedGeneration: 2 },
    t1,
  );
  t.is(next[0]!.lastTransitionTime, '2025-01-01T00:00:00Z');
  t.is(next[0]!.observedGeneration, 2);
  t.is(next[0]!.message, 'still');
});

test('lastTransitionTime changes with the status (second precision)', (t) => {
  const next = setCondition(
    [ready],
    { type: 'Ready', status: 'False', reason: 'Unavailable', message: 'x' },
    t1,
  );
  t.is(next[0]!.lastTransitionTime, '2025-01-01T01:00:00Z');
});

test('a reason change alone keeps the transition time', (t) => {
  const next = setCondition(
    [ready],
    { type: 'Ready', status: 'True', reason: 'Other', message: '' },
    t1,
  );
  t.is(next[0]!.lastTransitionTime, ready.lastTransitionTime);
});

test('new conditions are appended with the current time; others keep their order', (t) => {
  const next = setConditions(
    [ready],
    [{ type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: '' }],
    t0,
  );
  t.deepEqual(
    next.map((c) => c.type),
    ['Ready', 'Synced'],
  );
  t.is(findCondition(next, 'Synced')?.lastTransitionTime, '2025-01-01T00:00:00Z');
  t.is(findCondition(next, 'Nope'), undefined);
});

test('merging the same conditions twice is a fixed point', (t) => {
  const input = [{ type: 'Ready', status: 'True' as const, reason: 'Available', message: '' }];
  const once = setConditions(undefined, input, t0);
  t.deepEqual(setConditions(once, input, t1), once);
});

test('messages are truncated', (t) => {
  t.is(truncateMessage('x'.repeat(2000)).length, 1024);
  t.is(truncateMessage('short'), 'short');
});
