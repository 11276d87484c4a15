/**
 * Observe by pages (src/runtime/observe-by-pages.ts, docs/scaling.md): the swept-record cache
 * answers periodic passes only, never a write, never a deleted resource, never an adoption;
 * a failed sweep backs off the sweeps only; every map is cleaned when its object goes.
 */
import test from 'ava';
import { pino } from 'pino';
import { PageObserver, type SweptObject } from '../../../src/runtime/observe-by-pages.js';
import { storeKeyOf, SweptRecords } from '../../../src/runtime/swept-records.js';
import { runSweeps } from '../../../src/runtime/sweeper.js';
import type { SweepSource } from '../../../src/runtime/types.js';
import { FakeEnv, thing, type Thing } from './fake-env.js';

/** The sweeps' sleeps, held until the test lets one go: one sweep per release. */
class SweepClock {
  /** Monotonic ms; every reading advances it, so that each event has its own time. */
  private t = 1000;
  readonly slept: number[] = [];
  private waiting: Array<() => void> = [];
  private onSleep: Array<() => void> = [];

  now = (): number => ++this.t;

  sleep = (ms: number, signal: AbortSignal): Promise<void> => {
    this.slept.push(ms);
    const done = new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    for (const f of this.onSleep.splice(0)) f();
    return done;
  };

  /** Resolves once a sweep loop sleeps (its sweep ended). */
  idle(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.onSleep.push(resolve));
  }

  /** Lets the sleeping loop run its next sweep and waits until it ended. */
  async sweep(): Promise<void> {
    await this.idle();
    this.waiting.shift()?.();
    await new Promise((r) => setImmediate(r));
    await this.idle();
  }
}

interface World {
  env: FakeEnv;
  clock: SweepClock;
  pages: PageObserver;
  changed: SweptObject[];
  listed: number[];
  /** Pages that fail (a 429) once each. */
  failPages: Set<number>;
  stop(): void;
}

/** A FakeEnv whose kind lists its things two per page, and a page observer over it. */
function world(): World {
  const env = new FakeEnv();
  const clock = new SweepClock();
  const changed: SweptObject[] = [];
  const listed: number[] = [];
  const failPages = new Set<number>();
  const source: SweepSource<Thing> = {
    type: 'Thing',
    listPage: (page) => {
      listed.push(page);
      if (failPages.delete(page))
        return Promise.reject(Object.assign(new Error('429 Too Many Requests'), { status: 429 }));
      const all = [...env.things.values()].sort((a, b) => a.id.localeCompare(b.id));
      const items = all.slice((page - 1) * 2, page * 2).map((th) => ({ ...th }));
      return Promise.resolve({ items, more: page * 2 < all.length });
    },
    idOf: (th) => th.id,
    accountRate: () => Promise.resolve(1_000_000),
  };
  env.sweepSource = source;
  const abort = new AbortController();
  const pages = observerOn(clock, changed, abort.signal);
  return { env, clock, pages, changed, listed, failPages, stop: () => abort.abort() };
}

/** A page observer on `clock` that adds every object it tells of to `changed`. */
function observerOn(clock: SweepClock, changed: SweptObject[], signal: AbortSignal): PageObserver {
  return new PageObserver({
    readShare: 1,
    minIntervalMs: 50_000,
    signal,
    log: pino({ level: 'silent' }),
    now: clock.now,
    sleep: clock.sleep,
    onChanged: (objects) => changed.push(...objects),
  });
}

const PERIODIC = { periodic: true };

/** Creates `name` (an event pass), then starts the sweeps and runs the first one. */
async function created(w: World, name: string): Promise<void> {
  w.env.put(thing(name));
  await w.env.reconciler({ pages: w.pages }).reconcile(`ns/${name}`);
  w.pages.start();
  await w.clock.idle();
}

test('a periodic pass after a sweep reads no resource by id; an event pass still does', async (t) => {
  const w = world();
  await created(w, 'a');
  const rec = w.env.reconciler({ pages: w.pages });
  const before = w.env.byIdReads;
  t.is((await rec.reconcile('ns/a', PERIODIC)).outcome, 'success');
  t.is(w.env.byIdReads, before, 'the sweep answered the drift check');
  await rec.reconcile('ns/a');
  t.is(w.env.byIdReads, before + 1, 'a pass that is not periodic reads by id');
  w.stop();
});

test('a write never uses a record older than the object’s last write, and never a cached record at all', async (t) => {
  const w = world();
  await created(w, 'a');
  const rec = w.env.reconciler({ pages: w.pages });
  // Drift behind the operator's back after the sweep: the cache still says red, as wanted.
  w.env.things.get('t1')!.color = 'green';
  const reads = w.env.byIdReads;
  await rec.reconcile('ns/a', PERIODIC);
  t.is(w.env.byIdReads, reads, 'the cached record looked in sync: no read by id');
  // A change to the object (an event pass) reads by id and corrects it: a platform write.
  w.env.put({ ...w.env.get('a'), metadata: { ...w.env.get('a').metadata, labels: { x: 'y' } } });
  await rec.reconcile('ns/a');
  t.deepEqual(w.env.updatedFrom, ['green'], 'the update was decided on the read by id');
  // The sweep's record (red) is older than that write: the next periodic pass must not take
  // it for the truth, or this second drift would wait for another sweep.
  w.env.things.get('t1')!.color = 'green';
  await rec.reconcile('ns/a', PERIODIC);
  t.deepEqual(w.env.updatedFrom, ['green', 'green'], 'read by id, drift corrected');
  t.is(w.env.things.get('t1')!.color, 'red');
  // A sweep started after the write serves the object again.
  await w.clock.sweep();
  const afterSweep = w.env.byIdReads;
  await rec.reconcile('ns/a', PERIODIC);
  t.is(w.env.byIdReads, afterSweep, 'a newer sweep answers again');
  // Drift seen by a sweep: the cached observation wants an update, which reads by id first.
  w.env.things.get('t1')!.color = 'yellow';
  const told = w.changed.length;
  await w.clock.sweep();
  t.deepEqual(w.changed.slice(told), [{ kind: 'thing', key: 'ns/a' }], 'a pass is asked for');
  w.env.things.get('t1')!.color = 'purple';
  await rec.reconcile('ns/a', PERIODIC);
  t.deepEqual(
    w.env.updatedFrom,
    ['green', 'green', 'purple'],
    'the update acted on the read by id (purple), not on the swept record (yellow)',
  );
  t.is(w.env.things.get('t1')!.color, 'red');
  w.stop();
});

test('an observation from a sweep that finds the resource not ready is made again by id', async (t) => {
  const w = world();
  await created(w, 'a');
  w.env.observeNotReady = { reason: 'CertificatePending', message: 'issuing' };
  const reads = w.env.byIdReads;
  await w.env.reconciler({ pages: w.pages }).reconcile('ns/a', PERIODIC);
  t.is(w.env.byIdReads, reads + 1, 'readiness does not wait for the next sweep');
  w.stop();
});

test('a resource deleted on the platform between two sweeps is seen as gone, never served from the older sweep', async (t) => {
  const w = world();
  await created(w, 'a');
  const rec = w.env.reconciler({ pages: w.pages });
  w.env.things.delete('t1');
  await w.clock.sweep();
  t.is(w.pages.records.get(storeKeyOf('acc-1', 'Thing'), 't1'), undefined, 'dropped');
  t.deepEqual(w.changed, [{ kind: 'thing', key: 'ns/a' }], 'its object is told at once');
  const calls = w.env.calls.length;
  await rec.reconcile('ns/a', PERIODIC);
  t.deepEqual(
    w.env.calls.slice(calls),
    ['observe', 'create', 'observe'],
    'read by id, found gone, and handled as gone (this kind creates it again)',
  );
  w.stop();
});

test('a resource created behind the operator’s back is listed but never adopted through a sweep', async (t) => {
  const w = world();
  await created(w, 'a');
  // Someone makes a thing named like an object that has no id yet.
  w.env.things.set('t99', { id: 't99', name: 'ns/b', color: 'red' });
  await w.clock.sweep();
  t.truthy(w.pages.records.get(storeKeyOf('acc-1', 'Thing'), 't99'), 'the sweep saw it');
  w.env.put(thing('b'));
  await w.env.reconciler({ pages: w.pages }).reconcile('ns/b', PERIODIC);
  t.not(w.env.get('b').status?.thingId, 't99', 'not adopted');
  t.is(w.env.things.get('t99')?.name, 'ns/b', 'left alone');
  w.stop();
});

test('a 429 during a sweep backs off the sweeps only: nothing pruned, the next sweep later, writes at once', async (t) => {
  const w = world();
  w.env.put(thing('a'));
  w.env.put(thing('b'));
  w.env.put(thing('c'));
  const rec = w.env.reconciler({ pages: w.pages });
  for (const n of ['a', 'b', 'c']) await rec.reconcile(`ns/${n}`);
  w.pages.start();
  await w.clock.idle();
  t.deepEqual(w.listed, [1, 2], 'two pages of two');
  t.true(w.clock.slept.at(-1)! > 49_000, 'a complete sweep waits for the sweep interval');
  w.failPages.add(2);
  await w.clock.sweep();
  t.deepEqual(w.listed, [1, 2, 1, 2], 'the failed page is not retried within the sweep');
  t.true(w.clock.slept.at(-1)! > 49_000, 'the interval still holds after a failure');
  t.truthy(
    w.pages.records.get(storeKeyOf('acc-1', 'Thing'), 't3'),
    'a failed sweep drops nothing (t3 is on the page that failed)',
  );
  // The writes do not wait: a spec change is applied in its own pass at once.
  w.env.put({ ...w.env.get('c'), spec: { color: 'blue' } });
  await rec.reconcile('ns/c');
  t.is(w.env.things.get('t3')!.color, 'blue');
  w.stop();
});

test('a change is told as soon as its page is read, not when the sweep ends, and a later failed page does not swallow it', async (t) => {
  const w = world();
  for (const n of ['a', 'b', 'c']) w.env.put(thing(n));
  const rec = w.env.reconciler({ pages: w.pages });
  for (const n of ['a', 'b', 'c']) await rec.reconcile(`ns/${n}`);
  w.pages.start();
  await w.clock.idle();
  // Drift on page 1 (t1); page 2 (t3) fails in this sweep.
  w.env.things.get('t1')!.color = 'green';
  w.failPages.add(2);
  const toldAt: number[] = [];
  const listedAtTell = (): number => w.listed.length;
  const onChanged = w.changed.push.bind(w.changed);
  w.changed.push = (...objects: SweptObject[]): number => {
    toldAt.push(listedAtTell());
    return onChanged(...objects);
  };
  await w.clock.sweep();
  t.deepEqual([...w.changed], [{ kind: 'thing', key: 'ns/a' }], 'the drifted object is told');
  t.deepEqual(toldAt, [3], 'told after page 1 of the second sweep, before page 2 was listed');
  w.stop();
});

/** A one-type listing whose pages `listPage` answers, at an unbounded account rate. */
function listing(listPage: SweepSource['listPage']): () => SweepSource {
  return () => ({
    type: 'Thing',
    listPage,
    idOf: () => 'x',
    accountRate: () => Promise.resolve(1_000_000),
  });
}

test('failures in a row back the sweeps off exponentially, up to the cap', async (t) => {
  const clock = new SweepClock();
  const abort = new AbortController();
  let sweeps = 0;
  const loop = runSweeps({
    store: 's',
    records: new SweptRecords(),
    source: listing(() => Promise.reject(new Error('429 Too Many Requests'))),
    active: () => ++sweeps <= 12,
    readShare: 1,
    minIntervalMs: 10,
    now: clock.now,
    sleep: clock.sleep,
    signal: abort.signal,
    log: pino({ level: 'silent' }),
    changed: () => undefined,
  });
  for (let i = 0; i < 11; i++) await clock.sweep().catch(() => undefined);
  t.deepEqual(
    clock.slept.slice(0, 11),
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map((s) => s * 1000),
    '1 s doubling, at most 5 min',
  );
  abort.abort();
  await loop;
});

test('every map entry of an object is removed when it is deleted; the last one retires its store', async (t) => {
  const w = world();
  await created(w, 'a');
  w.env.put(thing('b'));
  const rec = w.env.reconciler({ pages: w.pages });
  await rec.reconcile('ns/b');
  t.deepEqual(w.pages.entries(), { members: 2, writes: 2, stores: 1, sources: 1, ids: 1 });
  rec.forget('ns/a');
  t.deepEqual(w.pages.entries(), { members: 1, writes: 1, stores: 1, sources: 1, ids: 1 });
  rec.forget('ns/b');
  t.deepEqual(w.pages.entries(), { members: 0, writes: 0, stores: 0, sources: 0, ids: 0 });
  t.is(w.pages.records.size(), 0, 'the records of the account and type are gone');
  w.stop();
});

test('the sweep interval runs from the first page’s answer: a first page held by the limiter does not bring the next one closer', async (t) => {
  let now = 0;
  const slept: number[] = [];
  const abort = new AbortController();
  let sweeps = 0;
  const loop = runSweeps({
    store: 's',
    records: new SweptRecords(),
    source: listing(() => {
      now += 700; // the account's limiter held the page, then it was answered
      return Promise.resolve({ items: [], more: false });
    }),
    active: () => ++sweeps <= 1,
    readShare: 1,
    minIntervalMs: 60_000,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    signal: abort.signal,
    log: pino({ level: 'silent' }),
    changed: () => undefined,
  });
  await loop;
  t.deepEqual(
    slept,
    [60_000],
    'the next sweep is due 60 s after the first page’s answer (at 60.7 s)',
  );
});

test('a sweep’s changed ids reach every object reading that id, by its current id only', async (t) => {
  const clock = new SweepClock();
  const platform = new Map([
    ['7', { id: '7', v: 1 }],
    ['8', { id: '8', v: 1 }],
    ['9', { id: '9', v: 1 }],
  ]);
  const source: SweepSource<{ id: string; v: number }> = {
    type: 'Thing',
    listPage: () =>
      Promise.resolve({ items: [...platform.values()].map((r) => ({ ...r })), more: false }),
    idOf: (r) => r.id,
    accountRate: () => Promise.resolve(1_000_000),
  };
  const abort = new AbortController();
  const changed: SweptObject[] = [];
  const pages = observerOn(clock, changed, abort.signal);
  const read = (kind: string, key: string, id: string): Promise<unknown> =>
    pages.read(
      { kind, key, uid: key, account: 'acct', periodic: false, maxAgeMs: 600_000 },
      source,
      id,
      () => Promise.resolve(platform.get(id)),
      () => undefined,
    );
  await read('K', 'ns/a', '7');
  await read('L', 'ns/b', '7');
  await read('K', 'ns/c', '8');
  await read('K', 'ns/c', '9');
  pages.start();
  await clock.idle();
  for (const id of ['7', '8', '9']) platform.get(id)!.v = 2;
  await clock.sweep();
  t.deepEqual(
    changed.map((o) => `${o.kind}/${o.key}`).sort(),
    ['K/ns/a', 'K/ns/c', 'L/ns/b'],
    'both readers of 7 and the reader of 9; nobody reads 8 any more',
  );
  t.is(pages.entries().ids, 1, 'one store indexed');
  pages.forget({ kind: 'K', key: 'ns/a' });
  pages.forget({ kind: 'L', key: 'ns/b' });
  pages.forget({ kind: 'K', key: 'ns/c' });
  t.deepEqual(pages.entries(), { members: 0, writes: 0, stores: 0, sources: 0, ids: 0 });
  abort.abort();
});
