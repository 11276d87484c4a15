/**
 * A throttled account must not stall the other accounts of a kind (issue 28, item 1). The
 * platform slots bound a kind's platform calls; a call whose account's limiter holds it back
 * (a Retry-After pause, no token) waits for its own account only, without holding a slot.
 * Before: with tenant A's account paused for 5 s, A's waiting calls held all 8 slots and
 * tenant B's observe on a healthy account took 4.9 s instead of milliseconds.
 *
 * Real CDN clients (transport, per-account limiter) over a fake fetch, real platform slots.
 */
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { CdnClient } from '../../../src/cdn/client.js';
import { accountIdFor } from '../../../src/cdn/credentials.js';
import type { FetchLike } from '../../../src/cdn/options.js';
import { limiterFor } from '../../../src/cdn/rate-limit.js';
import { DEFAULT_RATE_LIMIT } from '../../../src/cdn/options.js';
import { PlatformSlots, slotClient } from '../../../src/runtime/platform-slots.js';
import type { ExternalClient, ExternalContext, ManagedObject } from '../../../src/runtime/types.js';
import { pino } from 'pino';
import { FakeEnv, thing } from './fake-env.js';
import { slowKube, startController } from './slow-kube.js';

const log = pino({ level: 'silent' });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Answers every GET /pullzone/{id} with a small zone at once, counting requests per key. */
function fakePlatform(sent: Map<string, number>): FetchLike {
  return (_url, init) => {
    const key = init.headers.AccessKey ?? '';
    sent.set(key, (sent.get(key) ?? 0) + 1);
    return Promise.resolve({
      status: 200,
      statusText: 'OK',
      headers: { get: () => null },
      text: () => Promise.resolve(JSON.stringify({ Id: 1, Name: 'z' })),
    });
  };
}

/** An ExternalClient whose observe is one GET through `client`. */
function observer(client: CdnClient): ExternalClient {
  const no = (): Promise<never> => Promise.reject(new Error('not used'));
  return {
    observe: async (_obj, ctx) => {
      await client.getPullZone(1, { signal: ctx.signal });
      return { exists: true, upToDate: true, diff: [] };
    },
    create: no,
    update: no,
    delete: no,
  };
}

const OBJ = { apiVersion: 'x/v1', kind: 'Thing', metadata: { name: 'o', namespace: 'ns' } };

/** How tenant A's account is throttled. */
const THROTTLES: Array<{ why: string; throttle(key: string): void; answer429?: boolean }> = [
  {
    why: 'its limiter is paused (a Retry-After seen by another call)',
    throttle: (key) => limiterFor(accountIdFor(key), DEFAULT_RATE_LIMIT).pauseFor(3000),
  },
  {
    why: 'the platform answers 429 with Retry-After: 3 (the call sleeps before its retry)',
    throttle: () => undefined,
    answer429: true,
  },
];

for (const c of THROTTLES)
  test(`calls waiting for their own account hold no platform slot (${c.why}): another account's call is served at once`, async (t) => {
    const sent = new Map<string, number>();
    const keyA = `team-a-${randomUUID()}`;
    const keyB = `team-b-${randomUUID()}`;
    const platform = fakePlatform(sent);
    const throttledUntil = performance.now() + 3000;
    const fetch: FetchLike = (url, init) =>
      c.answer429 && init.headers.AccessKey === keyA && performance.now() < throttledUntil
        ? Promise.resolve({
            status: 429,
            statusText: 'Too Many Requests',
            headers: { get: (h: string) => (h.toLowerCase() === 'retry-after' ? '3' : null) },
            text: () => Promise.resolve(''),
          })
        : platform(url, init);
    const clientOf = (key: string): CdnClient =>
      new CdnClient({ credentials: key, baseUrl: 'http://cdn.test', fetch });
    const a = clientOf(keyA);
    const b = clientOf(keyB);
    c.throttle(keyA);
    const slots = new PlatformSlots(8);
    const abort = new AbortController();
    const ctx: ExternalContext = { createPending: false, log, signal: abort.signal };
    const wrappedA = slotClient(observer(a), slots, () => 'high');
    const wrappedB = slotClient(observer(b), slots, () => 'high');
    const waitingA = Array.from({ length: 12 }, () => wrappedA.observe(OBJ, ctx));
    await new Promise((r) => setTimeout(r, 100));
    const started = performance.now();
    await wrappedB.observe(OBJ, ctx);
    const tookMs = performance.now() - started;
    t.true(
      tookMs < 1000,
      `B's observe took ${tookMs.toFixed(0)} ms while A's account was throttled`,
    );
    t.is(sent.get(keyA) ?? 0, 0, "A's calls were still held back by their own account");
    abort.abort();
    await Promise.allSettled(waitingA);
    t.is(slots.inUse, 0, 'every slot was given back');
    t.is(slots.waiting, 0);
    a.close();
    b.close();
  });

test('a call that waited for its account takes a slot again before it sends: never more than size calls on the wire', async (t) => {
  const keyA = `team-a-${randomUUID()}`;
  let onWire = 0;
  let most = 0;
  const fetch: FetchLike = async () => {
    onWire++;
    most = Math.max(most, onWire);
    await new Promise((r) => setTimeout(r, 20));
    onWire--;
    return {
      status: 200,
      statusText: 'OK',
      headers: { get: () => null },
      text: () => Promise.resolve('{"Id":1}'),
    };
  };
  const a = new CdnClient({ credentials: keyA, baseUrl: 'http://cdn.test', fetch });
  limiterFor(accountIdFor(keyA), DEFAULT_RATE_LIMIT).pauseFor(200);
  const slots = new PlatformSlots(2);
  const ctx: ExternalContext = { createPending: false, log, signal: new AbortController().signal };
  const wrapped = slotClient(observer(a), slots, () => 'low');
  await Promise.all(Array.from({ length: 10 }, () => wrapped.observe(OBJ, ctx)));
  t.true(most <= 2, `at most 2 requests on the wire at once (saw ${most})`);
  t.is(slots.inUse, 0);
  a.close();
});

test("passes waiting for their own paused account hold no pass either: another tenant's pass runs at once", async (t) => {
  // --max-concurrent-reconciles passes run at a time; tenant A has more keys than that, all
  // waiting for A's paused account. Tenant B's change must not wait for one of them to end.
  const keyA = `team-a-${randomUUID()}`;
  const keyB = `team-b-${randomUUID()}`;
  const sent = new Map<string, number>();
  const fetch = fakePlatform(sent);
  const clients = new Map([
    ['team-a', new CdnClient({ credentials: keyA, baseUrl: 'http://cdn.test', fetch })],
    ['team-b', new CdnClient({ credentials: keyB, baseUrl: 'http://cdn.test', fetch })],
  ]);
  limiterFor(accountIdFor(keyA), DEFAULT_RATE_LIMIT).pauseFor(3000);
  const env = new FakeEnv();
  const objects = new Map<string, ManagedObject>();
  const synced = (name: string, namespace: string): ManagedObject => {
    const o = env.put({
      ...thing(name),
      metadata: { name, namespace },
      status: { thingId: name },
    });
    objects.set(name, o);
    return o;
  };
  for (let i = 0; i < 20; i++) synced(`a-${i}`, 'team-a');
  synced('b-0', 'team-b');
  const kube = await slowKube(objects, 5, { writes: 0 });
  t.teardown(() => kube.close());
  const observed: string[] = [];
  const kind = env.kind();
  kind.connect = (obj) => {
    const client = clients.get(obj.metadata.namespace)!;
    return Promise.resolve({
      ...observer(client),
      account: obj.metadata.namespace,
      observe: async (o, ctx) => {
        await client.getPullZone(1, { signal: ctx.signal });
        observed.push(o.metadata.name);
        return { exists: true, externalId: o.metadata.name, upToDate: true, diff: [] };
      },
    });
  };
  const { controller, stop } = await startController(kind, kube, 2);
  t.teardown(stop);
  // Let the start-up passes run: B's completes, A's all wait for A's account.
  for (let i = 0; i < 100 && !observed.includes('b-0'); i++) await sleep(20);
  for (let i = 0; i < 20; i++) controller.enqueue(`team-a/a-${i}`, 'high');
  await sleep(100);
  const started = performance.now();
  const before = observed.filter((n) => n === 'b-0').length;
  controller.enqueue('team-b/b-0', 'high');
  while (
    observed.filter((n) => n === 'b-0').length === before &&
    performance.now() - started < 5000
  )
    await sleep(10);
  const tookMs = performance.now() - started;
  t.true(
    tookMs < 1000,
    `B's pass took ${tookMs.toFixed(0)} ms while A's passes waited for A's account`,
  );
  t.is(sent.get(keyA) ?? 0, 0, "A's passes were still held back by their own account");
  for (const c of clients.values()) c.close();
});
