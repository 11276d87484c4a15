/**
 * Secondary caches: Secrets and ConfigMaps in the namespaces the operator may read them in,
 * serving `ConnectContext.readSecret/readConfigMap` and triggering dependents. Only objects
 * that a managed object references keep their `data` in memory; every other Secret (Helm
 * release Secrets, service-account tokens...) is held as name + resourceVersion only, so the
 * cache grows with what objects use, not with what the cluster holds. A read of an object
 * cached without data, or outside the cached namespaces, is a GET. A Secret's controller
 * reference is kept too (connection Secrets are written only into Secrets their object
 * controls, see connection-secret.ts).
 */
import type { Logger } from 'pino';
import {
  compareResourceVersions,
  keepMetadataAndData,
  trimObject,
  type KubeObject,
} from './cache.js';
import { Informer } from './informer.js';
import { isKubeStatus, type KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import { objectKey, resourcePath, type ResourceType } from './resource.js';

/** Marks a cached object whose data was not kept (not referenced when it was stored). */
const DATA_DROPPED = 'cdnOperatorDataDropped';

/** An ownerReference as stored on an object. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The controller reference among `raw`'s ownerReferences, as a one-element list (or none). */
function controllerReferences(raw: KubeObject | undefined): OwnerReference[] | undefined {
  const refs = raw?.metadata.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const c = (refs as OwnerReference[]).find((r) => r.controller === true);
  return c
    ? [{ apiVersion: c.apiVersion, kind: c.kind, name: c.name, uid: c.uid, controller: true }]
    : undefined;
}

/**
 * What the cache keeps of a Secret or ConfigMap: metadata and the controller reference always,
 * `data` only when a managed object references it (or when no reference predicate is given).
 */
export function trimSecondary(
  obj: KubeObject,
  isReferenced?: (namespace: string, name: string) => boolean,
  raw?: KubeObject,
): KubeObject {
  const kept = keepMetadataAndData(obj);
  const owners = controllerReferences(raw ?? obj);
  if (owners) kept.metadata.ownerReferences = owners;
  if (!isReferenced || isReferenced(obj.metadata.namespace ?? '', obj.metadata.name)) return kept;
  return { ...kept, data: undefined, binaryData: undefined, [DATA_DROPPED]: true };
}

/** True when `fresh` (with data) may replace `cached` (the same object, stored without data). */
function isFillable(cached: KubeObject, fresh: KubeObject): boolean {
  if (cached[DATA_DROPPED] !== true || fresh[DATA_DROPPED] === true) return false;
  if (cached.metadata.uid !== fresh.metadata.uid) return false;
  const cmp = compareResourceVersions(
    cached.metadata.resourceVersion,
    fresh.metadata.resourceVersion,
  );
  return cmp !== undefined && cmp <= 0;
}

/** {@link SecondaryCache.cached}: the cache cannot answer for this object; read it with a GET. */
export const NOT_CACHED = Symbol('not cached');

/** Informers of one core kind (Secret or ConfigMap) across the watched namespaces. */
export class SecondaryCache {
  private readonly informers = new Map<string, Informer>();

  constructor(
    private readonly client: KubeClient,
    private readonly type: ResourceType,
    namespaces: string[],
    log: Logger,
    metrics: OperatorMetrics,
    onChange: (obj: KubeObject) => void,
    stallTimeoutMs?: number,
    /** Whether a managed object references the object; without it every object keeps its data. */
    private readonly isReferenced?: (namespace: string, name: string) => boolean,
  ) {
    for (const ns of namespaces.length > 0 ? namespaces : ['']) {
      this.informers.set(
        ns,
        new Informer({
          client,
          type,
          namespace: ns,
          log,
          transform: (o, raw) => this.trim(o, raw),
          ...(stallTimeoutMs ? { stallTimeoutMs } : {}),
          hooks: metrics.informerHooks(type.plural),
          handlers: {
            onAdd: onChange,
            // The echo of the runtime's own write, already stored by write-through, is no change.
            onUpdate: (old, obj) => {
              if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) onChange(obj);
            },
            onDelete: onChange,
          },
        }),
      );
    }
  }

  start(): void {
    for (const i of this.informers.values()) i.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /**
   * The cached object (metadata, controller reference, data), undefined when the cache knows
   * it is absent, or {@link NOT_CACHED} when the cache cannot answer: its namespace is not
   * watched, the informer has not synced, or its data was not kept (nothing referenced it).
   */
  cached(namespace: string, name: string): KubeObject | undefined | typeof NOT_CACHED {
    const informer = this.informers.get(namespace) ?? this.informers.get('');
    if (!informer?.hasSynced()) return NOT_CACHED;
    const obj = informer.store.get(objectKey(namespace, name));
    return obj && obj[DATA_DROPPED] === true ? NOT_CACHED : obj;
  }

  /**
   * Stores an object the runtime just wrote (its answer) unless the cache holds a newer one,
   * so the next pass does not read its own write as stale.
   */
  storeWritten(raw: KubeObject): void {
    const namespace = raw.metadata.namespace ?? '';
    const informer = this.informers.get(namespace) ?? this.informers.get('');
    if (!informer?.hasSynced()) return;
    informer.store.setIfNewer(this.trim(trimObject(raw), raw));
  }

  /** Decoded `data` of an object, from the cache when its namespace is watched, else a GET. */
  async readData(
    namespace: string,
    name: string,
    base64: boolean,
  ): Promise<Record<string, string> | undefined> {
    const obj = await this.readObject(namespace, name);
    if (!obj) return undefined;
    // A null-prototype copy: callers index it with user-given keys (`constructor`, `__proto__`),
    // which must find only the object's own data, never Object.prototype members.
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>))
      out[k] = base64 ? Buffer.from(v, 'base64').toString('utf8') : v;
    return out;
  }

  /**
   * Every key of an object as bytes, read like {@link readData}: a Secret's `data` (base64,
   * `base64`), a ConfigMap's `data` (text, as UTF-8) and `binaryData` (base64). Nothing is
   * decoded to text, so an image keeps every byte.
   */
  async readBytes(
    namespace: string,
    name: string,
    base64: boolean,
  ): Promise<Record<string, Uint8Array> | undefined> {
    const obj = await this.readObject(namespace, name);
    if (!obj) return undefined;
    // Null prototype: user-given keys must find only the object's own data (see readData).
    const out = Object.create(null) as Record<string, Uint8Array>;
    for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>))
      out[k] = Buffer.from(v, base64 ? 'base64' : 'utf8');
    for (const [k, v] of Object.entries((obj.binaryData ?? {}) as Record<string, string>))
      out[k] = Buffer.from(v, 'base64');
    return out;
  }

  /**
   * The object with its data: from the cache, else (not cached, or cached while nothing
   * referenced it, its data never kept) one GET, whose answer fills the cached entry stored
   * without data (its reader references it by now), so the next read is served from the cache.
   */
  private async readObject(namespace: string, name: string): Promise<KubeObject | undefined> {
    const hit = this.cached(namespace, name);
    const obj = hit === NOT_CACHED ? await this.get(namespace, name) : hit;
    if (hit === NOT_CACHED && obj) this.fill(obj);
    return obj;
  }

  /**
   * Puts the data of a freshly read object into its cached entry stored without data (never
   * adds an entry the cache does not hold: a deleted object is not brought back).
   */
  private fill(raw: KubeObject): void {
    const informer = this.informers.get(raw.metadata.namespace ?? '') ?? this.informers.get('');
    if (!informer?.hasSynced()) return;
    const prev = informer.store.get(objectKey(raw.metadata.namespace, raw.metadata.name));
    const kept = this.trim(trimObject(raw), raw);
    if (prev && isFillable(prev, kept)) informer.store.set(kept);
  }

  private trim(obj: KubeObject, raw?: KubeObject): KubeObject {
    return trimSecondary(obj, this.isReferenced, raw);
  }

  /** One GET of the object; undefined on 404. */
  async get(namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      return await this.client.request<KubeObject>({
        method: 'GET',
        path: resourcePath(this.type, namespace, name),
      });
    } catch (err) {
      if (isKubeStatus(err, 404)) return undefined;
      throw err;
    }
  }
}
