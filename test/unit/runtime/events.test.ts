/**
 * EventRecorder's series patches and window: the recorder keeps small integers per event,
 * not its name (docs/runtime.md, Memory), so the patched name is rebuilt from the object.
 */
import test from 'ava';
import { pino } from 'pino';
import { EventRecorder, eventName, microTime } from '../../../src/runtime/events.js';
import type { KubeClient } from '../../../src/runtime/kube-client.js';
import type { ManagedObject } from '../../../src/runtime/types.js';

interface Sent {
  method: string;
  path: string;
  body: { metadata?: { name: string }; series?: { count: number; lastObservedTime: string } };
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

function obj(name = 'zone-a', uid: string | null = 'u1', namespace = 'team'): ManagedObject {
  return {
    apiVersion: 'v',
    kind: 'K',
    metadata: { name, namespace, ...(uid === null ? {} : { uid }) },
  };
}

function recorder(
  clock: { now: number },
  opts: { failPost?: boolean; windowMs?: number } = {},
): { rec: EventRecorder; sent: Sent[] } {
  const sent: Sent[] = [];
  const client = {
    request: (r: Sent) => {
      sent.push(r);
      if (r.method === 'POST' && opts.failPost) return Promise.reject(new Error('down'));
      // The apiserver answers with another name: the recorder must not depend on the answer.
      return Promise.resolve({ metadata: { name: 'answer' } });
    },
  } as unknown as KubeClient;
  const rec = new EventRecorder({
    client,
    log: pino({ level: 'silent' }),
    controller: 'c',
    instance: 'i',
    windowMs: opts.windowMs ?? 3_600_000,
    seriesIntervalMs: 300_000,
    now: () => clock.now,
  });
  return { rec, sent };
}

test('repeats patch the series of the event created, at most once per interval', async (t) => {
  // Not on a whole second, and far from the epoch: the name encodes the exact millisecond.
  const clock = { now: Date.UTC(2026, 10, 23, 4, 0, 0, 789) };
  const { rec, sent } = recorder(clock);
  rec.record(obj(), 'Warning', 'CannotObserve', 'down');
  await flush();
  const name = sent[0]!.body.metadata!.name;
  t.regex(name, /^zone-a\.[0-9a-f]+$/);
  t.is(BigInt(`0x${name.slice('zone-a.'.length)}`) / 1_000_000n, BigInt(clock.now));
  clock.now += 1000;
  rec.record(obj(), 'Warning', 'CannotObserve', 'down');
  t.is(sent.length, 1, 'inside the series interval: counted only');
  clock.now += 300_000;
  rec.record(obj(), 'Warning', 'CannotObserve', 'down');
  t.is(sent.length, 2);
  t.is(sent[1]!.method, 'PATCH');
  t.is(sent[1]!.path, `/apis/events.k8s.io/v1/namespaces/team/events/${name}`);
  t.deepEqual(sent[1]!.body.series, {
    count: 3,
    lastObservedTime: new Date(clock.now).toISOString().replace(/Z$/, '000Z'),
  });
  clock.now += 299_999;
  rec.record(obj(), 'Warning', 'CannotObserve', 'down');
  t.is(sent.length, 2, 'the interval counts from the last patch');
  clock.now += 1;
  rec.record(obj(), 'Warning', 'CannotObserve', 'down');
  t.is(sent.length, 3);
  t.is(sent[2]!.path, sent[1]!.path);
  t.is(sent[2]!.body.series!.count, 5);
});

test('an event whose create failed gets no series patch', async (t) => {
  const clock = { now: 1_800_000_000_123 };
  const { rec, sent } = recorder(clock, { failPost: true });
  rec.record(obj(), 'Normal', 'Created', 'ok');
  await flush();
  clock.now += 600_000;
  rec.record(obj(), 'Normal', 'Created', 'ok');
  t.is(sent.length, 1);
  t.is(rec.size, 1, 'still deduplicated');
});

test('the window expires entries by their first millisecond, oldest first', (t) => {
  const clock = { now: 1_800_000_000_900 };
  const { rec, sent } = recorder(clock, { windowMs: 1000 });
  rec.record(obj('a', 'ua'), 'Normal', 'R', 'm');
  clock.now += 500;
  rec.record(obj('b', 'ub'), 'Normal', 'R', 'm');
  clock.now += 500;
  rec.record(obj('a', 'ua'), 'Normal', 'R', 'm');
  t.is(sent.length, 2, 'exactly the window old: still a repeat');
  clock.now += 1;
  rec.record(obj('c', 'uc'), 'Normal', 'R', 'm');
  t.is(rec.size, 2, 'a expired, b kept');
  rec.record(obj('a', 'ua'), 'Normal', 'R', 'm');
  t.is(sent.length, 4, 'a emitted again');
});

test('objects without a uid are told apart by namespace', (t) => {
  const clock = { now: 1_800_000_000_000 };
  const { rec, sent } = recorder(clock);
  rec.record(obj('a', null, 'one'), 'Normal', 'R', 'm');
  rec.record(obj('a', null, 'two'), 'Normal', 'R', 'm');
  t.is(sent.length, 2);
});

test('events are deduplicated per object, reason and message within the window', (t) => {
  const clock = { now: 0 };
  const { rec, sent } = recorder(clock, { windowMs: 60_000 });
  const o = obj('a', 'u');
  rec.record(o, 'Warning', 'CannotObserveExternalResource', 'down');
  rec.record(o, 'Warning', 'CannotObserveExternalResource', 'down');
  rec.record(o, 'Warning', 'CannotObserveExternalResource', 'other message');
  clock.now = 61_000;
  rec.record(o, 'Warning', 'CannotObserveExternalResource', 'down');
  t.is(sent.length, 3);
  t.like(sent[0]!.body, {
    apiVersion: 'events.k8s.io/v1',
    reason: 'CannotObserveExternalResource',
    type: 'Warning',
    note: 'down',
    regarding: { name: 'a', uid: 'u' },
  });
});

test('event names and MicroTime', (t) => {
  t.regex(eventName('my-obj', 1700000000000), /^my-obj\.[0-9a-f]+$/);
  t.is(microTime(Date.UTC(2025, 0, 2, 3, 4, 5, 678)), '2025-01-02T03:04:05.678000Z');
});
