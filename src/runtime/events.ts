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
import { flatString } from './flat-string.js';
import { EVENTS, resourcePath } from './resource.js';
import type { ManagedObject } from './types.js';

/** Normal or Warning. */
export type EventType = 'Normal' | 'Warning';

/** Options of {@link EventRecorder}. */
export interface EventRecorderOptions {
  client: KubeClient;
  log: Logger;
  /** reportingController, e.g. `cdn.operator.io/cdn-operator`. */
  controller: string;
  /** reportingInstance (pod name / hostname). */
  instance: string;
  windowMs?: number;
  seriesIntervalMs?: number;
  onEmit?(reason: string, type: EventType): void;
  now?: () => number;
}

interface Seen {
  first: number;
  lastPatch: number;
  count: number;
  name?: string;
  namespace: string;
}

/** Formats a MicroTime (RFC 3339 with microseconds). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** `<object>.<hex nanoseconds>` like client-go (generateName would reject the trailing dot). */
export function eventName(objectName: string, nowMs: number): string {
  const nanos = BigInt(nowMs) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
  return `${objectName.slice(0, 200)}.${nanos.toString(16)}`;
}

/**
 * The identity of an event for deduplication: a digest (27 characters), not the object's
 * uid, reason and message joined — one entry per object lives for the whole window.
 */
function dedupeKey(obj: ManagedObject, type: string, reason: string, note: string): string {
  return createHash('sha1')
    .update(`${obj.metadata.uid ?? obj.metadata.name}\u0000${type}\u0000${reason}\u0000${note}`)
    .digest('base64url');
}

/** See the module comment. */
export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly now: () => number;

  constructor(private readonly opts: EventRecorderOptions) {
    this.now = opts.now ?? Date.now;
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
      prev.count++;
      if (prev.name && now - prev.lastPatch >= (this.opts.seriesIntervalMs ?? 300_000)) {
        prev.lastPatch = now;
        void this.patchSeries(prev, now);
      }
      return;
    }
    const entry: Seen = { first: now, lastPatch: now, count: 1, namespace: obj.metadata.namespace };
    this.seen.set(key, entry);
    this.opts.onEmit?.(reason, type);
    void this.create(obj, type, reason, note, action, now).then((name) => {
      if (name) entry.name = flatString(name);
    });
  }

  /** Number of distinct events remembered (for tests). */
  get size(): number {
    return this.seen.size;
  }

  private prune(now: number): void {
    const windowMs = this.opts.windowMs ?? 3_600_000;
    // Entries are inserted in the order of `first`: the expired ones are at the front, so a
    // record costs the entries it expires, not a walk over every object's entry.
    for (const [k, v] of this.seen) {
      if (now - v.first <= windowMs) break;
      this.seen.delete(k);
    }
  }

  private async create(
    obj: ManagedObject,
    type: EventType,
    reason: string,
    note: string,
    action: string,
    now: number,
  ): Promise<string | undefined> {
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: eventName(obj.metadata.name, now), namespace: obj.metadata.namespace },
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
      const created = await this.opts.client.request<{ metadata: { name: string } }>({
        method: 'POST',
        path: resourcePath(EVENTS, obj.metadata.namespace),
        body,
      });
      return created.metadata.name;
    } catch (err) {
      this.opts.log.warn({ err, reason }, 'Cannot emit event');
      return undefined;
    }
  }

  private async patchSeries(entry: Seen, now: number): Promise<void> {
    try {
      await this.opts.client.request({
        method: 'PATCH',
        path: resourcePath(EVENTS, entry.namespace, entry.name),
        contentType: 'application/merge-patch+json',
        body: { series: { count: entry.count, lastObservedTime: microTime(now) } },
      });
    } catch (err) {
      this.opts.log.debug({ err }, 'Cannot update event series');
    }
  }
}
