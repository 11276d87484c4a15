/**
 * The composition of a CdnPolicy (pure, issue 51): from the policy, the routes of its
 * namespace, the DnsZones the namespace may use, the other policies and the DnsRecords that
 * exist, the objects the policy wants (per route a PullZoneConfig, one DnsRecord per published
 * hostname, a ShieldPolicy when templated, each owned by the policy and labelled with the
 * route) and what it refuses. The composition controller (src/composition/) applies the
 * objects and writes the outcome to the policy's status; nothing here reads or writes anything.
 */
import { apiVersionOf } from '../kind-names.js';
import { DNS_RECORD_NAMES } from '../dnsrecord/types.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { SHIELD_POLICY_NAMES } from '../shieldpolicy/types.js';
import { attachedTargets, holderOf, isLocal } from './attachment.js';
import { labelValue, recordChildName, routeChildName } from './child-names.js';
import { placeHostnames, type ExistingRecord, type UsableZone } from './hostnames.js';
import { CdnPolicyReason } from './reasons.js';
import { viewRoute, type RouteSnapshot, type RouteView } from './routes.js';
import {
  CDN_POLICY_NAMES,
  POLICY_LABEL,
  ROUTE_KIND_LABEL,
  ROUTE_NAME_LABEL,
  type AncestorRef,
  type CdnPolicy,
  type PolicyTargetRef,
} from './types.js';

export type { ExistingRecord, UsableZone } from './hostnames.js';

/** What the composition reads. */
export interface CompositionInput {
  policy: CdnPolicy;
  /** The Gateways, HTTPRoutes and Ingresses of the policy's namespace. */
  routes: RouteSnapshot;
  /** The DnsZones the namespace may use with the policy's account. */
  zones: readonly UsableZone[];
  /** Every CdnPolicy of the namespace (this one among them or not). */
  policies: readonly CdnPolicy[];
  /** The DnsRecords that exist, with the hostname each publishes. */
  records: readonly ExistingRecord[];
}

/** One object to apply (server-side apply body). */
export interface DesiredObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    ownerReferences: Array<Record<string, unknown>>;
  };
  spec: Record<string, unknown>;
}

/** Something the policy does not do, and why (a condition's reason and message). */
export interface Refusal {
  reason: string;
  message: string;
}

/** The outcome for one target: Gateway API's PolicyAncestorStatus `Accepted` condition. */
export interface TargetOutcome {
  ref: AncestorRef;
  accepted: boolean;
  reason: string;
  message: string;
}

/** What the policy wants and what it refuses. */
export interface Composition {
  objects: DesiredObject[];
  targets: TargetOutcome[];
  refusals: Refusal[];
  /** Routes attached and accepted that have no address yet (no objects made for them). */
  pending: string[];
}

function ancestorOf(ref: PolicyTargetRef, namespace: string): AncestorRef {
  return {
    group: ref.group,
    kind: ref.kind,
    namespace: ref.namespace || namespace,
    name: ref.name,
  };
}

/** Why `ref` is not taken, or undefined when the policy holds the route. */
function targetRefusal(input: CompositionInput, ref: PolicyTargetRef): Refusal | undefined {
  const { policy, routes } = input;
  const ns = policy.metadata.namespace;
  const what = `${ref.kind} ${ref.namespace || ns}/${ref.name}`;
  if (!isLocal(ref, ns))
    return {
      reason: CdnPolicyReason.TargetNotPermitted,
      message: `cannot attach to ${what}: a CdnPolicy attaches only to routes of its own namespace (${ns})`,
    };
  if (!viewRoute(ref.kind, ref.name, routes))
    return {
      reason: CdnPolicyReason.TargetNotFound,
      message: `cannot attach to ${what}: not found`,
    };
  const holder = holderOf(ref.kind, ref.name, [...input.policies, policy], routes);
  if (holder && holder.metadata.name !== policy.metadata.name)
    return {
      reason: CdnPolicyReason.Conflicted,
      message: `cannot attach to ${what}: CdnPolicy ${holder.metadata.name} already holds it (the older policy wins)`,
    };
  return undefined;
}

function ownerOf(policy: CdnPolicy): Record<string, unknown> {
  return {
    apiVersion: apiVersionOf(CDN_POLICY_NAMES),
    kind: CDN_POLICY_NAMES.kind,
    name: policy.metadata.name,
    uid: policy.metadata.uid ?? '',
    controller: true,
  };
}

function objectOf(
  kind: { kind: string; family: string },
  name: string,
  policy: CdnPolicy,
  route: RouteView,
  spec: Record<string, unknown>,
): DesiredObject {
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: {
      name,
      namespace: policy.metadata.namespace,
      labels: {
        [POLICY_LABEL]: labelValue(policy.metadata.name),
        [ROUTE_KIND_LABEL]: route.kind,
        [ROUTE_NAME_LABEL]: labelValue(route.name),
      },
      ownerReferences: [ownerOf(policy)],
    },
    spec,
  };
}

/** The account members of the policy, copied into every child. */
function accountOf(policy: CdnPolicy): Record<string, unknown> {
  const { accountRef, credentialsRef } = policy.spec;
  return { ...(accountRef ? { accountRef } : {}), ...(credentialsRef ? { credentialsRef } : {}) };
}

/** The origin URL of an address: IPv6 in brackets, the port only when the spec gives one. */
export function originUrlOf(address: string, origin: CdnPolicy['spec']['origin']): string {
  const scheme = (origin?.scheme ?? 'HTTP').toLowerCase();
  const host = address.includes(':') ? `[${address}]` : address;
  return `${scheme}://${host}${origin?.port ? `:${origin.port}` : ''}`;
}

function childrenOf(
  policy: CdnPolicy,
  route: RouteView & { address: string },
  published: ReturnType<typeof placeHostnames>['published'],
): DesiredObject[] {
  const base = routeChildName(policy.metadata.name, route.kind, route.name);
  const template = policy.spec.pullZone ?? {};
  const settings = (template.settings ?? {}) as Record<string, unknown>;
  const deletion = policy.spec.deletionPolicy ?? 'Delete';
  const account = accountOf(policy);
  const pullZone = objectOf(PULL_ZONE_CONFIG_NAMES, base, policy, route, {
    ...template,
    ...account,
    settings: { ...settings, originUrl: originUrlOf(route.address, policy.spec.origin) },
    hostnames: published.map((h) => ({ hostname: h.hostname, certificate: { type: 'Free' } })),
    deletionPolicy: deletion,
  });
  const records = published.map((h) =>
    objectOf(DNS_RECORD_NAMES, recordChildName(base, h.hostname), policy, route, {
      ...account,
      dnsZoneRef: { name: h.zone.name },
      type: 'PullZone',
      name: h.relative,
      pullZoneRef: { name: base },
      deletionPolicy: deletion,
    }),
  );
  const shield = policy.spec.shieldPolicy
    ? [
        objectOf(SHIELD_POLICY_NAMES, base, policy, route, {
          ...policy.spec.shieldPolicy,
          ...account,
          pullZoneRef: { name: base },
          deletionPolicy: deletion === 'Delete' ? 'Reset' : 'Orphan',
        }),
      ]
    : [];
  return [pullZone, ...records, ...shield];
}

/** The zones the policy names that it may use, and a refusal for each it may not. */
function allowedZones(input: CompositionInput): { zones: UsableZone[]; refusals: Refusal[] } {
  const zones: UsableZone[] = [];
  const refusals: Refusal[] = [];
  for (const ref of input.policy.spec.dnsZoneRefs) {
    const zone = input.zones.find((z) => z.name === ref.name);
    if (zone) zones.push(zone);
    else
      refusals.push({
        reason: CdnPolicyReason.ZoneNotAllowed,
        message: `cannot publish in DnsZone ${ref.name}: not a zone this namespace may use with the policy's account (a DnsZone of namespace ${input.policy.metadata.namespace} of the same account, with its domain known)`,
      });
  }
  return { zones, refusals };
}

/** See the module comment. */
export function composePolicy(input: CompositionInput): Composition {
  const { policy, routes } = input;
  const ns = policy.metadata.namespace;
  const { zones, refusals } = allowedZones(input);
  const out: Composition = { objects: [], targets: [], refusals, pending: [] };
  for (const ref of attachedTargets(policy, routes)) {
    const refused = targetRefusal(input, ref);
    const ancestor = ancestorOf(ref, ns);
    if (refused) {
      out.refusals.push(refused);
      out.targets.push({ ref: ancestor, accepted: false, ...refused });
      continue;
    }
    const route = viewRoute(ref.kind, ref.name, routes)!;
    const placed = placeHostnames(
      route.hostnames,
      zones,
      { namespace: ns, name: policy.metadata.name },
      input.records,
    );
    out.refusals.push(...placed.refused);
    out.targets.push({
      ref: ancestor,
      accepted: true,
      reason: CdnPolicyReason.Accepted,
      message: `the policy applies to ${ref.kind} ${ref.name}`,
    });
    if (route.address === undefined) out.pending.push(`${route.kind} ${route.name}`);
    else
      out.objects.push(
        ...childrenOf(policy, { ...route, address: route.address }, placed.published),
      );
  }
  return out;
}
