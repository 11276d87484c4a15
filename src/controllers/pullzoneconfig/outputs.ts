/**
 * The outputs Secret (`spec.writeOutputsTo`): values other workloads need to use the zone.
 * Owned by the PullZoneConfig (ownerReference, so Kubernetes deletes it with the resource)
 * and written with server-side apply only when its content differs from the cached Secret.
 * This is the only Kubernetes write the controller makes itself; it needs RBAC `patch` on
 * Secrets (optional in the Helm chart).
 */
import { loadKubeConfig, KubeClient } from '../../runtime/kube-client.js';
import type { ConnectContext } from '../../runtime/types.js';
import { jsonEqual } from '../shared/plan.js';
import { API_VERSION, type PullZoneConfig } from './types.js';

/** Field manager of the outputs Secret writes. */
export const OUTPUTS_FIELD_MANAGER = 'cdn-operator-pullzoneconfig';

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

/** Writes a Secret; injectable for tests. */
export type SecretApplier = (
  obj: PullZoneConfig,
  name: string,
  data: Record<string, string>,
) => Promise<void>;

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

/** Returns a SecretApplier that server-side applies with the operator's Kubernetes credentials. */
export function createSecretApplier(kubeconfig?: string): SecretApplier {
  return (obj, name, data) => applySecretWith(kubeClient(kubeconfig), obj, name, data);
}

/** Server-side applies the Secret with an ownerReference to `obj` (default Kubernetes config). */
export const applySecret: SecretApplier = (obj, name, data) =>
  applySecretWith(kubeClient(undefined), obj, name, data);

async function applySecretWith(
  clientPromise: Promise<KubeClient>,
  obj: PullZoneConfig,
  name: string,
  data: Record<string, string>,
): Promise<void> {
  const client = await clientPromise;
  const ns = obj.metadata.namespace;
  const body = {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name,
      namespace: ns,
      labels: { 'app.kubernetes.io/managed-by': 'cdn-operator' },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: obj.kind,
          name: obj.metadata.name,
          uid: obj.metadata.uid,
          controller: true,
          blockOwnerDeletion: false,
        },
      ],
    },
    stringData: data,
  };
  await client.request({
    method: 'PATCH',
    path: `/api/v1/namespaces/${encodeURIComponent(ns)}/secrets/${encodeURIComponent(name)}`,
    query: { fieldManager: OUTPUTS_FIELD_MANAGER, force: true },
    body,
    contentType: 'application/apply-patch+yaml',
  });
}

/** Secret data for the outputs (undefined keys left out). */
export function outputsData(o: PullZoneOutputs): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') data[k] = v;
  return data;
}

/**
 * Writes the outputs Secret when its cached content differs. Returns true when it wrote.
 */
export async function ensureOutputs(
  obj: PullZoneConfig,
  outputs: PullZoneOutputs,
  readSecret: ConnectContext['readSecret'],
  apply: SecretApplier = applySecret,
): Promise<boolean> {
  const name = obj.spec?.writeOutputsTo;
  if (!name) return false;
  const data = outputsData(outputs);
  const current = await readSecret(obj.metadata.namespace, name);
  if (current && jsonEqual(current, data)) return false;
  await apply(obj, name, data);
  return true;
}
