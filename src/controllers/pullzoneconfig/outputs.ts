/**
 * The outputs Secret (`spec.writeOutputsTo`): values other workloads need to use the zone.
 *
 * Outputs are a side effect of the platform reconcile, never part of it: their outcome is a
 * condition of its own (`OutputsReady`) and a failure here never blocks recording the zone id,
 * adding hostnames or reporting Ready/Synced.
 *
 * Only a Secret this object controls is ever written (ownerReference `controller: true` with
 * this object's uid): an absent Secret is created with that reference; an existing Secret
 * controlled by anything else is refused and left untouched (no reference added, no key
 * written). Writes carry a precondition (create, or a patch pinned to the resourceVersion that
 * was checked), so a Secret swapped between the check and the write is never overwritten.
 * Needs RBAC `create` and `patch` on Secrets (`outputs.enabled` in the Helm chart).
 */
import { loadKubeConfig, KubeApiError, KubeClient } from '../../runtime/kube-client.js';
import type { ConditionInput } from '../../runtime/conditions.js';
import { jsonEqual } from '../shared/plan.js';
import { API_VERSION, type PullZoneConfig } from './types.js';

/** Condition type reporting the outputs Secret. */
export const OUTPUTS_READY = 'OutputsReady';

/** Reasons of the OutputsReady condition. */
export const OutputsReason = {
  /** The Secret holds the current outputs. */
  Written: 'OutputsWritten',
  /** The Secret exists and is not controlled by this object; nothing was written. */
  NotOwned: 'SecretNotOwned',
  /** The Kubernetes API denied the write (RBAC: `outputs.enabled` in the chart). */
  Forbidden: 'Forbidden',
  /** Any other failure of the read or write. */
  WriteFailed: 'WriteFailed',
  /** `spec.writeOutputsTo` is not set (shown only after it was removed). */
  NotRequested: 'NotRequested',
} as const;

/** Keys of the outputs Secret. */
export interface PullZoneOutputs {
  pullZoneId: string;
  pullZoneName: string;
  cdnHostname: string;
  /** `https://<cdnHostname>`. */
  cdnUrl: string;
  /** Custom hostnames, comma-separated. */
  hostnames: string;
  /** URL token authentication key; present only when the platform returns one. */
  zoneSecurityKey?: string;
}

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

/** Secret data for the outputs (undefined keys left out). */
export function outputsData(o: PullZoneOutputs): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') data[k] = v;
  return data;
}

/** The ownerReference that makes `obj` the Secret's controller. */
export function controllerRefOf(obj: PullZoneConfig): OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind: obj.kind,
    name: obj.metadata.name,
    uid: obj.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: false,
  };
}

/** True when `obj` (by uid) is the Secret's controller. */
export function isControlledBy(secret: StoredSecret, obj: PullZoneConfig): boolean {
  const uid = obj.metadata.uid;
  return (
    uid !== undefined && secret.ownerReferences.some((r) => r.controller === true && r.uid === uid)
  );
}

function condition(
  obj: PullZoneConfig,
  status: 'True' | 'False',
  reason: string,
  message: string,
): ConditionInput {
  return {
    type: OUTPUTS_READY,
    status,
    reason,
    message,
    observedGeneration: obj.metadata.generation,
  };
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
function failureOf(obj: PullZoneConfig, name: string, err: unknown): ConditionInput {
  const status = err instanceof KubeApiError ? err.statusCode : undefined;
  if (status === 403)
    return condition(
      obj,
      'False',
      OutputsReason.Forbidden,
      `cannot write outputs Secret ${name}: the operator may not write Secrets (403; Helm value outputs.enabled=true grants it)`,
    );
  const what = status !== undefined ? `HTTP ${status}` : 'no response';
  return condition(
    obj,
    'False',
    OutputsReason.WriteFailed,
    `cannot write outputs Secret ${name}: Kubernetes API ${what}; retried on the next pass`,
  );
}

async function writeOwned(
  obj: PullZoneConfig,
  name: string,
  data: Record<string, string>,
  store: SecretStore,
): Promise<ConditionInput> {
  const ns = obj.metadata.namespace;
  const current = await store.get(ns, name);
  if (!current) {
    await store.create(ns, name, controllerRefOf(obj), data);
  } else if (!isControlledBy(current, obj)) {
    return condition(
      obj,
      'False',
      OutputsReason.NotOwned,
      `cannot write outputs Secret ${name}: it exists and is not controlled by this PullZoneConfig; delete it or choose another spec.writeOutputsTo`,
    );
  } else if (!jsonEqual(current.data, data)) {
    await store.patchData(ns, name, current.resourceVersion, dataPatch(current.data, data));
  }
  return condition(obj, 'True', OutputsReason.Written, `Outputs are in Secret ${name}`);
}

/**
 * Brings the outputs Secret in line with `outputs` when `spec.writeOutputsTo` is set and
 * returns the OutputsReady condition to report. Never throws, except when `signal` aborted
 * (shutdown). Returns undefined when there is nothing to report.
 */
export async function ensureOutputs(
  obj: PullZoneConfig,
  outputs: PullZoneOutputs,
  store: SecretStore,
  signal?: AbortSignal,
): Promise<ConditionInput | undefined> {
  const name = obj.spec?.writeOutputsTo;
  if (!name) {
    const shown = obj.status?.conditions?.some((c) => c.type === OUTPUTS_READY);
    return shown
      ? condition(obj, 'True', OutputsReason.NotRequested, 'spec.writeOutputsTo is not set')
      : undefined;
  }
  try {
    return await writeOwned(obj, name, outputsData(outputs), store);
  } catch (err) {
    if (signal?.aborted) throw err;
    return failureOf(obj, name, err);
  }
}
