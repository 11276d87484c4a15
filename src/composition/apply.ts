/**
 * How the composition writes its objects: server-side apply with a field manager of its own
 * (`cdn-operator-routes`) and `force`, so the fields it sets are its own. A hand edit of a field
 * it sets (a generated PullZoneConfig's origin, say) is undone on the next pass: the edit takes
 * the field from us, the live object then differs from the desired one, and the forced apply
 * takes it back. Fields it never sets stay the editor's. An object that already holds every
 * desired value is not written at all, so a pass with nothing to do makes no write (and the
 * children's controllers see no change, hence no platform write).
 */
import type { DesiredObject } from '../controllers/cdnpolicy/compose.js';
import type { KubeClient } from '../runtime/kube-client.js';
import { resourcePath, type ResourceType } from '../runtime/resource.js';

/** The field manager of every composition write. */
export const FIELD_MANAGER = 'cdn-operator-routes';

/** True when every member of `want` is in `have` with the same value (lists: same length). */
export function holds(have: unknown, want: unknown): boolean {
  if (Array.isArray(want))
    return (
      Array.isArray(have) && have.length === want.length && want.every((w, i) => holds(have[i], w))
    );
  if (want !== null && typeof want === 'object') {
    if (have === null || typeof have !== 'object') return false;
    const h = have as Record<string, unknown>;
    return Object.entries(want).every(([k, v]) => holds(h[k], v));
  }
  return have === want;
}

/** True when the live object already holds the desired spec and labels. */
export function isApplied(live: Record<string, unknown> | undefined, want: DesiredObject): boolean {
  if (!live) return false;
  const meta = (live.metadata ?? {}) as Record<string, unknown>;
  return holds(meta.labels ?? {}, want.metadata.labels) && holds(live.spec, want.spec);
}

/** Server-side apply of `obj` (created when absent). */
export async function applyObject(
  client: KubeClient,
  type: ResourceType,
  obj: DesiredObject,
): Promise<void> {
  await client.request({
    method: 'PATCH',
    path: resourcePath(type, obj.metadata.namespace, obj.metadata.name),
    query: { fieldManager: FIELD_MANAGER, force: true },
    contentType: 'application/apply-patch+yaml',
    body: obj,
  });
}

/**
 * Lets an object go without deleting it (Orphan): its owner reference and the labels naming the
 * policy and route are removed, so it is an ordinary object of the namespace from then on.
 */
export async function releaseObject(
  client: KubeClient,
  type: ResourceType,
  namespace: string,
  name: string,
  labels: readonly string[],
): Promise<void> {
  await client.request({
    method: 'PATCH',
    path: resourcePath(type, namespace, name),
    contentType: 'application/merge-patch+json',
    body: {
      metadata: {
        ownerReferences: null,
        labels: Object.fromEntries(labels.map((l) => [l, null])),
      },
    },
  });
}

/** Deletes an object (its own controller then deletes its platform resource). */
export async function deleteObject(
  client: KubeClient,
  type: ResourceType,
  namespace: string,
  name: string,
): Promise<void> {
  await client.request({ method: 'DELETE', path: resourcePath(type, namespace, name) });
}
