/**
 * Status digests salted with the object's uid (each kind declares its own: KindModule
 * `uidDigests`). The new object has a new uid, so a digest copied as is would read as a rotation
 * and cost a platform write on the first pass. Each digest that matches the Secret's current
 * value under the legacy uid is computed again for the new uid; one that does not (a rotation the
 * legacy object never applied) is copied as is, and the new object applies it.
 */
import type { UidSaltedDigest } from '../../../controllers/kind-module.js';
import { KINDS } from '../../../controllers/kinds.js';
import { isKubeStatus, type KubeClient } from '../../../runtime/kube-client.js';
import type { LiveObject } from './legacy-api.js';

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The digest for the new uid when `recorded` is the digest of `value` under the old uid;
 * otherwise `recorded` unchanged (see the module comment).
 */
export function rekeyedDigest(
  entry: Pick<UidSaltedDigest, 'digest'>,
  uids: { from: string | undefined; to: string | undefined },
  recorded: string,
  value: string | undefined,
): string {
  if (value === undefined || entry.digest(uids.from, value) !== recorded) return recorded;
  return entry.digest(uids.to, value);
}

async function readSecretKey(
  kube: KubeClient,
  namespace: string,
  ref: unknown,
): Promise<string | undefined> {
  const { name, key } = (ref ?? {}) as { name?: unknown; key?: unknown };
  if (typeof name !== 'string' || typeof key !== 'string') return undefined;
  try {
    const secret = await kube.request<{ data?: Record<string, string> }>({
      method: 'GET',
      path: `/api/v1/namespaces/${namespace}/secrets/${name}`,
    });
    const encoded = secret.data?.[key];
    return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
  } catch (err) {
    if (isKubeStatus(err, 404)) return undefined;
    throw err;
  }
}

/** The uid-salted digests `kind` declares (none for a kind that has no such digest). */
export async function uidDigestsOf(kind: string): Promise<readonly UidSaltedDigest[]> {
  return (await KINDS.find((k) => k.kind === kind)?.uidDigests?.()) ?? [];
}

/** Re-keys, in `status` (changed in place), the digests of `old`'s kind for `created`'s uid. */
export async function rekeyUidDigests(
  kube: KubeClient,
  old: LiveObject,
  created: LiveObject,
  status: Record<string, unknown>,
): Promise<void> {
  for (const entry of await uidDigestsOf(old.kind)) {
    const recorded = valueAt(status, entry.statusPath);
    const holder = valueAt(status, entry.statusPath.slice(0, -1));
    if (typeof recorded !== 'string' || !old.metadata.namespace) continue;
    const ref = valueAt(old.spec, entry.secretRefPath);
    const value = await readSecretKey(kube, old.metadata.namespace, ref);
    const uids = { from: old.metadata.uid, to: created.metadata.uid };
    const last = entry.statusPath[entry.statusPath.length - 1] ?? '';
    (holder as Record<string, unknown>)[last] = rekeyedDigest(entry, uids, recorded, value);
  }
}
