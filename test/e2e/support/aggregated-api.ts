/**
 * Registers an aggregated API server that runs outside the cluster (a process of the e2e): its
 * APIService, and a Service whose Endpoints and EndpointSlice name the process's address, as
 * the chart's Service does for the operator's pods. The apiserver verifies the server against
 * `caBundle` as `<service>.<namespace>.svc`.
 */
import { apply, getObject, waitFor, conditionOf } from './kube.js';

/** Where an aggregated API group is served. */
export interface AggregatedApi {
  group: string;
  version: string;
  namespace: string;
  service: string;
  /** A non-loopback address of this host (see host-address.ts). */
  address: string;
  port: number;
  /** PEM of the CA that signed the server's certificate. */
  caBundle: string;
}

/** The objects of {@link registerAggregatedApi}, as JSON manifests. */
export function aggregatedApiManifests(api: AggregatedApi): unknown[] {
  const { namespace, service: name, address, port } = api;
  const labels = { 'app.kubernetes.io/name': name };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace, labels },
      spec: { ports: [{ name: 'https', port: 443, targetPort: port, protocol: 'TCP' }] },
    },
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace, labels },
      subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port }] }],
    },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name,
        namespace,
        labels: {
          ...labels,
          'kubernetes.io/service-name': name,
          'endpointslice.kubernetes.io/managed-by': 'cdn-operator-e2e',
        },
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [address], conditions: { ready: true } }],
      ports: [{ name: 'https', port, protocol: 'TCP' }],
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `${api.version}.${api.group}` },
      spec: {
        group: api.group,
        version: api.version,
        service: { name, namespace, port: 443 },
        caBundle: Buffer.from(api.caBundle).toString('base64'),
        groupPriorityMinimum: 1000,
        versionPriority: 15,
      },
    },
  ];
}

/** Applies the objects and waits until the APIService is Available. */
export async function registerAggregatedApi(api: AggregatedApi, timeoutMs = 60_000): Promise<void> {
  await apply(
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: aggregatedApiManifests(api) }),
  );
  const name = `${api.version}.${api.group}`;
  await waitFor(
    async () => {
      const available = conditionOf(await getObject('apiservice', '', name), 'Available');
      return available?.status === 'True';
    },
    timeoutMs,
    `APIService ${name} Available`,
    250,
  );
}
