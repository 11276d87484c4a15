/**
 * The informer's in-memory store of objects keyed `namespace/name`. Objects are stored after
 * a transform ({@link trimObject}) that keeps of `metadata` only what the runtime and the
 * kinds read — dropping `managedFields` (often half an object's size), the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation (a second copy of the spec),
 * ownerReferences and the like — and, for Secrets/ConfigMaps, everything except metadata and
 * data. This is what keeps the heap per cached object small (docs/runtime.md, Memory).
 */
import { Interner, SharedRecords } from './intern.js';
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

/** Annotation kubectl writes with a full copy of the applied object; never read here. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The metadata fields a cached object keeps (everything the runtime and the kinds read). */
export const KEPT_METADATA = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'labels',
  'annotations',
  'finalizers',
] as const;

/**
 * Strings every object repeats (API version, kind, namespace, finalizer, condition type,
 * status and reason, the account of an ownership record): one copy, not one per object.
 */
const common = new Interner(1024);
/** Timestamps and condition messages: shared while objects written together repeat them. */
const recent = new Interner(4096);
/**
 * Conditions, condition lists and ownership records: equal ones shared (frozen) while objects
 * written together repeat them (every object written in one second with the same outcome).
 */
const records = new SharedRecords(4096);

function intern(value: string): string {
  return common.intern(value);
}

/** Replaces the string members `fields` of `record` by their copies in `table`, in place. */
function internFields(record: unknown, fields: readonly string[], table: Interner): void {
  if (record === null || typeof record !== 'object') return;
  const r = record as Record<string, unknown>;
  for (const f of fields) {
    const v = r[f];
    if (typeof v === 'string') r[f] = table.intern(v);
  }
}

/** How deep the spec/status walk goes: hostnames and similar lists sit at depth 2-3. */
const MAX_DEPTH = 4;

/** Adds the strings of `value` (objects and arrays walked to {@link MAX_DEPTH}) to `into`. */
function collectStrings(value: unknown, into: Map<string, string>, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  for (const v of Object.values(value)) {
    if (typeof v === 'string') into.set(v, v);
    else collectStrings(v, into, depth + 1);
  }
}

/**
 * Replaces, in place (a fresh parse), every string of `value` equal to one of `known` by
 * that copy: a status repeats strings of its spec (a hostname in spec and status), and a
 * parse gives each occurrence its own copy.
 */
function reuseStrings(value: unknown, known: Map<string, string>, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (Object.isFrozen(value)) return;
  const r = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(r)) {
    const hit = typeof v === 'string' ? known.get(v) : undefined;
    if (hit !== undefined) r[k] = hit;
    else reuseStrings(v, known, depth + 1);
  }
}

/** The status's strings shared with its spec, then with other objects (in place). */
function shareStatusStrings(obj: KubeObject): void {
  if (obj.spec !== undefined && obj.status !== undefined) {
    const known = new Map<string, string>();
    collectStrings(obj.spec, known);
    reuseStrings(obj.status, known);
  }
  internStatus(obj.status);
}

/** Replaces the repeated strings of a status by shared copies, in place (a fresh parse). */
function internStatus(status: unknown): void {
  if (status === null || typeof status !== 'object') return;
  const st = status as Record<string, unknown>;
  internFields(st, ['lastSyncTime'], recent);
  internFields(st.ownership, ['account', 'deletionPolicy'], common);
  if (st.ownership !== undefined) st.ownership = records.share(st.ownership);
  if (!Array.isArray(st.conditions)) return;
  for (const c of st.conditions) {
    internFields(c, ['type', 'status', 'reason'], common);
    internFields(c, ['message', 'lastTransitionTime'], recent);
  }
  st.conditions = records.shareList(st.conditions);
}

function trimAnnotations(
  a: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (a === undefined || !(LAST_APPLIED in a)) return a;
  const { [LAST_APPLIED]: _drop, ...rest } = a;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * The object as the cache keeps it: `apiVersion`, `kind`, `spec`, `status` and every other
 * top-level member unchanged; `metadata` reduced to {@link KEPT_METADATA} without the
 * last-applied annotation; repeated strings shared (in the status too: conditions, sync time,
 * ownership). A fresh object (fast V8 shape).
 */
export function trimObject<T extends KubeObject>(obj: T): T {
  const m = obj.metadata;
  const metadata: KubeObject['metadata'] = { name: m.name };
  for (const f of KEPT_METADATA) {
    if (f === 'name' || m[f] === undefined) continue;
    (metadata as Record<string, unknown>)[f] = m[f];
  }
  if (m.namespace !== undefined) metadata.namespace = intern(m.namespace);
  const annotations = trimAnnotations(m.annotations);
  if (annotations) metadata.annotations = annotations;
  else delete metadata.annotations;
  if (m.finalizers) metadata.finalizers = m.finalizers.map(intern);
  if (typeof m.creationTimestamp === 'string')
    metadata.creationTimestamp = recent.intern(m.creationTimestamp);
  shareStatusStrings(obj);
  const out = { ...obj, metadata } as T;
  if (typeof obj.apiVersion === 'string') out.apiVersion = intern(obj.apiVersion);
  if (typeof obj.kind === 'string') out.kind = intern(obj.kind);
  return out;
}

/**
 * Keeps only what the runtime needs of a Secret/ConfigMap: metadata (trimmed), data and a
 * ConfigMap's binaryData (an image a kind uploads).
 */
export function keepMetadataAndData(obj: KubeObject): KubeObject {
  const m = obj.metadata;
  const binary = obj.binaryData;
  return {
    ...(binary === undefined ? {} : { binaryData: binary }),
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
   * Writes an object the runtime itself just wrote to the API (write-through), only over an
   * older copy of the same object (same uid) that the cache still holds. The answer to a write
   * can be processed after the watch's DELETED event (or a relist that dropped the object): the
   * cache must not store a deleted object again, where it would stay until the next relist and
   * every pass on it would call the platform. A missing entry is the tombstone.
   */
  setIfNewer(obj: T): void {
    // A write's answer carries managedFields and the rest; the object must stay the same
    // instance (callers compare identity), so the heavy members are dropped in place.
    const m = obj.metadata as Record<string, unknown>;
    if (m.managedFields !== undefined) delete m.managedFields;
    if (obj.metadata.annotations && LAST_APPLIED in obj.metadata.annotations)
      obj.metadata.annotations = trimAnnotations(obj.metadata.annotations);
    const prev = this.items.get(keyOf(obj));
    if (!prev || prev.metadata.uid !== obj.metadata.uid) return;
    const cmp = compareResourceVersions(
      prev.metadata.resourceVersion,
      obj.metadata.resourceVersion,
    );
    if (cmp !== undefined && cmp >= 0) return;
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
