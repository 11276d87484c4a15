/**
 * A Secret that a managed object creates and controls (ownerReference `controller: true` with
 * the object's uid): PullZoneConfig's outputs Secret and StorageZone's password Secret.
 *
 * Writing it is a side effect of the platform reconcile, never part of it: the outcome is a
 * condition of its own and a failure never blocks recording an id or reporting Ready/Synced.
 * Only a Secret this object controls is ever written: an absent Secret is created with that
 * reference; an existing Secret controlled by anything else is refused and left untouched (no
 * reference added, no key written). Writes carry a precondition (create, or a patch pinned to
 * the resourceVersion that was checked), so a Secret swapped between the check and the write is
 * never overwritten. Needs RBAC `create` and `patch` on Secrets (`outputs.enabled` in the chart).
 */
import { loadKubeConfig, KubeApiError, KubeClient } from '../../runtime/kube-client.js';
import type { ConditionInput } from '../../runtime/conditions.js';
import type { ManagedObject } from '../../runtime/types.js';
import { jsonEqual } from './plan.js';

/** Reasons of an owned-Secret condition (`OutputsReady`). */
export const OwnedSecretReason = {
  /** The Secret holds the current values. */
  Written: 'OutputsWritten',
  /** The Secret exists and is not controlled by this object; nothing was written. */
  NotOwned: 'SecretNotOwned',
  /** The Kubernetes API denied the write (RBAC: `outputs.enabled` in the chart). */
  Forbidden: 'Forbidden',
  /** Any other failure of the read or write. */
  WriteFailed: 'WriteFailed',
  /** The Secret is not asked for (shown only after it was removed from the spec). */
  NotRequested: 'NotRequested',
} as const;

/** An ownerReference as stored on a Secret. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** What the outputs writer needs to know about an existing Secret. */
export interface StoredSecret {
  resourceVersion: string;
  ownerReferences: OwnerReference[];
  /** Decoded data. */
  data: Record<string, string>;
}

/** Kubernetes access of the outputs writer; injectable for tests. */
export interface SecretStore {
  /** Reads the Secret from the API (never a cache: ownership is checked on what is stored). */
  get(namespace: string, name: string): Promise<StoredSecret | undefined>;
  /** Creates the Secret; fails (409) when it exists. */
  create(
    namespace: string,
    name: string,
    owner: OwnerReference,
    data: Record<string, string>,
  ): Promise<void>;
  /** Merge-patches `data` (null removes a key); fails (409) unless the resourceVersion matches. */
  patchData(
    namespace: string,
    name: string,
    resourceVersion: string,
    data: Record<string, string | null>,
  ): Promise<void>;
}

const sharedClients = new Map<string, Promise<KubeClient>>();

function kubeClient(kubeconfig: string | undefined): Promise<KubeClient> {
  // --kubeconfig when given, else KUBECONFIG / ~/.kube/config / in-cluster: the operator's own sources.
  const key = kubeconfig ?? '';
  let client = sharedClients.get(key);
  if (!client) {
    client = KubeClient.create(loadKubeConfig(kubeconfig));
    sharedClients.set(key, client);
  }
  return client;
}

interface SecretWire {
  metadata: { resourceVersion?: string; ownerReferences?: OwnerReference[] };
  data?: Record<string, string>;
}

const secretPath = (ns: string, name?: string): string =>
  `/api/v1/namespaces/${encodeURIComponent(ns)}/secrets${name ? `/${encodeURIComponent(name)}` : ''}`;

const encode = (v: string): string => Buffer.from(v, 'utf8').toString('base64');

/** A SecretStore on the operator's Kubernetes credentials (`--kubeconfig` or the defaults). */
export function createSecretStore(kubeconfig?: string): SecretStore {
  const client = (): Promise<KubeClient> => kubeClient(kubeconfig);
  return {
    async get(namespace, name) {
      try {
        const s = await (
          await client()
        ).request<SecretWire>({
          method: 'GET',
          path: secretPath(namespace, name),
        });
        return {
          resourceVersion: s.metadata.resourceVersion ?? '',
          ownerReferences: s.metadata.ownerReferences ?? [],
          data: Object.fromEntries(
            Object.entries(s.data ?? {}).map(([k, v]) => [
              k,
              Buffer.from(v, 'base64').toString('utf8'),
            ]),
          ),
        };
      } catch (err) {
        if (err instanceof KubeApiError && err.statusCode === 404) return undefined;
        throw err;
      }
    },
    async create(namespace, name, owner, data) {
      await (
        await client()
      ).request({
        method: 'POST',
        path: secretPath(namespace),
        body: {
          apiVersion: 'v1',
          kind: 'Secret',
          type: 'Opaque',
          metadata: {
            name,
            namespace,
            labels: { 'app.kubernetes.io/managed-by': 'cdn-operator' },
            ownerReferences: [owner],
          },
          data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, encode(v)])),
        },
      });
    },
    async patchData(namespace, name, resourceVersion, data) {
      await (
        await client()
      ).request({
        method: 'PATCH',
        path: secretPath(namespace, name),
        contentType: 'application/merge-patch+json',
        body: {
          metadata: { resourceVersion },
          data: Object.fromEntries(
            Object.entries(data).map(([k, v]) => [k, v === null ? null : encode(v)]),
          ),
        },
      });
    },
  };
}

/** The ownerReference that makes `obj` the Secret's controller. */
export function controllerRefOf(obj: ManagedObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: false,
  };
}

/** True when `obj` (by uid) is the Secret's controller. */
export function isControlledBy(secret: StoredSecret, obj: ManagedObject): boolean {
  const uid = obj.metadata.uid;
  return (
    uid !== undefined && secret.ownerReferences.some((r) => r.controller === true && r.uid === uid)
  );
}

/** What the condition reports and how its messages name the Secret. */
export interface OwnedSecretTarget {
  /** Condition type (e.g. `OutputsReady`). */
  conditionType: string;
  /** Name of the Secret. */
  name: string;
  /** How messages call it, e.g. `outputs Secret`. */
  what: string;
  /** The spec field that names it, e.g. `spec.writeOutputsTo`. */
  field: string;
}

/** A condition of the owned Secret for `obj`. */
export function ownedSecretCondition(
  obj: ManagedObject,
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
): ConditionInput {
  return { type, status, reason, message, observedGeneration: obj.metadata.generation };
}

/** The patch turning `current` into `desired` (null removes a key); empty when equal. */
function dataPatch(
  current: Record<string, string>,
  desired: Record<string, string>,
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(desired)) if (current[k] !== v) patch[k] = v;
  for (const k of Object.keys(current)) if (!(k in desired)) patch[k] = null;
  return patch;
}

/** A condition for a failed read or write; names the Secret and the HTTP status, never data. */
function failureOf(obj: ManagedObject, t: OwnedSecretTarget, err: unknown): ConditionInput {
  const status = err instanceof KubeApiError ? err.statusCode : undefined;
  if (status === 403)
    return ownedSecretCondition(
      obj,
      t.conditionType,
      'False',
      OwnedSecretReason.Forbidden,
      `cannot write ${t.what} ${t.name}: the operator may not write Secrets (403; Helm value outputs.enabled=true grants it)`,
    );
  const what = status !== undefined ? `HTTP ${status}` : 'no response';
  return ownedSecretCondition(
    obj,
    t.conditionType,
    'False',
    OwnedSecretReason.WriteFailed,
    `cannot write ${t.what} ${t.name}: Kubernetes API ${what}; retried on the next pass`,
  );
}

async function writeOwned(
  obj: ManagedObject,
  t: OwnedSecretTarget,
  data: Record<string, string>,
  store: SecretStore,
): Promise<ConditionInput> {
  const ns = obj.metadata.namespace;
  const current = await store.get(ns, t.name);
  if (!current) {
    await store.create(ns, t.name, controllerRefOf(obj), data);
  } else if (!isControlledBy(current, obj)) {
    return ownedSecretCondition(
      obj,
      t.conditionType,
      'False',
      OwnedSecretReason.NotOwned,
      `cannot write ${t.what} ${t.name}: it exists and is not controlled by this ${obj.kind}; delete it or choose another ${t.field}`,
    );
  } else if (!jsonEqual(current.data, data)) {
    await store.patchData(ns, t.name, current.resourceVersion, dataPatch(current.data, data));
  }
  return ownedSecretCondition(
    obj,
    t.conditionType,
    'True',
    OwnedSecretReason.Written,
    `The ${t.what} ${t.name} is up to date`,
  );
}

/**
 * Brings the Secret `target.name` in line with `data` and returns the condition to report.
 * Never throws, except when `signal` aborted (shutdown).
 */
export async function ensureOwnedSecret(
  obj: ManagedObject,
  target: OwnedSecretTarget,
  data: Record<string, string>,
  store: SecretStore,
  signal?: AbortSignal,
): Promise<ConditionInput> {
  try {
    return await writeOwned(obj, target, data, store);
  } catch (err) {
    if (signal?.aborted) throw err;
    return failureOf(obj, target, err);
  }
}
