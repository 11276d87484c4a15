/**
 * A PullZoneConfig as the apiserver returns it after `kubectl apply` and the operator's
 * create (managedFields of three managers, the last-applied annotation, finalizer, signed
 * create-pending marker, full status): what the informer really receives per object.
 */
import { apiVersionOf } from '../../src/controllers/kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../../src/controllers/pullzoneconfig/types.js';

const GROUP_VERSION = apiVersionOf(PULL_ZONE_CONFIG_NAMES);
import { Annotation, FINALIZER } from '../../src/runtime/reasons.js';

/** Objects created per second: the create rate the cluster bench measures (~50/s). */
const CREATES_PER_SECOND = 50;
const START_MS = Date.parse('2026-11-23T04:00:00Z');

/**
 * The i-th object (unique name, uid and zone id). Its timestamps advance one second per 50
 * objects, as in a real create burst: one timestamp for every object would make the sharing
 * of timestamps (and of records holding them) look better than it is.
 */
export function realisticPullZoneConfig(i: number): Record<string, unknown> {
  const name = `zone-${String(i).padStart(5, '0')}`;
  const namespace = `team-${i % 10}`;
  const spec = {
    settings: {
      originUrl: `https://origin-${name}.example.com`,
      cacheControlMaxAgeOverrideSeconds: 3600,
      enableGeoZoneEU: true,
    },
    hostnames: [{ name: `${name}.example.com`, forceSSL: true }],
  };
  const applied = {
    apiVersion: GROUP_VERSION,
    kind: 'PullZoneConfig',
    metadata: { annotations: {}, name, namespace },
    spec,
  };
  const time = new Date(START_MS + Math.floor(i / CREATES_PER_SECOND) * 1000)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const fieldsV1 = (f: Record<string, unknown>): Record<string, unknown> => ({
    manager: 'kubectl-client-side-apply',
    operation: 'Update',
    apiVersion: GROUP_VERSION,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: f,
  });
  return {
    apiVersion: GROUP_VERSION,
    kind: 'PullZoneConfig',
    metadata: {
      name,
      namespace,
      uid: `6f1c2d3e-${String(i).padStart(4, '0').slice(-4)}-4a5b-8c9d-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100_000 + i * 3),
      generation: 1,
      creationTimestamp: time,
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(applied)}\n`,
        [Annotation.CreatePendingSigned]: `v1.1795406400000.0123456789abcdef.${'Q'.repeat(43)}`,
      },
      finalizers: [FINALIZER],
      managedFields: [
        fieldsV1({
          'f:metadata': {
            'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
          },
          'f:spec': {
            '.': {},
            'f:settings': {
              '.': {},
              'f:originUrl': {},
              'f:cacheControlMaxAgeOverrideSeconds': {},
              'f:enableGeoZoneEU': {},
            },
            'f:hostnames': {},
          },
        }),
        {
          ...fieldsV1({
            'f:metadata': {
              'f:annotations': { [`f:${Annotation.CreatePendingSigned}`]: {} },
              'f:finalizers': { '.': {}, [`v:"${FINALIZER}"`]: {} },
            },
          }),
          manager: 'cdn-operator',
        },
        {
          ...fieldsV1({
            'f:status': {
              '.': {},
              'f:conditions': {},
              'f:observedGeneration': {},
              'f:ownership': {},
              'f:pullZoneId': {},
              'f:cdnHostname': {},
              'f:lastSyncTime': {},
            },
          }),
          manager: 'cdn-operator',
          subresource: 'status',
        },
      ],
    },
    spec,
    status: {
      pullZoneId: String(1_000_000 + i),
      cdnHostname: `${name}.b-cdn.net`,
      hostnames: [{ name: `${name}.example.com`, forceSSL: true, certificate: 'Issued' }],
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Available',
          message: '',
          observedGeneration: 1,
          lastTransitionTime: time,
        },
        {
          type: 'Synced',
          status: 'True',
          reason: 'ReconcileSuccess',
          message: '',
          observedGeneration: 1,
          lastTransitionTime: time,
        },
      ],
      observedGeneration: 1,
      lastSyncTime: time,
      ownership: { account: '0123456789abcdef', adopted: false, deletionPolicy: 'Delete' },
    },
  };
}
