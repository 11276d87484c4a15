/**
 * What the informer cache keeps of a managed object (cache.ts trimObject): everything the
 * runtime and the kinds read (spec, status, the metadata fields they use), nothing else.
 */
import test from 'ava';
import {
  Store,
  compareResourceVersions,
  trimObject,
  KEPT_METADATA,
} from '../../../src/runtime/cache.js';
import { realisticPullZoneConfig } from '../../../bench/lib/realistic-object.js';
import type { KubeObject } from '../../../src/runtime/cache.js';

function raw(): KubeObject {
  const o = realisticPullZoneConfig(7) as unknown as KubeObject;
  o.metadata.labels = { team: 'a', 'cdn.operator.io/shard': '1' };
  o.metadata.annotations = {
    ...o.metadata.annotations,
    'cdn.operator.io/paused': 'false',
    'cdn.operator.io/poll-interval': '5m',
  };
  o.metadata.deletionTimestamp = '2026-11-23T05:00:00Z';
  o.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'y' }];
  o.metadata.selfLink = '/apis/x';
  return o;
}

test('trimObject keeps spec, status and every metadata field the reconcilers read', (t) => {
  const before = raw();
  const kept = trimObject(structuredClone(before));
  t.deepEqual(kept.spec, before.spec);
  t.deepEqual(kept.status, before.status);
  t.is(kept.apiVersion, before.apiVersion);
  t.is(kept.kind, before.kind);
  for (const f of [
    'name',
    'namespace',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'labels',
    'finalizers',
  ] as const)
    t.deepEqual(kept.metadata[f], before.metadata[f], f);
  const { ['kubectl.kubernetes.io/last-applied-configuration']: _la, ...annotations } =
    before.metadata.annotations!;
  t.deepEqual(kept.metadata.annotations, annotations, 'our annotations and the marker stay');
  t.deepEqual(
    Object.keys(kept.metadata).sort(),
    KEPT_METADATA.filter((f) => f in kept.metadata).sort(),
  );
});

test('trimObject drops managedFields, the last-applied annotation, ownerReferences and the rest', (t) => {
  const kept = trimObject(raw());
  t.false('managedFields' in kept.metadata);
  t.false('ownerReferences' in kept.metadata);
  t.false('selfLink' in kept.metadata);
  t.false('kubectl.kubernetes.io/last-applied-configuration' in (kept.metadata.annotations ?? {}));
  const before = JSON.stringify(raw()).length;
  const after = JSON.stringify(kept).length;
  t.true(after < before / 2, `kept ${after} of ${before} bytes`);
});

test('trimObject: an object whose only annotation was last-applied has none left', (t) => {
  const o = raw();
  o.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
  t.false('annotations' in trimObject(o).metadata);
});

test('write-through keeps the instance but drops managedFields and last-applied in place', (t) => {
  const s = new Store();
  const answer = raw();
  // Write-through updates only an object the cache holds (an older copy of it).
  s.set({ ...raw(), metadata: { ...raw().metadata, resourceVersion: '1' } });
  s.setIfNewer(answer);
  t.is(s.get(`${answer.metadata.namespace}/${answer.metadata.name}`), answer, 'same instance');
  t.false('managedFields' in answer.metadata);
  t.false(
    'kubectl.kubernetes.io/last-applied-configuration' in (answer.metadata.annotations ?? {}),
  );
});

test('trimObject shares equal conditions, condition lists and ownership records, frozen', (t) => {
  // Objects 0 and 1 are written in the same second (equal conditions), object 100 two
  // seconds later (its lastTransitionTime differs).
  const [a, b, c] = [0, 1, 100].map((i) =>
    trimObject(realisticPullZoneConfig(i) as unknown as KubeObject),
  );
  const st = (o: KubeObject): Record<string, unknown> => o.status as Record<string, unknown>;
  t.is(st(a!).conditions, st(b!).conditions, 'one list for equal conditions');
  t.is(st(a!).ownership, st(c!).ownership);
  t.not(st(a!).conditions, st(c!).conditions);
  t.deepEqual(st(c!), realisticPullZoneConfig(100).status, 'the content is unchanged');
  t.true(Object.isFrozen(st(a!).conditions));
  t.true(Object.isFrozen((st(a!).conditions as object[])[0]));
  t.true(Object.isFrozen(st(a!).ownership));
  t.throws(
    () => {
      (st(a!).ownership as Record<string, unknown>).adopted = true;
    },
    { instanceOf: TypeError },
    'a write into a shared record throws instead of spreading',
  );
  t.false(Object.isFrozen(st(a!).hostnames), 'per-object records stay as parsed');
});

test('trimObject leaves records with nested members unshared and unfrozen', (t) => {
  const o = realisticPullZoneConfig(3) as unknown as KubeObject;
  const ownership = { account: 'x', details: { nested: true } };
  (o.status as Record<string, unknown>).ownership = ownership;
  const kept = trimObject(o);
  t.is((kept.status as Record<string, unknown>).ownership, ownership);
  t.false(Object.isFrozen(ownership));
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
