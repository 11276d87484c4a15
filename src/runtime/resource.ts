/**
 * Group/version/resource descriptors and the REST paths built from them.
 */
import { flatString } from './flat-string.js';

/** A resource type the runtime lists, watches or writes. */
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

/** Core Secrets. */
export const SECRETS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'secrets',
  kind: 'Secret',
};
/** Core ConfigMaps. */
export const CONFIG_MAPS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
};
/** coordination.k8s.io Leases. */
export const LEASES: ResourceType = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
};
/** events.k8s.io Events. */
export const EVENTS: ResourceType = {
  group: 'events.k8s.io',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
};

/** `apiVersion` string of a resource type (`v1`, `<group>/v1alpha1`). */
export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

/**
 * REST path of a collection (no name) or an object, optionally of a subresource.
 * An empty namespace means all namespaces (collections only).
 */
export function resourcePath(
  t: ResourceType,
  namespace: string,
  name?: string,
  subresource?: string,
): string {
  const prefix = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const obj = name ? `/${encodeURIComponent(name)}` : '';
  const sub = name && subresource ? `/${subresource}` : '';
  return `${prefix}${ns}/${t.plural}${obj}${sub}`;
}

/** The queue/cache key of an object: `namespace/name`. */
export function objectKey(namespace: string | undefined, name: string): string {
  return flatString(`${namespace ?? ''}/${name}`);
}

/** Splits a `namespace/name` key. */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
