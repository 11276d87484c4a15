/**
 * The informer's in-memory store of objects keyed `namespace/name`. Objects are stored after
 * a transform that strips `metadata.managedFields` (often half an object's size) and, for
 * Secrets/ConfigMaps, everything except metadata and data.
 */
import { objectKey } from './resource.js';

/** The shape every cached Kubernetes object has. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
    managedFields?: unknown;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/** Removes managedFields (server-side apply bookkeeping the runtime never reads). */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  if (obj.metadata.managedFields === undefined) return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** Keeps only what the runtime needs of a Secret/ConfigMap: metadata (trimmed) and data. */
export function keepMetadataAndData(obj: KubeObject): KubeObject {
  const m = obj.metadata;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
    },
    data: obj.data,
  };
}

/** Key of a cached object. */
export function keyOf(obj: KubeObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name);
}

/**
 * Compares two resourceVersions when both are decimal integers (etcd revisions, as every
 * apiserver produces today); returns undefined when they are not comparable.
 */
export function compareResourceVersions(a?: string, b?: string): number | undefined {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** True when `obj` is an older version of the same object than `than`. */
export function isOlder(obj: KubeObject, than: KubeObject): boolean {
  if (obj.metadata.uid !== than.metadata.uid) return false;
  const cmp = compareResourceVersions(obj.metadata.resourceVersion, than.metadata.resourceVersion);
  return cmp !== undefined && cmp < 0;
}

/** A keyed store. */
export class Store<T extends KubeObject = KubeObject> {
  private readonly items = new Map<string, T>();

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  set(obj: T): T | undefined {
    const key = keyOf(obj);
    const prev = this.items.get(key);
    this.items.set(key, obj);
    return prev;
  }

  delete(key: string): T | undefined {
    const prev = this.items.get(key);
    this.items.delete(key);
    return prev;
  }

  /**
   * Stores an object from a list or watch event unless the store holds a newer version of
   * the same object (a write-through copy the runtime made after its own write): a late event
   * must never move the cache backwards. Returns the previous entry and whether it was replaced.
   */
  setUnlessOlder(obj: T): { prev: T | undefined; stored: boolean } {
    const prev = this.items.get(keyOf(obj));
    if (prev && isOlder(obj, prev)) return { prev, stored: false };
    this.items.set(keyOf(obj), obj);
    return { prev, stored: true };
  }

  /**
   * Writes an object the runtime itself just wrote to the API (write-through), unless the
   * cache already holds a newer version of the same object.
   */
  setIfNewer(obj: T): void {
    const prev = this.items.get(keyOf(obj));
    if (prev && prev.metadata.uid !== obj.metadata.uid) return;
    const cmp = compareResourceVersions(
      prev?.metadata.resourceVersion,
      obj.metadata.resourceVersion,
    );
    if (prev && cmp !== undefined && cmp >= 0) return;
    this.items.set(keyOf(obj), obj);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }
}
