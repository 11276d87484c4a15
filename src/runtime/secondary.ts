/**
 * Secondary caches: Secrets and ConfigMaps in the watched namespaces (metadata and data
 * only), serving `ConnectContext.readSecret/readConfigMap` and triggering dependents.
 * A read outside the watched namespaces (e.g. the default credentials Secret in the
 * operator's namespace) falls back to a GET.
 */
import type { Logger } from 'pino';
import { keepMetadataAndData, type KubeObject } from './cache.js';
import { Informer } from './informer.js';
import { isKubeStatus, type KubeClient } from './kube-client.js';
import type { OperatorMetrics } from './metrics.js';
import { objectKey, resourcePath, type ResourceType } from './resource.js';

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
          transform: keepMetadataAndData,
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
    if (!obj) return undefined;
    // A null-prototype copy: callers index it with user-given keys (`constructor`, `__proto__`),
    // which must find only the object's own data, never Object.prototype members.
    const out = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>))
      out[k] = base64 ? Buffer.from(v, 'base64').toString('utf8') : v;
    return out;
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
