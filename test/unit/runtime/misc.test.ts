import test from 'ava';
import { priorityForUpdate } from '../../../src/runtime/enqueue-rules.js';
import { eventName, microTime } from '../../../src/runtime/events.js';
import { evaluateChecks, parseBindAddress } from '../../../src/runtime/health.js';
import { resourceOf } from '../../../src/runtime/kube-client.js';
import { ReferenceIndex } from '../../../src/runtime/references.js';
import { pollIntervalOf } from '../../../src/runtime/reconciler.js';
import { Store, compareResourceVersions, trimObject } from '../../../src/runtime/cache.js';
import type { ManagedObject } from '../../../src/runtime/types.js';

function o(
  meta: Partial<ManagedObject['metadata']> = {},
  status: Record<string, unknown> = {},
): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'K',
    metadata: {
      name: 'a',
      namespace: 'ns',
      uid: 'u',
      generation: 1,
      resourceVersion: '1',
      ...meta,
    },
    status,
  };
}

const updates: Array<
  [string, ManagedObject, ManagedObject, 'high' | 'normal' | 'low' | undefined]
> = [
  [
    'status-only change (our own write) is ignored',
    o(),
    o({ resourceVersion: '2' }, { x: 1 }),
    undefined,
  ],
  ['generation bump is a user change', o(), o({ generation: 2 }), 'high'],
  ['annotation change (paused, dry-run)', o(), o({ annotations: { a: 'b' } }), 'high'],
  [
    'a request annotation (purge, forced pass) is queued like a create, not with the changes',
    o({ annotations: { 'cdn.operator.io/purge-requested-at': '1' } }),
    o({ annotations: { 'cdn.operator.io/purge-requested-at': '2' } }),
    'normal',
  ],
  [
    'a request annotation together with a change is a change',
    o(),
    o({ annotations: { 'cdn.operator.io/reconcile-requested-at': '1', a: 'b' } }),
    'high',
  ],
  ['deletion', o(), o({ deletionTimestamp: 'now' }), 'high'],
  [
    'our own create-pending marker is ignored',
    o(),
    o({ annotations: { 'cdn.operator.io/external-create-pending': 't' } }),
    undefined,
  ],
  [
    'finalizer change while deleting',
    o({ deletionTimestamp: 'now', finalizers: ['a', 'b'] }),
    o({ deletionTimestamp: 'now', finalizers: ['b'] }),
    'high',
  ],
  [
    'finalizer change while alive (our own add) is ignored',
    o(),
    o({ finalizers: ['f'] }),
    undefined,
  ],
];
for (const [why, a, b, expected] of updates) {
  test(`enqueue rule: ${why}`, (t) => t.is(priorityForUpdate(a, b), expected));
}

test('event names and MicroTime', (t) => {
  t.regex(eventName('my-obj', 1700000000000), /^my-obj\.[0-9a-f]+$/);
  t.is(microTime(Date.UTC(2025, 0, 2, 3, 4, 5, 678)), '2025-01-02T03:04:05.678000Z');
});

test('bind addresses', (t) => {
  t.deepEqual(parseBindAddress(':8080'), { host: '0.0.0.0', port: 8080 });
  t.deepEqual(parseBindAddress('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
  t.deepEqual(parseBindAddress('[::1]:9'), { host: '::1', port: 9 });
  t.is(parseBindAddress('0'), undefined);
  t.throws(() => parseBindAddress('8080'), { message: /expected \[host\]:port/ });
});

test('readiness checks', (t) => {
  t.deepEqual(evaluateChecks([{ name: 'a', check: () => undefined }]), {
    status: 200,
    body: 'ok\n',
  });
  t.is(
    evaluateChecks([{ name: 'informers', check: () => 'not synced' }]).body,
    '[-]informers failed: not synced\n',
  );
});

test('reference index', (t) => {
  const idx = new ReferenceIndex();
  const ref = { apiVersion: 'v1', kind: 'Secret', namespace: 'ns', name: 'creds' };
  idx.set({ controller: 'pz', key: 'ns/a' }, [ref]);
  idx.set({ controller: 'pz', key: 'ns/b' }, [ref]);
  t.deepEqual(
    idx
      .dependentsOf(ref)
      .map((d) => d.key)
      .sort(),
    ['ns/a', 'ns/b'],
  );
  idx.set({ controller: 'pz', key: 'ns/a' }, []);
  t.deepEqual(
    idx.dependentsOf(ref).map((d) => d.key),
    ['ns/b'],
  );
  t.deepEqual(idx.dependentsOf({ ...ref, apiVersion: 'v2' }).length, 1, 'version does not matter');
});

test('reference index: a dependent of one and of several objects, replaced and removed', (t) => {
  const idx = new ReferenceIndex();
  const secret = { apiVersion: 'v1', kind: 'Secret', namespace: 'ns', name: 'creds' };
  const map = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ns', name: 'cfg' };
  const keysOf = (r: typeof secret): string[] => idx.dependentsOf(r).map((d) => d.key);
  idx.set({ controller: 'pz', key: 'ns/a' }, [secret]);
  idx.set({ controller: 'pz', key: 'ns/a' }, [secret, map, secret]);
  t.deepEqual(keysOf(secret), ['ns/a']);
  t.deepEqual(keysOf(map), ['ns/a']);
  idx.set({ controller: 'pz', key: 'ns/a' }, [map]);
  t.deepEqual(keysOf(secret), [], 'a dropped reference is forgotten');
  t.deepEqual(keysOf(map), ['ns/a']);
  idx.remove({ controller: 'pz', key: 'ns/a' });
  t.deepEqual(keysOf(map), []);
  t.is((idx as unknown as { byRef: Map<string, unknown> }).byRef.size, 0, 'no entry left');
});

test('poll-interval annotation: valid, clamped to 5 s, invalid falls back', (t) => {
  t.is(
    pollIntervalOf(o({ annotations: { 'cdn.operator.io/poll-interval': '1m' } }), 600_000),
    60_000,
  );
  t.is(
    pollIntervalOf(o({ annotations: { 'cdn.operator.io/poll-interval': '1s' } }), 600_000),
    5_000,
  );
  t.is(
    pollIntervalOf(o({ annotations: { 'cdn.operator.io/poll-interval': 'soon' } }), 600_000),
    600_000,
  );
});

test('cache: managedFields stripped, write-through never replaces a newer version', (t) => {
  const raw = {
    metadata: {
      name: 'a',
      namespace: 'ns',
      managedFields: [{ big: true }],
      resourceVersion: '5',
      uid: 'u',
    },
  };
  t.false('managedFields' in trimObject(raw).metadata);
  const s = new Store();
  s.set(trimObject(raw));
  s.setIfNewer({ metadata: { name: 'a', namespace: 'ns', resourceVersion: '4', uid: 'u' } });
  t.is(s.get('ns/a')?.metadata.resourceVersion, '5');
  s.setIfNewer({ metadata: { name: 'a', namespace: 'ns', resourceVersion: '6', uid: 'u' } });
  t.is(s.get('ns/a')?.metadata.resourceVersion, '6');
  t.is(compareResourceVersions('10', '9'), 1);
  t.is(compareResourceVersions('a', '9'), undefined);
});

test('metrics resource label of API paths', (t) => {
  t.is(
    resourceOf('/apis/cdn.operator.io/v1alpha1/namespaces/ns/pullzoneconfigs/a/status'),
    'pullzoneconfigs/status',
  );
  t.is(resourceOf('/api/v1/namespaces/ns/secrets'), 'secrets');
  t.is(resourceOf('/apis/cdn.operator.io/v1alpha1/widgets'), 'widgets');
});
