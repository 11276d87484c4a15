/**
 * The runtime's writes to managed objects: JSON merge patches of metadata (finalizer and
 * create-pending marker) and of the `/status` subresource. Both carry the cached
 * resourceVersion when the caller puts it in the patch, so stale writes fail with 409.
 */
import type { KubeClient } from './kube-client.js';
import { resourcePath, type ResourceType } from './resource.js';
import type { ManagedObject } from './types.js';

/** Reads and writes objects of one managed kind. */
export interface ObjectWriter {
  patchMetadata(obj: ManagedObject, patch: Record<string, unknown>): Promise<ManagedObject>;
  patchStatus(obj: ManagedObject, patch: Record<string, unknown>): Promise<ManagedObject>;
  get(namespace: string, name: string): Promise<ManagedObject>;
}

/** An {@link ObjectWriter} over the Kubernetes API. */
export function createObjectWriter(client: KubeClient, type: ResourceType): ObjectWriter {
  const patch = (
    obj: ManagedObject,
    body: Record<string, unknown>,
    sub?: string,
  ): Promise<ManagedObject> =>
    client.request<ManagedObject>({
      method: 'PATCH',
      path: resourcePath(type, obj.metadata.namespace, obj.metadata.name, sub),
      contentType: 'application/merge-patch+json',
      body,
    });
  return {
    patchMetadata: (obj, body) => patch(obj, body),
    patchStatus: (obj, body) => patch(obj, body, 'status'),
    get: (namespace, name) =>
      client.request<ManagedObject>({ method: 'GET', path: resourcePath(type, namespace, name) }),
  };
}
