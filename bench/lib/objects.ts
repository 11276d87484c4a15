/**
 * Manifests of the three kinds for the bench and bulk creation through the Kubernetes API
 * (one POST per object, a bounded number in flight, the bench's admin identity).
 */
import type { KubeClient } from '../../src/runtime/kube-client.js';
import { mapLimit } from './stats.js';

/** Group/version of every kind. */
export const API_VERSION = 'cdn.operator.io/v1alpha1';

/** The kinds the bench drives, with their plurals. */
export const KINDS = {
  PullZoneConfig: 'pullzoneconfigs',
  ShieldPolicy: 'shieldpolicies',
  ContainerApp: 'containerapps',
} as const;

/** A kind name. */
export type KindName = keyof typeof KINDS;

/** A manifest (plain JSON). */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: Record<string, unknown>;
};

/** A PullZoneConfig with one origin URL. */
export function pullZoneManifest(
  namespace: string,
  name: string,
  extra: Record<string, unknown> = {},
): Manifest {
  return {
    apiVersion: API_VERSION,
    kind: 'PullZoneConfig',
    metadata: { name, namespace },
    spec: { settings: { originUrl: `https://origin-${name}.example.com`, ...extra } },
  };
}

/** A ShieldPolicy protecting the PullZoneConfig `zone` (WAF on, DDoS standard). */
export function shieldManifest(namespace: string, name: string, zone: string): Manifest {
  return {
    apiVersion: API_VERSION,
    kind: 'ShieldPolicy',
    metadata: { name, namespace },
    spec: { pullZoneRef: { name: zone }, waf: { enabled: true } },
  };
}

/** A ContainerApp with one container template. */
export function containerAppManifest(namespace: string, name: string): Manifest {
  return {
    apiVersion: API_VERSION,
    kind: 'ContainerApp',
    metadata: { name, namespace },
    spec: {
      name,
      autoScaling: { min: 1, max: 2 },
      containerTemplates: [
        {
          name: 'web',
          imageName: 'nginx',
          imageNamespace: 'library',
          imageTag: '1.27',
          imageRegistryId: 'dockerhub',
        },
      ],
    },
  };
}

/** API path of a kind's collection in a namespace. */
export function collectionPath(namespace: string, kind: KindName): string {
  return `/apis/${API_VERSION}/namespaces/${namespace}/${KINDS[kind]}`;
}

/** Creates every manifest (`concurrency` in flight); returns [firstStart, lastDone] ms. */
export async function createAll(
  kube: KubeClient,
  manifests: Manifest[],
  concurrency = 16,
): Promise<{ startedAt: number; doneAt: number }> {
  const startedAt = Date.now();
  await mapLimit(manifests, concurrency, async (m) => {
    const kind = m.kind as KindName;
    await kube.request({
      method: 'POST',
      path: collectionPath(m.metadata.namespace, kind),
      body: m,
      timeoutMs: 120_000,
    });
  });
  return { startedAt, doneAt: Date.now() };
}

/** Merge-patches one object's spec. */
export async function patchSpec(
  kube: KubeClient,
  namespace: string,
  kind: KindName,
  name: string,
  spec: Record<string, unknown>,
): Promise<void> {
  await kube.request({
    method: 'PATCH',
    path: `${collectionPath(namespace, kind)}/${name}`,
    contentType: 'application/merge-patch+json',
    body: { spec },
  });
}

/** Zero-padded object name `prefix-000123`. */
export function objectName(prefix: string, i: number, width = 5): string {
  return `${prefix}-${String(i).padStart(width, '0')}`;
}
