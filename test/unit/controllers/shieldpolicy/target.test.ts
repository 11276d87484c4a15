import test from 'ava';
import { TerminalError, WaitingError } from '../../../../src/runtime/errors.js';
import type { ManagedObject, ObjectReference } from '../../../../src/runtime/types.js';
import { resolvePullZoneId } from '../../../../src/controllers/shieldpolicy/target.js';
import type { ShieldPolicy } from '../../../../src/controllers/shieldpolicy/types.js';

function policy(spec: Record<string, unknown>, extra: Partial<ShieldPolicy> = {}): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns', ...(extra.metadata ?? {}) },
    spec,
    ...(extra.status ? { status: extra.status } : {}),
  };
}

function lookup(objects: Record<string, ManagedObject>) {
  return (ref: ObjectReference): ManagedObject | undefined =>
    objects[`${ref.kind}/${ref.namespace}/${ref.name}`];
}

const zoneConfig = (status?: Record<string, unknown>): ManagedObject => ({
  apiVersion: 'pullzones.cdn.operator.io/v1beta1',
  kind: 'PullZoneConfig',
  metadata: { name: 'demo-zone', namespace: 'ns' },
  ...(status ? { status } : {}),
});

test('pullZoneId is used as it is', (t) => {
  t.is(resolvePullZoneId(policy({ pullZoneId: 42 }), lookup({})), 42);
});

test('pullZoneRef resolves to the referenced status id (number or numeric string)', (t) => {
  t.is(
    resolvePullZoneId(
      policy({ pullZoneRef: { name: 'demo-zone' } }),
      lookup({ 'PullZoneConfig/ns/demo-zone': zoneConfig({ pullZoneId: 7 }) }),
    ),
    7,
  );
  t.is(
    resolvePullZoneId(
      policy({ pullZoneRef: { name: 'demo-zone' } }),
      lookup({ 'PullZoneConfig/ns/demo-zone': zoneConfig({ pullZoneId: '8' }) }),
    ),
    8,
  );
});

test('a missing reference or one without an id waits (ReferenceNotReady)', (t) => {
  const missing = t.throws(() =>
    resolvePullZoneId(policy({ pullZoneRef: { name: 'demo-zone' } }), lookup({})),
  );
  t.true(missing instanceof WaitingError);
  t.is((missing as WaitingError).reason, 'ReferenceNotReady');
  t.regex(missing.message, /ns\/demo-zone was not found/);
  const noId = t.throws(() =>
    resolvePullZoneId(
      policy({ pullZoneRef: { name: 'demo-zone' } }),
      lookup({ 'PullZoneConfig/ns/demo-zone': zoneConfig() }),
    ),
  );
  t.regex(noId.message, /has no status.pullZoneId yet/);
});

test('while deleting, a vanished reference falls back to the recorded pull zone id', (t) => {
  const deleting = policy(
    { pullZoneRef: { name: 'demo-zone' } },
    {
      metadata: { name: 'p', namespace: 'ns', deletionTimestamp: '2030-01-01T00:00:00Z' },
      status: { pullZoneId: 9 },
    },
  );
  t.is(resolvePullZoneId(deleting, lookup({})), 9);
  const never = policy(
    { pullZoneRef: { name: 'demo-zone' } },
    { metadata: { name: 'p', namespace: 'ns', deletionTimestamp: '2030-01-01T00:00:00Z' } },
  );
  t.is(resolvePullZoneId(never, lookup({})), undefined, 'nothing recorded: nothing to reset');
});

test('both or neither target is a terminal spec error', (t) => {
  for (const spec of [{}, { pullZoneId: 1, pullZoneRef: { name: 'x' } }]) {
    const err = t.throws(() => resolvePullZoneId(policy(spec), lookup({})));
    t.true(err instanceof TerminalError, JSON.stringify(spec));
  }
  const bad = t.throws(() => resolvePullZoneId(policy({ pullZoneId: -3 }), lookup({})));
  t.regex(bad.message, /spec.pullZoneId -3/);
});
