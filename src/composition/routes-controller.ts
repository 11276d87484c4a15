/**
 * The composition controller of CdnPolicies (issue 51). It lives in a folder of its own, not
 * in the runtime and not in a kind: the runtime is kind-agnostic (it never imports a kind),
 * while this controller reads the names and the pure composition of the kinds
 * (controllers/cdnpolicy/compose.ts) and writes objects of several of them; and unlike a kind
 * it calls no platform API: it makes ordinary PullZoneConfig, DnsRecord and ShieldPolicy
 * objects, which their own controllers reconcile. The manager runs it as a companion
 * (runtime/companion.ts): its client, leader election, readiness and shutdown.
 *
 * A pass over one policy: compose from the caches, apply each desired object that does not
 * already hold its values (server-side apply, apply.ts), delete or release the children no
 * longer desired, and write the status when it changed. Any change to a policy, route, zone,
 * record or child of a namespace queues that namespace's policies. The Gateway API kinds are
 * watched only when their CRDs are served; without them the operator runs as before, and
 * Ingresses are still composed.
 */
import { groupKey } from '../api-group.js';
import { composePolicy, type DesiredObject } from '../controllers/cdnpolicy/compose.js';
import {
  POLICY_LABEL,
  ROUTE_KIND_LABEL,
  ROUTE_NAME_LABEL,
  type CdnPolicy,
  type GeneratedObjectStatus,
} from '../controllers/cdnpolicy/types.js';
import { ItemBackoff, jitterDuration } from '../runtime/backoff.js';
import type { Companion, CompanionContext } from '../runtime/companion.js';
import { findCondition } from '../runtime/conditions.js';
import { isKubeStatus } from '../runtime/kube-client.js';
import { objectKey, resourcePath, splitKey, type ResourceType } from '../runtime/resource.js';
import { WorkQueue } from '../runtime/workqueue.js';
import { applyObject, deleteObject, holds, isApplied, releaseObject } from './apply.js';
import { policyStatus } from './policy-status.js';
import {
  CDN_POLICIES,
  CHILD_TYPES,
  DNS_RECORDS,
  DNS_ZONES,
  GATEWAYS,
  HTTP_ROUTES,
  INGRESSES,
} from './resource-types.js';
import { inputOf, World, type InputTypes } from './world.js';

/** The finalizer a CdnPolicy carries while its children may need deleting or releasing. */
export const ROUTES_FINALIZER = groupKey('routes');

const CHILD_LABELS = [POLICY_LABEL, ROUTE_KIND_LABEL, ROUTE_NAME_LABEL];

/** True when the apiserver serves the Gateway API (v1). */
async function servesGatewayApi(ctx: CompanionContext): Promise<boolean> {
  try {
    const list = await ctx.client.request<{ resources?: Array<{ name: string }> }>({
      method: 'GET',
      path: `/apis/${GATEWAYS.group}/${GATEWAYS.version}`,
    });
    const names = (list.resources ?? []).map((r) => r.name);
    return names.includes(GATEWAYS.plural) && names.includes(HTTP_ROUTES.plural);
  } catch (err) {
    if (isKubeStatus(err, 404)) return false;
    throw err;
  }
}

function isReady(obj: { status?: Record<string, unknown> } | undefined): boolean {
  const conditions = obj?.status?.conditions as Parameters<typeof findCondition>[0];
  return findCondition(conditions, 'Ready')?.status === 'True';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** See the module comment. */
export class RoutesController implements Companion {
  readonly name = 'routes';
  private ctx?: CompanionContext;
  private world?: World;
  private types?: InputTypes;
  private readonly queue = new WorkQueue({ backoff: new ItemBackoff() });
  private worker?: Promise<void>;

  async start(ctx: CompanionContext): Promise<void> {
    this.ctx = ctx;
    const gateway = await servesGatewayApi(ctx);
    this.types = {
      policies: CDN_POLICIES,
      zones: DNS_ZONES,
      records: DNS_RECORDS,
      ingresses: INGRESSES,
      ...(gateway ? { gateways: GATEWAYS, httpRoutes: HTTP_ROUTES } : {}),
    };
    ctx.log.info({ gatewayApi: gateway }, 'Watching routes for CdnPolicies');
    const watched = [
      ...Object.values(this.types).filter((t): t is ResourceType => t !== undefined),
      CHILD_TYPES.PullZoneConfig!,
      CHILD_TYPES.ShieldPolicy!,
    ];
    this.world = new World({
      client: ctx.client,
      log: ctx.log,
      namespaces: ctx.namespaces,
      types: [...new Set(watched)],
      stallTimeoutMs: ctx.stallTimeoutMs,
      onChange: (type, ns, obj) => this.changed(type, ns, obj.metadata.name),
    });
    this.world.start();
  }

  private changed(type: ResourceType, namespace: string, name: string): void {
    if (type === CDN_POLICIES) return this.queue.add(objectKey(namespace, name), 'high');
    for (const p of this.world?.list(CDN_POLICIES, namespace) ?? [])
      this.queue.add(objectKey(namespace, p.metadata.name), 'normal');
  }

  startWorkers(): void {
    this.worker ??= this.work();
  }

  hasSynced(): boolean {
    return this.world?.hasSynced() ?? false;
  }

  async stop(): Promise<void> {
    this.queue.shutdown();
    await this.queue.drain(5_000);
    await this.worker;
    await this.world?.stop();
  }

  private async work(): Promise<void> {
    await this.world!.waitForSync();
    for (const p of this.world!.list(CDN_POLICIES))
      this.queue.add(objectKey(p.metadata.namespace, p.metadata.name), 'low');
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.pass(key);
      this.queue.done(key);
    }
  }

  private async pass(key: string): Promise<void> {
    const ctx = this.ctx!;
    if (!ctx.mayWrite()) return;
    try {
      const { namespace, name } = splitKey(key);
      const obj = this.world!.get(CDN_POLICIES, namespace, name);
      if (!obj) return;
      await this.sync(obj as unknown as CdnPolicy);
      this.queue.forget(key);
      this.queue.schedule(key, jitterDuration(ctx.resyncMs));
    } catch (err) {
      const retryInMs = this.queue.addRateLimited(key);
      ctx.log.warn({ policy: key, err: errorText(err), retryInMs }, 'Cannot compose CdnPolicy');
    }
  }

  private async sync(policy: CdnPolicy): Promise<void> {
    if (policy.metadata.deletionTimestamp) return this.finalize(policy);
    await this.ensureFinalizer(policy);
    const composition = composePolicy(inputOf(this.world!, this.types!, policy));
    const applyError = await this.applyAll(composition.objects);
    await this.prune(policy, composition.objects);
    const generated: GeneratedObjectStatus[] = composition.objects.map((o) => ({
      kind: o.kind,
      name: o.metadata.name,
      ready: isReady(this.world!.get(CHILD_TYPES[o.kind]!, o.metadata.namespace, o.metadata.name)),
    }));
    const status = policyStatus(policy, composition, generated, new Date(), applyError);
    await this.writeStatus(policy, status);
  }

  /** Applies what does not hold its values yet; the first failure's message, if any. */
  private async applyAll(objects: readonly DesiredObject[]): Promise<string | undefined> {
    let failure: string | undefined;
    for (const o of objects) {
      const type = CHILD_TYPES[o.kind]!;
      if (isApplied(this.world!.get(type, o.metadata.namespace, o.metadata.name), o)) continue;
      try {
        await applyObject(this.ctx!.client, type, o);
        this.ctx!.log.info({ kind: o.kind, name: o.metadata.name }, 'Applied generated object');
      } catch (err) {
        failure ??= `cannot apply ${o.kind} ${o.metadata.name}: ${errorText(err)}`;
      }
    }
    return failure;
  }

  /** Deletes or releases (per deletionPolicy) the children of `policy` not in `keep`. */
  private async prune(policy: CdnPolicy, keep: readonly DesiredObject[]): Promise<void> {
    const wanted = new Set(keep.map((o) => `${o.kind}/${o.metadata.name}`));
    const ns = policy.metadata.namespace;
    for (const [kind, type] of Object.entries(CHILD_TYPES)) {
      for (const child of this.world!.childrenOf(type, ns, policy.metadata.name)) {
        if (wanted.has(`${kind}/${child.metadata.name}`) || child.metadata.deletionTimestamp)
          continue;
        await this.letGo(policy, type, child.metadata.name);
      }
    }
  }

  private async letGo(policy: CdnPolicy, type: ResourceType, name: string): Promise<void> {
    const { client, log } = this.ctx!;
    const ns = policy.metadata.namespace;
    try {
      if (policy.spec.deletionPolicy === 'Orphan')
        await releaseObject(client, type, ns, name, CHILD_LABELS);
      else await deleteObject(client, type, ns, name);
    } catch (err) {
      if (!isKubeStatus(err, 404)) throw err;
    }
    log.info(
      { kind: type.kind, name, deletionPolicy: policy.spec.deletionPolicy ?? 'Delete' },
      'Let go of generated object',
    );
  }

  private async ensureFinalizer(policy: CdnPolicy): Promise<void> {
    const finalizers = policy.metadata.finalizers ?? [];
    if (finalizers.includes(ROUTES_FINALIZER)) return;
    await this.patchPolicy(policy, { metadata: { finalizers: [...finalizers, ROUTES_FINALIZER] } });
  }

  private async finalize(policy: CdnPolicy): Promise<void> {
    const finalizers = policy.metadata.finalizers ?? [];
    if (!finalizers.includes(ROUTES_FINALIZER)) return;
    await this.prune(policy, []);
    await this.patchPolicy(policy, {
      metadata: { finalizers: finalizers.filter((f) => f !== ROUTES_FINALIZER) },
    });
  }

  private async patchPolicy(policy: CdnPolicy, body: unknown, sub?: string): Promise<void> {
    await this.ctx!.client.request({
      method: 'PATCH',
      path: resourcePath(CDN_POLICIES, policy.metadata.namespace, policy.metadata.name, sub),
      contentType: 'application/merge-patch+json',
      body,
    });
  }

  private async writeStatus(policy: CdnPolicy, status: CdnPolicy['status']): Promise<void> {
    const current = policy.status ?? {};
    if (holds(current, status) && holds(status, current)) return;
    await this.patchPolicy(policy, { status }, 'status');
  }
}
