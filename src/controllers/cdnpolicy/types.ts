/**
 * The CdnPolicy custom resource (issue 51): a Gateway API style policy attached to Gateways,
 * HTTPRoutes or Ingresses of its namespace, from which the composition controller
 * (src/composition/) makes ordinary PullZoneConfig, DnsRecord and ShieldPolicy objects. The
 * kind itself calls no platform API; its children do.
 */
import { groupKey } from '../../api-group.js';
import type { Condition, ObjectMeta } from '../../runtime/types.js';
import type { KindNames } from '../kind-names.js';
import type { AccountSpec } from '../shared/account-schema.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const CDN_POLICY_NAMES: KindNames = {
  kind: 'CdnPolicy',
  plural: 'cdnpolicies',
  shortNames: ['cdnp'],
  scope: 'Namespaced',
  family: 'routes',
};

/**
 * The Ingress annotation naming a CdnPolicy of the Ingress's namespace: the short form of a
 * `targetRefs` entry for Ingress users (`cdn.operator.io/cdn-policy: <name>`).
 */
export const CDN_POLICY_ANNOTATION = groupKey('cdn-policy');

/** Label on every generated object: the CdnPolicy that made it. */
export const POLICY_LABEL = groupKey('cdn-policy');
/** Label on every generated object: the kind of the route it was made for. */
export const ROUTE_KIND_LABEL = groupKey('route-kind');
/** Label on every generated object: the name of the route it was made for. */
export const ROUTE_NAME_LABEL = groupKey('route-name');

/** The Gateway API group. */
export const GATEWAY_GROUP = 'gateway.networking.k8s.io';
/** The Ingress group. */
export const INGRESS_GROUP = 'networking.k8s.io';

/** The kinds a CdnPolicy attaches to. */
export type TargetKind = 'Gateway' | 'HTTPRoute' | 'Ingress';

/** One target of the policy (Gateway API `LocalPolicyTargetReference`, plus a namespace). */
export interface PolicyTargetRef {
  group: string;
  kind: TargetKind;
  name: string;
  /** Must be the policy's own namespace when set: any other is refused. */
  namespace?: string;
}

/** How the pull zone reaches the route's address. */
export interface OriginSpec {
  scheme?: 'HTTP' | 'HTTPS';
  port?: number;
}

/** `spec` of a CdnPolicy (crd.ts describes every field). */
export interface CdnPolicySpec extends AccountSpec {
  targetRefs?: PolicyTargetRef[];
  dnsZoneRefs: Array<{ name: string }>;
  origin?: OriginSpec;
  pullZone?: Record<string, unknown>;
  shieldPolicy?: Record<string, unknown>;
  deletionPolicy?: 'Delete' | 'Orphan';
}

/** Gateway API `ParentReference` as an ancestor of the policy's status. */
export interface AncestorRef {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Gateway API `PolicyAncestorStatus`. */
export interface PolicyAncestorStatus {
  ancestorRef: AncestorRef;
  controllerName: string;
  conditions: Condition[];
}

/** One object the policy made, as its status lists it. */
export interface GeneratedObjectStatus {
  kind: string;
  name: string;
  ready: boolean;
}

/** `status` of a CdnPolicy. */
export interface CdnPolicyStatus {
  conditions?: Condition[];
  observedGeneration?: number;
  ancestors?: PolicyAncestorStatus[];
  generated?: GeneratedObjectStatus[];
}

/** A CdnPolicy as the composition reads it. */
export interface CdnPolicy {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CdnPolicySpec;
  status?: CdnPolicyStatus;
}
