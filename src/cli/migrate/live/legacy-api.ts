/**
 * The live objects of the legacy group (`cdn.operator.io/v1alpha1`) and of the families' groups,
 * by API path. The legacy CRDs are whatever an older release installed; a kind whose legacy CRD
 * is absent has nothing to move.
 */
import { LEGACY_GROUP_VERSION } from '../../../api-group.js';
import type { KindModule } from '../../../controllers/kind-module.js';
import { collectionPathOf } from '../../../controllers/kind-names.js';
import { isKubeStatus, type KubeClient } from '../../../runtime/kube-client.js';

/** The metadata `cdnctl migrate --live` reads and writes. */
export interface LiveObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const nsPart = (kind: KindModule, namespace: string | undefined): string =>
  kind.scope === 'Namespaced' && namespace ? `/namespaces/${namespace}` : '';

/** The legacy collection of `kind` (in `namespace`, or every namespace when undefined). */
export function legacyCollectionPath(kind: KindModule, namespace?: string): string {
  return `/apis/${LEGACY_GROUP_VERSION}${nsPart(kind, namespace)}/${kind.plural}`;
}

/** The path of the legacy object `obj` of `kind`. */
export function legacyObjectPath(kind: KindModule, obj: LiveObject): string {
  return `${legacyCollectionPath(kind, obj.metadata.namespace)}/${obj.metadata.name}`;
}

/** The path of the object of the family group that takes over `obj`. */
export function newObjectPath(kind: KindModule, obj: LiveObject): string {
  return `${collectionPathOf(kind, obj.metadata.namespace)}/${obj.metadata.name}`;
}

/** The plurals the legacy group serves (empty when its CRDs are gone or were never installed). */
export async function legacyPlurals(kube: KubeClient): Promise<Set<string>> {
  try {
    const list = await kube.request<{ resources?: { name: string }[] }>({
      method: 'GET',
      path: `/apis/${LEGACY_GROUP_VERSION}`,
    });
    return new Set((list.resources ?? []).map((r) => r.name).filter((n) => !n.includes('/')));
  } catch (err) {
    if (isKubeStatus(err, 404)) return new Set();
    throw err;
  }
}

/** The legacy objects of `kind` in `namespace` (every namespace when undefined), by name. */
export async function listLegacy(
  kube: KubeClient,
  kind: KindModule,
  namespace?: string,
): Promise<LiveObject[]> {
  const list = await kube.request<{ items?: LiveObject[] }>({
    method: 'GET',
    path: legacyCollectionPath(kind, namespace),
  });
  return (list.items ?? []).map((o) => ({ ...o, kind: kind.kind }));
}

/** GET `path`, or undefined when it is not found. */
export async function getOrAbsent(kube: KubeClient, path: string): Promise<LiveObject | undefined> {
  try {
    return await kube.request<LiveObject>({ method: 'GET', path });
  } catch (err) {
    if (isKubeStatus(err, 404)) return undefined;
    throw err;
  }
}

/** A JSON merge patch of `path` (its `/status` subresource when `status`). */
export async function mergePatch(
  kube: KubeClient,
  path: string,
  body: unknown,
): Promise<LiveObject> {
  return kube.request<LiveObject>({
    method: 'PATCH',
    path,
    body,
    contentType: 'application/merge-patch+json',
  });
}
