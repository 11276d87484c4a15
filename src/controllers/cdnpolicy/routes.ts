/**
 * What the composition reads of a route (pure): its hostnames and the address the pull zone
 * pulls from. A Gateway's address is its `status.addresses`; an HTTPRoute's is that of its
 * first parent Gateway with one; an Ingress's is its `status.loadBalancer.ingress` (an IP, else a
 * hostname), as its load-balancer controller writes them.
 */
import type { TargetKind } from './types.js';

/** The part of a Gateway, HTTPRoute or Ingress the composition reads. */
export interface RouteObject {
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    annotations?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** The routes of one namespace, by kind. */
export interface RouteSnapshot {
  gateways: readonly RouteObject[];
  httpRoutes: readonly RouteObject[];
  ingresses: readonly RouteObject[];
}

/** A route as the composition uses it. */
export interface RouteView {
  kind: TargetKind;
  name: string;
  hostnames: string[];
  /** The host (IP or name) of the route's address; undefined until a controller reports one. */
  address?: string;
}

type Json = Record<string, unknown>;

function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && !!v) : [];
}

function stringsOf(values: unknown[]): string[] {
  const out = values.filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set(out.map((h) => h.toLowerCase()))];
}

/** The first address a Gateway reports (`status.addresses[].value`). */
export function gatewayAddress(gw: RouteObject): string | undefined {
  const first = listOf(gw.status?.addresses).find((a) => typeof a.value === 'string');
  return first?.value as string | undefined;
}

/** The first address an Ingress's load balancer reports (an IP, else a hostname). */
export function ingressAddress(ing: RouteObject): string | undefined {
  const lb = (ing.status?.loadBalancer ?? {}) as Json;
  for (const entry of listOf(lb.ingress)) {
    const host = entry.ip ?? entry.hostname;
    if (typeof host === 'string' && host !== '') return host;
  }
  return undefined;
}

/** The Gateways an HTTPRoute names as parents, in its namespace. */
function parentGateways(route: RouteObject, snapshot: RouteSnapshot): RouteObject[] {
  const ns = route.metadata.namespace;
  const names = listOf(route.spec?.parentRefs)
    .filter((p) => (p.kind ?? 'Gateway') === 'Gateway')
    .filter((p) => (p.namespace ?? ns) === ns)
    .map((p) => p.name);
  return snapshot.gateways.filter((g) => names.includes(g.metadata.name));
}

function viewOfGateway(gw: RouteObject): RouteView {
  const hosts = listOf(gw.spec?.listeners).map((l) => l.hostname);
  return {
    kind: 'Gateway',
    name: gw.metadata.name,
    hostnames: stringsOf(hosts),
    ...addr(gatewayAddress(gw)),
  };
}

function viewOfHttpRoute(route: RouteObject, snapshot: RouteSnapshot): RouteView {
  const hosts = Array.isArray(route.spec?.hostnames) ? (route.spec.hostnames as unknown[]) : [];
  const address = parentGateways(route, snapshot)
    .map(gatewayAddress)
    .find((a) => a);
  return {
    kind: 'HTTPRoute',
    name: route.metadata.name,
    hostnames: stringsOf(hosts),
    ...addr(address),
  };
}

function viewOfIngress(ing: RouteObject): RouteView {
  const hosts = listOf(ing.spec?.rules).map((r) => r.host);
  return {
    kind: 'Ingress',
    name: ing.metadata.name,
    hostnames: stringsOf(hosts),
    ...addr(ingressAddress(ing)),
  };
}

function addr(address: string | undefined): { address?: string } {
  return address === undefined ? {} : { address };
}

/** The route `kind`/`name` of the snapshot as the composition sees it, or undefined when absent. */
export function viewRoute(
  kind: TargetKind,
  name: string,
  snapshot: RouteSnapshot,
): RouteView | undefined {
  const find = (list: readonly RouteObject[]): RouteObject | undefined =>
    list.find((o) => o.metadata.name === name);
  if (kind === 'Gateway') {
    const gw = find(snapshot.gateways);
    return gw && viewOfGateway(gw);
  }
  if (kind === 'HTTPRoute') {
    const route = find(snapshot.httpRoutes);
    return route && viewOfHttpRoute(route, snapshot);
  }
  const ing = find(snapshot.ingresses);
  return ing && viewOfIngress(ing);
}
