/**
 * The composition's caches: one informer per watched type and namespace, and the reads a pass
 * makes from them (the routes, usable zones, policies, records and children of a namespace).
 * Every change is reported to `onChange` with the namespace it happened in.
 */
import type { Logger } from 'pino';
import type { CdnPolicy } from '../controllers/cdnpolicy/types.js';
import { POLICY_LABEL } from '../controllers/cdnpolicy/types.js';
import { labelValue } from '../controllers/cdnpolicy/child-names.js';
import type {
  CompositionInput,
  ExistingRecord,
  UsableZone,
} from '../controllers/cdnpolicy/compose.js';
import type { RouteSnapshot } from '../controllers/cdnpolicy/routes.js';
import type { KubeObject } from '../runtime/cache.js';
import { Informer } from '../runtime/informer.js';
import type { KubeClient } from '../runtime/kube-client.js';
import type { ResourceType } from '../runtime/resource.js';

type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

/** Options of {@link World}. */
export interface WorldOptions {
  client: KubeClient;
  log: Logger;
  /** The watched namespaces; empty: all of them. */
  namespaces: string[];
  types: readonly ResourceType[];
  stallTimeoutMs: number;
  onChange(type: ResourceType, namespace: string, obj: Obj): void;
}

/** See the module comment. */
export class World {
  private readonly informers = new Map<ResourceType, Informer<Obj>[]>();

  constructor(opts: WorldOptions) {
    // No namespace listed: the operator watches every namespace (one informer each, over all).
    const where = opts.namespaces.length > 0 ? opts.namespaces : [''];
    for (const type of opts.types) {
      const list = where.map(
        (namespace) =>
          new Informer<Obj>({
            client: opts.client,
            type,
            namespace,
            log: opts.log,
            stallTimeoutMs: opts.stallTimeoutMs,
            handlers: {
              onAdd: (o) => opts.onChange(type, o.metadata.namespace ?? '', o),
              onUpdate: (_, o) => opts.onChange(type, o.metadata.namespace ?? '', o),
              onDelete: (o) => opts.onChange(type, o.metadata.namespace ?? '', o),
            },
          }),
      );
      this.informers.set(type, list);
    }
  }

  private all(): Informer<Obj>[] {
    return [...this.informers.values()].flat();
  }

  start(): void {
    for (const i of this.all()) i.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.all().map((i) => i.stop()));
  }

  hasSynced(): boolean {
    return this.all().every((i) => i.hasSynced());
  }

  async waitForSync(): Promise<void> {
    await Promise.all(this.all().map((i) => i.waitForSync()));
  }

  /** The cached objects of `type` in `namespace` (`undefined`: every namespace). */
  list(type: ResourceType | undefined, namespace?: string): Obj[] {
    if (!type) return [];
    const objs = (this.informers.get(type) ?? []).flatMap((i) => i.store.list());
    return namespace === undefined ? objs : objs.filter((o) => o.metadata.namespace === namespace);
  }

  /** The cached object of `type` named `name` in `namespace`. */
  get(type: ResourceType, namespace: string, name: string): Obj | undefined {
    return this.list(type, namespace).find((o) => o.metadata.name === name);
  }

  /** The objects of `type` in `namespace` labelled as made by the policy `policy`. */
  childrenOf(type: ResourceType, namespace: string, policy: string): Obj[] {
    const value = labelValue(policy);
    return this.list(type, namespace).filter((o) => o.metadata.labels?.[POLICY_LABEL] === value);
  }
}

/** The types a composition input reads. */
export interface InputTypes {
  policies: ResourceType;
  zones: ResourceType;
  records: ResourceType;
  gateways?: ResourceType;
  httpRoutes?: ResourceType;
  ingresses: ResourceType;
}

function accountKey(spec: Record<string, unknown> | undefined): string {
  return JSON.stringify([spec?.accountRef ?? null, spec?.credentialsRef ?? null]);
}

function domainOf(zone: Obj): string | undefined {
  const d = zone.spec?.domain ?? zone.status?.domain;
  return typeof d === 'string' && d !== '' ? d.toLowerCase() : undefined;
}

/** DnsZones of the namespace with the policy's account and a known domain. */
function usableZones(world: World, t: InputTypes, policy: CdnPolicy): UsableZone[] {
  const account = accountKey(policy.spec as unknown as Record<string, unknown>);
  return world
    .list(t.zones, policy.metadata.namespace)
    .filter((z) => !z.metadata.deletionTimestamp && accountKey(z.spec) === account)
    .flatMap((z) => {
      const domain = domainOf(z);
      return domain ? [{ name: z.metadata.name, domain }] : [];
    });
}

/** The domain of the DnsZone object a DnsRecord names, when the cache holds it. */
function recordDomain(world: World, t: InputTypes, rec: Obj): string | undefined {
  const ref = rec.spec?.dnsZoneRef as { name?: string } | undefined;
  if (!ref?.name) return undefined;
  const zone = world.get(t.zones, rec.metadata.namespace ?? '', ref.name);
  return zone && domainOf(zone);
}

/** The hostname a DnsRecord publishes, when its zone is a DnsZone object the cache holds. */
function hostnameOf(world: World, t: InputTypes, rec: Obj): string | undefined {
  const domain = recordDomain(world, t, rec);
  if (!domain) return undefined;
  const name = typeof rec.spec?.name === 'string' ? rec.spec.name : '';
  return name === '' || name === '@' ? domain : `${name.toLowerCase()}.${domain}`;
}

function existingRecords(world: World, t: InputTypes): ExistingRecord[] {
  return world.list(t.records).flatMap((r) => {
    const hostname = hostnameOf(world, t, r);
    if (!hostname) return [];
    const policy = r.metadata.labels?.[POLICY_LABEL];
    return [
      {
        namespace: r.metadata.namespace ?? '',
        name: r.metadata.name,
        hostname,
        ...(policy ? { policy } : {}),
      },
    ];
  });
}

/** What {@link composePolicy} reads for `policy`, from the caches. */
export function inputOf(world: World, t: InputTypes, policy: CdnPolicy): CompositionInput {
  const ns = policy.metadata.namespace;
  const routes: RouteSnapshot = {
    gateways: world.list(t.gateways, ns),
    httpRoutes: world.list(t.httpRoutes, ns),
    ingresses: world.list(t.ingresses, ns),
  };
  return {
    policy,
    routes,
    zones: usableZones(world, t, policy),
    policies: world.list(t.policies, ns) as unknown as CdnPolicy[],
    records: existingRecords(world, t),
  };
}
