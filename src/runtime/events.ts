/**
 * Kubernetes Events (events.k8s.io/v1) about managed objects, deduplicated: the same
 * (object, type, reason, message) is emitted at most once per window (default 1 h), so a
 * periodic resync or a retry loop never produces an event per pass. Repeats inside the
 * window bump the event's `series` (count, lastObservedTime) at most once per
 * `seriesIntervalMs`. Emission is fire-and-forget: a failure is logged at debug level and
 * never fails a reconcile.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { truncateMessage } from './conditions.js';
import type { KubeClient } from './kube-client.js';
import { EVENTS, resourcePath } from './resource.js';
import type { ManagedObject } from './types.js';

/** Normal or Warning. */
export type EventType = 'Normal' | 'Warning';

/** Options of {@link EventRecorder}. */
export interface EventRecorderOptions {
  client: KubeClient;
  log: Logger;
  /** reportingController (`REPORTING_CONTROLLER` of reasons.ts). */
  controller: string;
  /** reportingInstance (pod name / hostname). */
  instance: string;
  windowMs?: number;
  seriesIntervalMs?: number;
  onEmit?(reason: string, type: EventType): void;
  now?: () => number;
}

/**
 * What the recorder keeps per event, one per object for the whole window: small integers
 * only, which V8 stores in the record itself (an epoch-ms double or a string would each be
 * one more heap object). The event's name is not kept: it is rebuilt from the object passed
 * to record() and `sec`/`sub` (docs/runtime.md, Memory).
 */
interface Seen {
  /** Whole seconds from the recorder's base to the first emission. */
  sec: number;
  /** Nanoseconds into that second: its milliseconds × 10^6 plus the name's random part. */
  sub: number;
  /** Milliseconds from the first emission to the last series patch; -1 until the event exists. */
  patched: number;
  count: number;
}

const NS_PER_MS = 1_000_000;

/** Formats a MicroTime (RFC 3339 with microseconds). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/**
 * `<object>.<hex nanoseconds>` like client-go (generateName would reject the trailing dot):
 * `nowMs` in nanoseconds plus `random` (below 10^6) so that events of one millisecond differ.
 */
export function eventName(
  objectName: string,
  nowMs: number,
  random = Math.floor(Math.random() * NS_PER_MS),
): string {
  const nanos = BigInt(nowMs) * BigInt(NS_PER_MS) + BigInt(random);
  return `${objectName.slice(0, 200)}.${nanos.toString(16)}`;
}

/**
 * The identity of an event for deduplication: a digest (first 12 bytes of SHA-1, 16
 * characters: 96 bits make a collision between live entries vanishingly unlikely), not the
 * object's uid, reason and message joined — one entry per object lives for the whole window.
 * Encoded from the bytes kept, so no longer string stays behind it.
 */
function dedupeKey(obj: ManagedObject, type: string, reason: string, note: string): string {
  const m = obj.metadata;
  // Without a uid the namespace tells apart objects of one name (their events differ).
  const who = m.uid ?? `${m.namespace}/${m.name}`;
  return createHash('sha1')
    .update(`${who}\u0000${type}\u0000${reason}\u0000${note}`)
    .digest()
    .toString('base64url', 0, 12);
}

/** See the module comment. */
export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly now: () => number;
  /** Whole second (epoch ms) the entries' times count from: they stay small integers. */
  private readonly base: number;

  constructor(private readonly opts: EventRecorderOptions) {
    this.now = opts.now ?? Date.now;
    this.base = Math.floor(this.now() / 1000) * 1000;
  }

  /** Records an event unless an identical one was emitted within the window. */
  record(
    obj: ManagedObject,
    type: EventType,
    reason: string,
    message: string,
    action = reason,
  ): void {
    const note = truncateMessage(message, 1000);
    const key = dedupeKey(obj, type, reason, note);
    const now = this.now();
    this.prune(now);
    const prev = this.seen.get(key);
    if (prev) {
      this.repeat(obj, prev, now);
      return;
    }
    const rel = now - this.base;
    const sec = Math.floor(rel / 1000);
    const random = Math.floor(Math.random() * NS_PER_MS);
    const entry: Seen = {
      sec,
      sub: (rel - sec * 1000) * NS_PER_MS + random,
      patched: -1,
      count: 1,
    };
    this.seen.set(key, entry);
    this.opts.onEmit?.(reason, type);
    const name = eventName(obj.metadata.name, now, random);
    void this.create(obj, name, type, reason, note, action, now).then((created) => {
      if (created) entry.patched = 0;
    });
  }

  /** Number of distinct events remembered (for tests). */
  get size(): number {
    return this.seen.size;
  }

  /** Epoch ms of an entry's first emission. */
  private firstOf(entry: Seen): number {
    return this.base + entry.sec * 1000 + Math.floor(entry.sub / NS_PER_MS);
  }

  /** A repeat inside the window: counted, and patched into the event's series now and then. */
  private repeat(obj: ManagedObject, entry: Seen, now: number): void {
    entry.count++;
    if (entry.patched < 0) return;
    const first = this.firstOf(entry);
    if (now - (first + entry.patched) < (this.opts.seriesIntervalMs ?? 300_000)) return;
    entry.patched = now - first;
    const name = eventName(obj.metadata.name, first, entry.sub % NS_PER_MS);
    void this.patchSeries(obj.metadata.namespace, name, entry.count, now);
  }

  private prune(now: number): void {
    const windowMs = this.opts.windowMs ?? 3_600_000;
    // Entries are inserted in the order of their first emission: the expired ones are at the
    // front, so a record costs the entries it expires, not a walk over every object's entry.
    for (const [k, v] of this.seen) {
      if (now - this.firstOf(v) <= windowMs) break;
      this.seen.delete(k);
    }
  }

  /** Posts the event; true when the apiserver created it. */
  private async create(
    obj: ManagedObject,
    name: string,
    type: EventType,
    reason: string,
    note: string,
    action: string,
    now: number,
  ): Promise<boolean> {
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace: obj.metadata.namespace },
      eventTime: microTime(now),
      reportingController: this.opts.controller,
      reportingInstance: this.opts.instance,
      action: action.slice(0, 128),
      reason: reason.slice(0, 128),
      type,
      note,
      regarding: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.metadata.name,
        namespace: obj.metadata.namespace,
        uid: obj.metadata.uid,
        resourceVersion: obj.metadata.resourceVersion,
      },
    };
    try {
      await this.opts.client.request({
        method: 'POST',
        path: resourcePath(EVENTS, obj.metadata.namespace),
        body,
      });
      return true;
    } catch (err) {
      this.opts.log.warn({ err, reason }, 'Cannot emit event');
      return false;
    }
  }

  private async patchSeries(
    namespace: string,
    name: string,
    count: number,
    now: number,
  ): Promise<void> {
    try {
      await this.opts.client.request({
        method: 'PATCH',
        path: resourcePath(EVENTS, namespace, name),
        contentType: 'application/merge-patch+json',
        body: { series: { count, lastObservedTime: microTime(now) } },
      });
    } catch (err) {
      this.opts.log.debug({ err }, 'Cannot update event series');
    }
  }
}
