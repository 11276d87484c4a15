/** The reference index (references.ts): which managed objects depend on a referenced object. */
import test from 'ava';
import { ReferenceIndex } from '../../../src/runtime/references.js';

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
