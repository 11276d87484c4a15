/** Shared fixtures of the ContainerApp unit tests: a spec and a live app built from it. */
import type { App, ContainerTemplateRead } from '../../../../src/cdn/types.js';
import {
  NO_REFS,
  toDesiredApp,
  type DesiredApp,
  type ResolvedRefs,
} from '../../../../src/controllers/containerapp/mapping.js';
import type {
  ContainerApp,
  ContainerAppSpec,
  ContainerAppStatus,
} from '../../../../src/controllers/containerapp/types.js';
import type { ExternalContext } from '../../../../src/runtime/types.js';
import { pino } from 'pino';

/** Two containers (web with an endpoint, worker), one volume. */
export function baseSpec(): ContainerAppSpec {
  return {
    name: 'demo app',
    autoScaling: { min: 1, max: 3 },
    regionSettings: { allowedRegionIds: ['DE', 'UK'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1.25',
        imageRegistryId: 'dockerhub',
        environmentVariables: [{ name: 'MODE', value: 'prod' }],
        endpoints: [
          {
            displayName: 'http',
            cdn: { sslEnabled: true, portMappings: [{ containerPort: 80 }] },
          },
        ],
        volumeMounts: [{ name: 'data', mountPath: '/data' }],
      },
      {
        name: 'worker',
        imageName: 'busybox',
        imageNamespace: 'library',
        imageTag: '1.36',
        imageRegistryId: 'dockerhub',
      },
    ],
    volumes: [{ name: 'data', sizeGigabytes: 5 }],
  };
}

export function desiredOf(spec: ContainerAppSpec, refs: ResolvedRefs = NO_REFS): DesiredApp {
  return toDesiredApp(spec, refs);
}

/** Platform-side defaults the read model adds to a probe the spec left partly empty. */
const PROBE_DEFAULTS = {
  initialDelaySeconds: 10,
  periodSeconds: 10,
  timeoutSeconds: 7,
  failureThreshold: 3,
  successThreshold: 1,
};

function liveContainer(c: DesiredApp['containerTemplates'][number]): ContainerTemplateRead {
  const probes = Object.fromEntries(
    Object.entries(c.probes ?? {}).map(([k, p]) => [k, { ...PROBE_DEFAULTS, ...p }]),
  );
  return {
    id: `c-${c.name}`,
    name: c.name,
    packageId: 'pkg',
    image: `${c.imageNamespace}/${c.imageName}:${c.imageTag}`,
    imageName: c.imageName,
    imageNamespace: c.imageNamespace,
    imageTag: c.imageTag,
    imageRegistryId: c.imageRegistryId,
    imageDigest: '',
    imagePullPolicy: c.imagePullPolicy ?? 'ifNotPresent',
    entryPoint: c.entryPoint ?? {},
    probes,
    environmentVariables: (c.environmentVariables ?? []).map((v) => ({ ...v })),
    volumeMounts: (c.volumeMounts ?? []).map((m) => ({ ...m })),
    endpoints: (c.endpoints ?? []).map((e) => ({
      id: `e-${c.name}-${e.displayName}`,
      displayName: e.displayName,
      publicHost: `${e.displayName}.${c.name}.example.net`,
      type: 'cdn' as const,
      isSslEnabled: e.cdn?.isSslEnabled ?? false,
      pullZoneId: String(e.cdn?.pullZoneId ?? 1000),
      portMappings: (e.cdn?.portMappings ?? []).map((p) => ({
        containerPort: p.containerPort,
        exposedPort: p.exposedPort ?? p.containerPort,
        protocols: p.protocols ?? ['tcp'],
      })),
    })),
  };
}

/** The live app the platform would show after creating `desired` (ids derived from names). */
export function liveOf(desired: DesiredApp): App {
  return {
    id: 'app-1',
    name: desired.name,
    status: 'active',
    runtimeType: 'shared',
    autoScaling: { ...desired.autoScaling },
    regionSettings: {
      allowedRegionIds: [...(desired.regionSettings?.allowedRegionIds ?? [])],
      requiredRegionIds: [...(desired.regionSettings?.requiredRegionIds ?? [])],
      maxAllowedRegions: desired.regionSettings?.maxAllowedRegions ?? null,
    },
    containerTemplates: desired.containerTemplates.map(liveContainer),
    containerInstances: [],
    // The documented read model: volume templates without ids (GET .../volumes has them).
    volumes: desired.volumes.map((v) => ({ name: v.name, size: v.size })),
  };
}

/** A ContainerApp object of `spec` (and `status`) named `name` in namespace default. */
export function appObjectOf(
  spec: ContainerAppSpec,
  status?: ContainerAppStatus,
  name = 'demo',
): ContainerApp {
  return {
    apiVersion: 'containers.cdn.operator.io/v1beta1',
    kind: 'ContainerApp',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: spec as ContainerApp['spec'],
    ...(status ? { status } : {}),
  };
}

/** The context of one external call: silent log, a live signal. */
export function externalCtxOf(externalId?: string, createPending = false): ExternalContext {
  return {
    externalId,
    createPending,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}
