/**
 * Compare-then-write of `.status` through the `/status` subresource: one write per reconcile
 * at most, and none when nothing changed.
 *
 * "Changed" is judged against the cached object's status. A field the CRD schema prunes
 * would otherwise look changed forever, so the writer also remembers, per object, the status
 * it last asked for and what the server stored: if the same status is asked for again and
 * the cache still shows what the server stored, no write is made. It keeps digests (SHA-1
 * of a canonical JSON form, 27 characters), not copies of the two statuses, and only for
 * objects whose stored status differs from the one asked for (docs/runtime.md, Memory).
 */
import { createHash } from 'node:crypto';
import { createMergePatch, jsonEqual, type JsonObject } from './merge-patch.js';
import { objectKey } from './resource.js';
import type { ManagedObject, ManagedStatus } from './types.js';

/** Performs the actual status write; returns the object as stored by the server. */
export type StatusPatchFn = (obj: ManagedObject, patch: JsonObject) => Promise<ManagedObject>;

interface Memo {
  /** The object the entry belongs to (a re-created object of the same name starts afresh). */
  uid: string | undefined;
  /** Digest of the status last asked for. */
  desired: string;
  /** Digest of the status the server stored in answer. */
  stored: string;
}

/** JSON with object keys sorted and undefined members left out (as {@link jsonEqual} compares). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Digest of a status, for the memo. */
export function statusDigest(status: unknown): string {
  // base64url of 20 bytes is 27 characters with no padding to cut: a slice would keep its
  // 28-character parent alive as well.
  return createHash('sha1')
    .update(canonical(status ?? {}))
    .digest('base64url');
}

/** See the module comment. */
export class StatusWriter {
  private readonly memo = new Map<string, Memo>();

  constructor(private readonly patchStatus: StatusPatchFn) {}

  /** True when writing `desired` over the status of `obj` would change anything. */
  needsWrite(obj: ManagedObject, desired: ManagedStatus): boolean {
    const current: JsonObject = obj.status ?? {};
    if (jsonEqual(current, desired)) return false;
    const m = this.memo.get(memoKey(obj));
    return !(
      m &&
      m.uid === obj.metadata.uid &&
      m.desired === statusDigest(desired) &&
      m.stored === statusDigest(current)
    );
  }

  /**
   * Writes `desired` when it differs; returns the stored object, or undefined when no write
   * was needed. The merge patch carries the cached resourceVersion, so a write based on a
   * stale read fails with 409 instead of overwriting newer status.
   */
  async write(obj: ManagedObject, desired: ManagedStatus): Promise<ManagedObject | undefined> {
    if (!this.needsWrite(obj, desired)) return undefined;
    const patch = {
      metadata: { resourceVersion: obj.metadata.resourceVersion },
      status: createMergePatch(obj.status ?? {}, desired),
    };
    const stored = await this.patchStatus(obj, patch);
    this.remember(obj, statusDigest(desired), statusDigest(stored.status));
    return stored;
  }

  /**
   * Keeps an entry only when the server stored something other than what was asked for: when
   * it stored the status unchanged, the cache will show exactly `desired` and needsWrite's
   * equality check already answers, so an entry would cost memory per object for nothing.
   */
  private remember(obj: ManagedObject, desired: string, stored: string): void {
    if (desired === stored) this.memo.delete(memoKey(obj));
    else this.memo.set(memoKey(obj), { uid: obj.metadata.uid, desired, stored });
  }

  /** Forgets an object (after it was deleted). */
  forget(obj: ManagedObject): void {
    this.memo.delete(memoKey(obj));
  }

  /**
   * Forgets the object at `namespace/name`: called for every delete event and every pass that
   * finds the object gone, whatever path it took (dry-run, paused, never created).
   */
  forgetKey(key: string): void {
    this.memo.delete(key);
  }

  /** Objects remembered (tests, soak). */
  get size(): number {
    return this.memo.size;
  }
}

function memoKey(obj: ManagedObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name);
}
