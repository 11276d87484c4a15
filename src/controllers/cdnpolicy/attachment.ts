/**
 * Which routes a CdnPolicy is attached to and which policy holds a route (pure). A policy
 * attaches through `spec.targetRefs`, and to an Ingress also through the Ingress's annotation
 * naming it. Two policies on one route: the older one holds it (creation time, then name), as
 * Gateway API resolves policy conflicts, so adding a second policy never takes the CDN away
 * from a route that has it; the newer one is refused (Conflicted).
 */
import type { RouteSnapshot } from './routes.js';
import {
  CDN_POLICY_ANNOTATION,
  INGRESS_GROUP,
  type CdnPolicy,
  type PolicyTargetRef,
  type TargetKind,
} from './types.js';

/** The targets of `policy`: its targetRefs, then the Ingresses whose annotation names it. */
export function attachedTargets(policy: CdnPolicy, routes: RouteSnapshot): PolicyTargetRef[] {
  const refs = [...(policy.spec.targetRefs ?? [])];
  for (const ing of routes.ingresses) {
    if (ing.metadata.annotations?.[CDN_POLICY_ANNOTATION] !== policy.metadata.name) continue;
    if (refs.some((r) => r.kind === 'Ingress' && r.name === ing.metadata.name)) continue;
    refs.push({ group: INGRESS_GROUP, kind: 'Ingress', name: ing.metadata.name });
  }
  return refs;
}

function olderFirst(a: CdnPolicy, b: CdnPolicy): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/**
 * The policy holding route `kind`/`name` among `policies` (those of the route's namespace):
 * the oldest one attached to it, or undefined when none is.
 */
export function holderOf(
  kind: TargetKind,
  name: string,
  policies: readonly CdnPolicy[],
  routes: RouteSnapshot,
): CdnPolicy | undefined {
  const attached = policies.filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      attachedTargets(p, routes).some(
        (r) => r.kind === kind && r.name === name && isLocal(r, p.metadata.namespace),
      ),
  );
  return attached.sort(olderFirst)[0];
}

/** True when the target is in the policy's own namespace (the only one allowed). */
export function isLocal(ref: PolicyTargetRef, namespace: string): boolean {
  return ref.namespace === undefined || ref.namespace === '' || ref.namespace === namespace;
}
