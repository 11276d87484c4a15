/**
 * Issue 29 item 2: a deleted object never comes back into the cache. The answer to the
 * runtime's own write (a status write, the finalizer removal) may be processed after the
 * watch's DELETED event; write-through then must not store it again. A 404 on the runtime's
 * own write of an object that is gone ends the object's passes instead of retrying forever.
 */
import test from 'ava';
import { Store } from '../../../src/runtime/cache.js';
import type { KubeObject } from '../../../src/runtime/cache.js';
import { KubeApiError } from '../../../src/runtime/kube-client.js';
import { FakeEnv, thing } from './fake-env.js';

function obj(uid: string, rv: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'test.io/v1',
    kind: 'Thing',
    metadata: { name: 'a', namespace: 'ns', uid, resourceVersion: rv, ...extra },
  };
}

const cases: Array<{ what: string; run(store: Store): void; stored: string | undefined }> = [
  {
    what: 'the answer to a write arrives after the DELETED event: not stored again',
    run: (s) => {
      s.set(obj('u1', '5'));
      s.delete('ns/a'); // DELETED event
      s.setIfNewer(obj('u1', '6', { deletionTimestamp: '2025-01-01T00:00:00Z' }));
    },
    stored: undefined,
  },
  {
    what: 'a write answer for an object the cache never held (deleted by a relist): not stored',
    run: (s) => s.setIfNewer(obj('u1', '6')),
    stored: undefined,
  },
  {
    what: 'the name was re-created (new uid) before the old answer arrived: the new object stays',
    run: (s) => {
      s.set(obj('u1', '5'));
      s.delete('ns/a');
      s.set(obj('u2', '8'));
      s.setIfNewer(obj('u1', '9'));
    },
    stored: 'u2/8',
  },
  {
    what: 'the answer to a write of a cached object: stored (write-through still works)',
    run: (s) => {
      s.set(obj('u1', '5'));
      s.setIfNewer(obj('u1', '6'));
    },
    stored: 'u1/6',
  },
  {
    what: 'an answer older than the cached copy: ignored',
    run: (s) => {
      s.set(obj('u1', '7'));
      s.setIfNewer(obj('u1', '6'));
    },
    stored: 'u1/7',
  },
];

for (const c of cases) {
  test(`write-through: ${c.what}`, (t) => {
    const store = new Store();
    c.run(store);
    const got = store.get('ns/a');
    t.is(got ? `${got.metadata.uid}/${got.metadata.resourceVersion}` : undefined, c.stored);
  });
}

test('a 404 on the status write of an object that is gone ends its passes (gone), no retry', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  await env.reconciler().reconcile('ns/a');
  // The cache still serves the object; the API server no longer has it.
  const cached = env.get('a');
  env.objects.delete('ns/a');
  cached.metadata.generation = 2; // a spec change: the pass writes status
  const r = await env.reconciler({ getCached: () => structuredClone(cached) }).reconcile('ns/a');
  t.is(r.outcome, 'gone');
  t.is(r.retryMinDelayMs, undefined, 'not retried with backoff');
  t.is(r.requeueAfterMs, undefined, 'not polled either');
});

test('a 404 on the status write of an object that still exists (no /status subresource) stays a conflict', async (t) => {
  const env = new FakeEnv();
  env.put(thing('a'));
  const base = env.writer.bind(env);
  env.writer = () => ({
    ...base(),
    patchStatus: () =>
      Promise.reject(new KubeApiError('the server could not find the requested resource', 404)),
  });
  const r = await env.reconciler().reconcile('ns/a');
  t.is(r.outcome, 'conflict');
  t.is(r.retryMinDelayMs, 0, 'retried with backoff');
});
