/**
 * The Secrets a legacy object controls (its connection details, a storage zone's passwords:
 * an ownerReference with its uid) are handed to the new object before the legacy one is
 * deleted. Otherwise Kubernetes' garbage collector deletes them with their owner, and the new
 * object's operator refuses to write a Secret another object controls.
 */
import type { KubeClient } from '../../../runtime/kube-client.js';
import { mergePatch, type LiveObject } from './legacy-api.js';

interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

interface SecretMeta {
  metadata: {
    name: string;
    resourceVersion?: string;
    ownerReferences?: OwnerReference[];
  };
}

/** `refs` with every reference to `from` (by uid) pointing at `to`, flags kept. */
export function handedOver(
  refs: readonly OwnerReference[],
  from: LiveObject,
  to: LiveObject,
): OwnerReference[] {
  return refs.map((r) =>
    r.uid === from.metadata.uid
      ? {
          ...r,
          apiVersion: to.apiVersion,
          kind: to.kind,
          name: to.metadata.name,
          uid: to.metadata.uid ?? '',
        }
      : r,
  );
}

/** Hands the Secrets `old` owns to `created`; the names of the Secrets handed over. */
export async function handOverSecrets(
  kube: KubeClient,
  old: LiveObject,
  created: LiveObject,
): Promise<string[]> {
  const ns = old.metadata.namespace;
  if (!ns || !old.metadata.uid) return [];
  const list = await kube.request<{ items?: SecretMeta[] }>({
    method: 'GET',
    path: `/api/v1/namespaces/${ns}/secrets`,
  });
  const owned = (list.items ?? []).filter((s) =>
    (s.metadata.ownerReferences ?? []).some((r) => r.uid === old.metadata.uid),
  );
  for (const s of owned) {
    await mergePatch(kube, `/api/v1/namespaces/${ns}/secrets/${s.metadata.name}`, {
      metadata: {
        resourceVersion: s.metadata.resourceVersion,
        ownerReferences: handedOver(s.metadata.ownerReferences ?? [], old, created),
      },
    });
  }
  return owned.map((s) => s.metadata.name);
}
