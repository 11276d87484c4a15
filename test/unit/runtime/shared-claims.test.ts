/**
 * Shared claims and the claim lookups a kind gets in its ExternalContext: a claim marked
 * `shared` never refuses anyone (two objects may declare one rule name), `claimantsOf` shows
 * every other claimant whoever wins (within the account, never the object itself), and
 * `recordEvent` records an event at once.
 */
import test from 'ava';
import { ClaimIndex } from '../../../src/runtime/claims.js';
import { findCondition } from '../../../src/runtime/conditions.js';
import type {
  ClaimHolder,
  ExternalContext,
  ManagedKind,
  ManagedObject,
} from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';

function obj(name: string, created: string, status?: Record<string, unknown>): ManagedObject {
  return {
    apiVersion: 'test.io/v1',
    kind: 'Thing',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, creationTimestamp: created },
    spec: {},
    ...(status ? { status } : {}),
  };
}

test('index: claimantsOf lists every claimant of a resource, winner or not, within the account', (t) => {
  const index = new ClaimIndex();
  index.set(
    'Thing',
    obj('old', '2025-01-01T00:00:00Z'),
    [{ type: 'T', id: '1', recorded: false }],
    'a',
  );
  index.set(
    'Thing',
    obj('new', '2025-02-01T00:00:00Z'),
    [{ type: 'T', id: '1', recorded: false }],
    undefined,
  );
  index.set(
    'Thing',
    obj('other', '2025-01-01T00:00:00Z'),
    [{ type: 'T', id: '1', recorded: true }],
    'b',
  );
  const names = (account: string | undefined): string[] =>
    index
      .claimantsOf({ type: 'T', id: '1' }, account)
      .map((c) => c.name)
      .sort();
  t.deepEqual(names('a'), ['new', 'old'], 'the unknown account overlaps, account b does not');
  t.deepEqual(names(undefined), ['new', 'old', 'other']);
  t.deepEqual(index.claimantsOf({ type: 'T', id: '2' }, 'a'), []);
});

/** The world's kind, each object claiming its spec `label` (shared when asked). */
function labelKind(env: FakeEnv, shared: boolean, seen: ExternalContext[] = []): ManagedKind {
  const kind = env.kind();
  kind.claimsOf = (o) => [
    { type: 'Label', id: String(o.spec?.label), recorded: false, ...(shared ? { shared } : {}) },
  ];
  kind.connect = (): ReturnType<ManagedKind['connect']> => {
    const client = env.client();
    return Promise.resolve({
      ...client,
      account: env.account,
      observe: (o, ctx) => {
        seen.push(ctx);
        return client.observe(o, ctx);
      },
    });
  };
  return kind;
}

function twoLabelled(env: FakeEnv): void {
  const first = thing('first', { color: 'red', label: 'x' });
  const second = thing('second', { color: 'red', label: 'x' });
  env.put({ ...first, metadata: { ...first.metadata, creationTimestamp: '2025-01-01T00:00:00Z' } });
  env.put({
    ...second,
    metadata: { ...second.metadata, creationTimestamp: '2025-01-02T00:00:00Z' },
  });
}

test('a shared claim never refuses: two objects declaring one label both create', async (t) => {
  const env = new FakeEnv();
  twoLabelled(env);
  const kind = labelKind(env, true);
  const index = env.indexClaims(new ClaimIndex(), kind);
  for (const name of ['first', 'second']) {
    const r = await env.reconciler({ kind, claims: index }).reconcile(`ns/${name}`);
    t.is(r.outcome, 'success', name);
  }
  t.is(env.things.size, 2);
});

test('the same claim, not shared, refuses the younger object (the check above can fail)', async (t) => {
  const env = new FakeEnv();
  twoLabelled(env);
  const kind = labelKind(env, false);
  const index = env.indexClaims(new ClaimIndex(), kind);
  t.is((await env.reconciler({ kind, claims: index }).reconcile('ns/first')).outcome, 'success');
  t.is((await env.reconciler({ kind, claims: index }).reconcile('ns/second')).outcome, 'terminal');
  t.like(findCondition(env.get('second').status?.conditions, 'Synced'), {
    reason: 'AlreadyManaged',
  });
  t.is(env.things.size, 1);
});

test('ctx.claimantsOf shows the other claimants of any account (never the object itself); ctx.recordEvent records', async (t) => {
  const env = new FakeEnv();
  twoLabelled(env);
  const seen: ExternalContext[] = [];
  const kind = labelKind(env, true, seen);
  const index = env.indexClaims(new ClaimIndex(), kind);
  // A claimant under another account fingerprint (another API key) is shown too.
  index.set(
    'Thing',
    obj('elsewhere', '2025-01-01T00:00:00Z'),
    [{ type: 'Label', id: 'x', recorded: true, shared: true }],
    'acc-2',
  );
  await env.reconciler({ kind, claims: index }).reconcile('ns/first');
  const ctx = seen[0];
  if (!ctx?.claimantsOf || !ctx.recordEvent) return t.fail('no claim lookup or event sink');
  const holders: readonly ClaimHolder[] = ctx.claimantsOf('Label', 'x');
  t.deepEqual(
    [...holders].sort((a, b) => a.name.localeCompare(b.name)),
    [
      { kind: 'Thing', namespace: 'ns', name: 'elsewhere', recorded: true },
      { kind: 'Thing', namespace: 'ns', name: 'second', recorded: false },
    ],
  );
  t.deepEqual(ctx.claimantsOf('Label', 'y'), []);
  ctx.recordEvent({ type: 'Normal', reason: 'Told', message: 'something happened' });
  t.true(env.events.some((e) => e.reason === 'Told' && e.message === 'something happened'));
  return undefined;
});
