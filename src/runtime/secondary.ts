/**
 * Secondary caches: Secrets and ConfigMaps in the namespaces the operator may read them in,
 * serving `ConnectContext.readSecret/readConfigMap` and triggering dependents. Only objects
 * that a managed object references keep their `data` in memory; every other Secret (Helm
 * release Secrets, service-account tokens...) is held as name + resourceVersion only, so the
 * cache grows with what objects use, not with what the cluster holds. A read of an object
 * cached without data, or outside the cached namespaces, is a GET.
 */
import type { Logger } from 'pino';
import { keepMetadataAndData, type KubeObject } from './cache.js';
import { Informer } from './informer.js';
import { isKubeStatus, type KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import { objectKey, resourcePath, type ResourceType } from './resource.js';

/** Marks a cached object whose data was not kept (not referenced when it was stored). */
const DATA_DROPPED = 'cdnOperatorDataDropped';

/**
 * What the cache keeps of a Secret or ConfigMap: metadata always, `data` only when a managed
 * object references it (or when no reference predicate is given).
 */
export function trimSecondary(
  obj: KubeObject,
  isReferenced?: (namespace: string, name: string) => boolean,
): KubeObject {
  const kept = keepMetadataAndData(obj);
  if (!isReferenced || isReferenced(obj.metadata.namespace ?? '', obj.metadata.name)) return kept;
  return { ...kept, data: undefined, [DATA_DROPPED]: true };
}

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
    const resource = type.plural;
    for (const ns of namespaces.length > 0 ? namespaces : ['']) {
      this.informers.set(
        ns,
        new Informer({
          client,
          type,
          namespace: ns,
          log,
          transform: (o) => this.trim(o),
          ...(stallTimeoutMs ? { stallTimeoutMs } : {}),
          hooks: {
            onRestart: (reason) => metrics.informerRestarts.inc({ resource, reason }),
            onRelist: (reason) => metrics.informerRelists.inc({ resource, reason }),
            onHandlerError: () => metrics.handlerErrors.inc({ resource }),
          },
          handlers: { onAdd: onChange, onUpdate: (_old, obj) => onChange(obj), onDelete: onChange },
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

  /** Decoded `data` of an object, from the cache when its namespace is watched, else a GET. */
  async readData(
    namespace: string,
    name: string,
    base64: boolean,
  ): Promise<Record<string, string> | undefined> {
    const informer = this.informers.get(namespace) ?? this.informers.get('');
    let obj: KubeObject | undefined;
    if (informer?.hasSynced()) obj = informer.store.get(objectKey(namespace, name));
    else obj = await this.get(namespace, name);
    // Cached while nothing referenced it: its data was never kept, so read it now; the next
    // event for it keeps the data because the reader's object references it by then.
    if (obj && obj[DATA_DROPPED] === true) obj = await this.get(namespace, name);
    if (!obj) return undefined;
    // A null-prototype copy: callers index it with user-given keys (`constructor`, `__proto__`),
    // which must find only the object's own data, never Object.prototype members.
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>))
      out[k] = base64 ? Buffer.from(v, 'base64').toString('utf8') : v;
    return out;
  }

  private trim(obj: KubeObject): KubeObject {
    return trimSecondary(obj, this.isReferenced);
  }

  private async get(namespace: string, name: string): Promise<KubeObject | undefined> {
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
