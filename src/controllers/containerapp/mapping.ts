/**
 * Pure mapping between the ContainerApp spec and the platform's application model.
 *
 * - spec + resolved references -> {@link DesiredApp}: the request-shaped configuration the
 *   operator wants, items in spec order and without platform ids.
 * - live read model -> request shape, so desired and live compare field by field.
 * - live read model -> the `status.containers` summary.
 */
import { toHttpStatusName } from '../../cdn/http-status-names.js';
import type {
  AppRequest,
  ContainerTemplate,
  ContainerTemplateRead,
  Endpoint,
  EndpointRead,
  RegionSettingsRequest,
  Volume,
} from '../../cdn/types.js';
import type {
  ContainerAppSpec,
  ContainerAppStatus,
  ContainerSpec,
  ContainerStatus,
  EndpointSpec,
  EndpointStatus,
  EnvVarSpec,
  PortMappingSpec,
  ProbeSpec,
  WriteOnlyRecord,
} from './types.js';
import { ANYCAST_IP_VERSION_NAMES, ENDPOINT_TYPE_NAMES, PROTOCOL_NAMES } from './wire-enums.js';
import { shownName, toWireName } from '../kit/enum-spelling.js';

/** Values resolved from other objects before mapping (see references.ts). */
export interface ResolvedRefs {
  /** Key {@link envKey}: value read from a Secret or ConfigMap. Absent: optional and missing. */
  env: ReadonlyMap<string, string>;
  /** Keys {@link envKey} of variables whose value came from a Secret (never rendered). */
  secretEnv: ReadonlySet<string>;
  /** PullZoneConfig name -> its pull zone id. */
  pullZones: ReadonlyMap<string, number>;
  /** ContainerRegistry name -> its registry id (absent in a spec without registryRef). */
  registries?: ReadonlyMap<string, number>;
  /** The syslog token read from `spec.logForwarding.tokenSecretRef` (absent without one). */
  logForwardingToken?: string;
}

/** Desired configuration in request shape, no ids; arrays in spec order. */
export interface DesiredApp {
  name: string;
  autoScaling: { min: number; max: number };
  regionSettings?: RegionSettingsRequest;
  terminationGracePeriodSeconds?: number;
  repositorySettings?: AppRequest['repositorySettings'];
  containerTemplates: ContainerTemplate[];
  volumes: Volume[];
  /** Keys {@link envKey} of variables whose value is secret. */
  secretEnv: ReadonlySet<string>;
}

/** Key of one environment variable of one container. */
export function envKey(container: string, variable: string): string {
  return `${container}\u0000${variable}`;
}

/** An empty {@link ResolvedRefs} (a spec without references). */
export const NO_REFS: ResolvedRefs = { env: new Map(), secretEnv: new Set(), pullZones: new Map() };

function defined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function mapEnv(
  container: string,
  vars: EnvVarSpec[] | undefined,
  refs: ResolvedRefs,
): { name: string; value?: string }[] {
  const out: { name: string; value?: string }[] = [];
  for (const v of vars ?? []) {
    if (v.valueFrom?.secretKeyRef || v.valueFrom?.configMapKeyRef) {
      const value = refs.env.get(envKey(container, v.name));
      // Absent only when the reference is optional and missing: leave the variable out.
      if (value !== undefined) out.push({ name: v.name, value });
      continue;
    }
    out.push({ name: v.name, value: v.value ?? '' });
  }
  return out;
}

/** Port mappings as sent: protocols in the platform's spelling. */
function mapPortMappings(
  mappings: PortMappingSpec[] | undefined,
): NonNullable<NonNullable<Endpoint['cdn']>['portMappings']> | undefined {
  return mappings?.map((p) =>
    defined({ ...p, protocols: p.protocols?.map((x) => toWireName(PROTOCOL_NAMES, x)) }),
  );
}

function mapEndpoint(e: EndpointSpec, refs: ResolvedRefs): Endpoint {
  if (e.anycast) {
    const ipVersion = e.anycast.ipVersion ?? 'IPv4';
    return {
      displayName: e.displayName,
      anycast: {
        type: toWireName(ANYCAST_IP_VERSION_NAMES, ipVersion),
        portMappings: mapPortMappings(e.anycast.portMappings) ?? [],
      },
    };
  }
  if (!e.cdn) return { displayName: e.displayName };
  const { pullZoneRef, pullZoneId, sslEnabled, ...rest } = e.cdn;
  const zone = pullZoneRef ? refs.pullZones.get(pullZoneRef.name) : pullZoneId;
  return {
    displayName: e.displayName,
    cdn: defined({
      ...rest,
      isSslEnabled: sslEnabled,
      pullZoneId: zone,
      portMappings: mapPortMappings(rest.portMappings),
    }) as Endpoint['cdn'],
  };
}

/**
 * One probe as sent. The platform's probe type marks the timing fields as required-but-nullable;
 * the spec leaves them optional and the platform applies its defaults.
 */
type WireProbe = NonNullable<NonNullable<ContainerTemplate['probes']>['startup']>;

/**
 * The documented name of a probe's expected status (`200` -> `ok`). A value with no documented
 * name is sent as written, so the platform's answer names the field (the CRD already refuses
 * such values).
 */
function mapProbe(x: ProbeSpec): WireProbe {
  const expected = x.httpGet?.response?.expectedStatusCode;
  if (expected === undefined || !x.httpGet) return x as WireProbe;
  const name = toHttpStatusName(expected) ?? expected;
  return { ...x, httpGet: { ...x.httpGet, response: { expectedStatusCode: name } } } as WireProbe;
}

function mapProbes(p: ContainerSpec['probes']): ContainerTemplate['probes'] {
  if (!p) return undefined;
  const one = (x: ProbeSpec | undefined): WireProbe | undefined => (x ? mapProbe(x) : undefined);
  return defined({
    startup: one(p.startup),
    readiness: one(p.readiness),
    liveness: one(p.liveness),
  });
}

/** The registry id of a container: its registryRef resolved, else its raw imageRegistryId. */
function registryIdOf(c: ContainerSpec, refs: ResolvedRefs): string {
  if (!c.registryRef) return c.imageRegistryId ?? '';
  const id = refs.registries?.get(c.registryRef.name);
  // resolveRefs waits until every registryRef has an id, so this is a programming error.
  if (id === undefined)
    throw new Error(
      `cannot map container ${c.name}: registryRef ${c.registryRef.name} is not resolved`,
    );
  return String(id);
}

function mapContainer(c: ContainerSpec, refs: ResolvedRefs): ContainerTemplate {
  return defined({
    name: c.name,
    image: c.image,
    imageName: c.imageName,
    imageNamespace: c.imageNamespace,
    imageTag: c.imageTag,
    imageRegistryId: registryIdOf(c, refs),
    imageDigest: c.imageDigest,
    imagePullPolicy:
      c.imagePullPolicy === undefined ? undefined : toWirePullPolicy(c.imagePullPolicy),
    entryPoint: c.entryPoint,
    probes: mapProbes(c.probes),
    environmentVariables: mapEnv(c.name, c.environmentVariables, refs),
    endpoints: (c.endpoints ?? []).map((e) => mapEndpoint(e, refs)),
    volumeMounts: (c.volumeMounts ?? []).map((m) => ({ name: m.name, mountPath: m.mountPath })),
  });
}

/** `Always` -> `always`, `IfNotPresent` -> `ifNotPresent`. */
export function toWirePullPolicy(p: 'Always' | 'IfNotPresent'): 'always' | 'ifNotPresent' {
  return p === 'Always' ? 'always' : 'ifNotPresent';
}

/**
 * The desired configuration. Container-level lists (environment variables, endpoints, volume
 * mounts) and the top-level lists (containers, volumes) are always present: the spec is the
 * truth for them, so leaving one out of the spec means "none".
 */
export function toDesiredApp(spec: ContainerAppSpec, refs: ResolvedRefs): DesiredApp {
  return {
    name: spec.name,
    autoScaling: { min: spec.autoScaling.min, max: spec.autoScaling.max },
    ...(spec.regionSettings ? { regionSettings: defined({ ...spec.regionSettings }) } : {}),
    ...(spec.terminationGracePeriodSeconds !== undefined
      ? { terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds }
      : {}),
    ...(spec.repositorySettings
      ? { repositorySettings: defined({ ...spec.repositorySettings }) }
      : {}),
    containerTemplates: spec.containerTemplates.map((c) => mapContainer(c, refs)),
    volumes: (spec.volumes ?? []).map((v) => ({ name: v.name, size: v.sizeGigabytes })),
    secretEnv: refs.secretEnv,
  };
}

/**
 * Body of `POST /mc/apps`. `runtimeType` is not part of the contract's model; the platform's
 * document requires it, so new applications are created on the shared runtime.
 */
export function toCreateBody(d: DesiredApp): AppRequest {
  return defined({
    name: d.name,
    runtimeType: 'shared' as const,
    autoScaling: d.autoScaling,
    regionSettings: d.regionSettings ?? {},
    terminationGracePeriodSeconds: d.terminationGracePeriodSeconds,
    repositorySettings: d.repositorySettings,
    containerTemplates: d.containerTemplates,
    volumes: d.volumes,
  });
}

/** The write-only settings of a desired app, as recorded in status once applied. */
export function writeOnlyOf(d: DesiredApp): WriteOnlyRecord {
  return defined({
    terminationGracePeriodSeconds: d.terminationGracePeriodSeconds,
    nodeSelectors: d.regionSettings?.nodeSelectors ?? undefined,
  });
}

/** The kind of write an endpoint is: `cdn`, `anycast`, or none named (the platform's choice). */
export type EndpointKind = 'cdn' | 'anycast' | undefined;

/** The kind a desired endpoint asks for (none: a displayName alone takes any live endpoint). */
export function desiredEndpointKind(e: Endpoint): EndpointKind {
  if (e.anycast) return 'anycast';
  return e.cdn ? 'cdn' : undefined;
}

/**
 * The kind a live endpoint is written as. An InternalIP endpoint (`publicIp`) has none: the
 * documented request cannot describe it, so only a displayName-only item matches it.
 */
export function liveEndpointKind(e: EndpointRead): EndpointKind {
  if (e.type === 'anycast') return 'anycast';
  return e.type === 'cdn' || e.type === undefined ? 'cdn' : undefined;
}

/**
 * A live endpoint in request shape: a CDN endpoint with its pull zone id as a number (absent
 * when none), an Anycast one with the only address family the document has, an InternalIP one
 * as its name alone.
 */
export function liveEndpointToRequest(e: EndpointRead): Endpoint & { id?: string } {
  const kind = liveEndpointKind(e);
  if (kind === 'anycast')
    return {
      id: e.id,
      displayName: e.displayName,
      anycast: { type: ANYCAST_IP_VERSION_NAMES.IPv4, portMappings: e.portMappings },
    };
  if (kind === undefined) return { id: e.id, displayName: e.displayName };
  const zone = e.pullZoneId === '' || e.pullZoneId == null ? undefined : Number(e.pullZoneId);
  return {
    id: e.id,
    displayName: e.displayName,
    cdn: defined({
      isSslEnabled: e.isSslEnabled,
      pullZoneId: Number.isFinite(zone) ? zone : undefined,
      portMappings: e.portMappings,
      stickySessions: e.stickySessions,
    }),
  };
}

/** A pull zone id the platform reports as text (`"123"`), as a number; none when not one. */
function pullZoneIdOf(wire: unknown): number | undefined {
  const id = Number(wire);
  return wire !== '' && wire !== null && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** A volume as `status.volumes` shows it (the platform reads the size as a number). */
export function toVolumeStatus(v: {
  name: string;
  id?: string | null;
  size: number;
}): NonNullable<ContainerAppStatus['volumes']>[number] {
  return { name: v.name, ...(v.id ? { id: v.id } : {}), sizeGigabytes: Math.round(v.size) };
}

/** Port mappings as status shows them: protocols in the spec's spelling; none when empty. */
function portMappingsStatus(
  mappings: EndpointRead['portMappings'] | undefined,
): EndpointStatus['portMappings'] {
  if (!mappings?.length) return undefined;
  return mappings.map((p) => ({
    ...p,
    protocols: p.protocols?.map((x) => shownName(PROTOCOL_NAMES, x)),
  }));
}

/** The `status.containers` entry of one live container template. */
export function toContainerStatus(t: ContainerTemplateRead): ContainerStatus {
  return {
    name: t.name,
    id: t.id,
    ...(t.image ? { image: t.image } : {}),
    endpoints: (t.endpoints ?? []).map((e) =>
      defined({
        displayName: e.displayName,
        id: e.id,
        type: e.type ? shownName(ENDPOINT_TYPE_NAMES, e.type) : undefined,
        publicHost: e.publicHost || undefined,
        pullZoneId: pullZoneIdOf(e.pullZoneId),
        portMappings: portMappingsStatus(e.portMappings),
        publicIpAddresses: e.publicIpAddresses ?? undefined,
        internalIpAddresses: e.internalIpAddresses ?? undefined,
      }),
    ),
  };
}
