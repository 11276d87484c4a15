/** The per-object drift-check interval annotation (poll-interval.ts). */
import test from 'ava';
import { pollIntervalOf } from '../../../src/runtime/reconciler.js';
import type { ManagedObject } from '../../../src/runtime/types.js';

/** An object whose poll-interval annotation is `value`. */
function annotated(value: string): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'K',
    metadata: {
      name: 'a',
      namespace: 'ns',
      annotations: { 'cdn.operator.io/poll-interval': value },
    },
  };
}

test('poll-interval annotation: valid, clamped to 5 s, invalid falls back', (t) => {
  t.is(pollIntervalOf(annotated('1m'), 600_000), 60_000);
  t.is(pollIntervalOf(annotated('1s'), 600_000), 5_000);
  t.is(pollIntervalOf(annotated('soon'), 600_000), 600_000);
});
