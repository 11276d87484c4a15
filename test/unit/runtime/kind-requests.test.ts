/**
 * What a kind's observation may ask of the runtime besides status (issue 28, the purge bound):
 * the next pass sooner than the poll interval (`requeueAfterMs`, never sooner than a second)
 * and events about the object (`events`, recorded like the runtime's own).
 */
import test from 'ava';
import type { ManagedKind, Observation } from '../../../src/runtime/types.js';
import { FakeEnv, thing } from './fake-env.js';

function kindObserving(env: FakeEnv, extra: Partial<Observation>): ManagedKind {
  const kind = env.kind();
  return {
    ...kind,
    connect: async (o, ctx) => {
      const client = await kind.connect(o, ctx);
      return {
        ...client,
        observe: async (obj, c) => ({ ...(await client.observe(obj, c)), ...extra }),
      };
    },
  };
}

const CASES: Array<{ why: string; asked: number; want: number }> = [
  { why: 'a deferred request due in 30 s', asked: 30_000, want: 30_000 },
  { why: 'never sooner than a second (no hot loop)', asked: 0, want: 1000 },
  { why: 'never later than the poll interval', asked: 3_600_000, want: 660_000 },
];

for (const c of CASES)
  test(`requeueAfterMs: ${c.why}`, async (t) => {
    const env = new FakeEnv();
    env.put(thing('web'));
    env.things.set('t9', { id: 't9', name: 'ns/web', color: 'red' });
    const o = env.get('web');
    env.objects.set('ns/web', { ...o, status: { thingId: 't9' } });
    const r = await env
      .reconciler({ kind: kindObserving(env, { requeueAfterMs: c.asked }) })
      .reconcile('ns/web');
    t.is(r.outcome, 'success');
    t.true((r.requeueAfterMs ?? Infinity) <= c.want, `requeue after ${r.requeueAfterMs} ms`);
    if (c.asked >= 1000 && c.asked < 600_000) t.is(r.requeueAfterMs, c.want);
  });

test('events a kind reports with its observation are recorded', async (t) => {
  const env = new FakeEnv();
  env.put(thing('web'));
  env.things.set('t9', { id: 't9', name: 'ns/web', color: 'red' });
  env.objects.set('ns/web', { ...env.get('web'), status: { thingId: 't9' } });
  const events = [{ type: 'Normal' as const, reason: 'PurgeDeferred', message: 'deferred' }];
  await env.reconciler({ kind: kindObserving(env, { events }) }).reconcile('ns/web');
  t.true(env.events.some((e) => e.reason === 'PurgeDeferred' && e.message === 'deferred'));
});
