/**
 * The reverse of mapping.ts for `cdnctl export`: the ContainerApp spec of a live application.
 * `compareApp(toDesiredApp(specFromApp(app)), app)` finds nothing to change (tested in
 * reverse-mapping.test.ts): every exported field is copied from the read model in the shape
 * the spec takes, items in live order and keyed by name.
 *
 * Left out: platform ids, derived fields (`image`, `imageDigest`: the tag is the desired
 * state), write-only settings (terminationGracePeriodSeconds, nodeSelectors: never returned),
 * null and empty members, and sticky sessions without headers (the platform's default; the
 * CRD requires at least one header). Variables for which `isSecret` answers true become Secret key
 * references; their values are never copied.
 */
import { toHttpStatusCode } from '../../cdn/http-status-names.js';
import type { App, ContainerTemplateRead, EndpointRead } from '../../cdn/types.js';
import { liveEndpointKind } from './mapping.js';
import type {
  ContainerAppSpec,
  ContainerSpec,
  EndpointSpec,
  EnvVarSpec,
  PortMappingSpec,
} from './types.js';
import { PROTOCOL_NAMES } from './wire-enums.js';
import { fromWireName } from '../kit/enum-spelling.js';

/** Options of {@link specFromApp}. */
export interface AppExportOptions {
  /** True when a variable's value must live in a Secret. */
  isSecret(container: string, variable: string): boolean;
  /** Secret (same namespace) that holds the secret variables; keys are the variable names. */
  secretName: string;
}

/** What {@link specFromApp} built. */
export interface AppExport {
  spec: ContainerAppSpec;
  /** Keys of `secretName` the user must fill (variable names; never their values). */
  secretKeys: string[];
}

/**
 * A deep copy without null, undefined, empty objects and empty lists (the CRD refuses some
 * empty lists, and an absent desired member is not compared).
 */
export function pruneEmpty(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(pruneEmpty).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => [k, pruneEmpty(v)] as const)
    .filter(([, v]) => v !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/** Port mappings in the spec's spelling (protocols `tcp` -> `TCP`). */
function portMappingsSpec(e: EndpointRead): PortMappingSpec[] | undefined {
  return e.portMappings?.map((p) => ({
    ...p,
    protocols: p.protocols?.map((x) => fromWireName(PROTOCOL_NAMES, x) ?? x),
  })) as PortMappingSpec[] | undefined;
}

/**
 * One endpoint as the spec writes it: CDN and Anycast with their settings; an InternalIP
 * endpoint by its name alone (the documented request cannot describe one, so the spec keeps it
 * as it is; see docs/containerapp.md).
 */
function endpointSpec(e: EndpointRead): EndpointSpec {
  const kind = liveEndpointKind(e);
  if (kind === undefined) return { displayName: e.displayName };
  if (kind === 'anycast')
    return { displayName: e.displayName, anycast: { portMappings: portMappingsSpec(e) ?? [] } };
  const cdn = cdnSpec(e);
  return { displayName: e.displayName, ...(cdn ? { cdn } : {}) };
}

/** The `cdn` block of a CDN endpoint, empty members left out. */
function cdnSpec(e: EndpointRead): EndpointSpec['cdn'] {
  const zone = Number(e.pullZoneId);
  return pruneEmpty({
    sslEnabled: e.isSslEnabled,
    pullZoneId: e.pullZoneId && Number.isSafeInteger(zone) && zone > 0 ? zone : undefined,
    portMappings: portMappingsSpec(e),
    stickySessions:
      (e.stickySessions?.sessionHeaders ?? []).length > 0 ? e.stickySessions : undefined,
  }) as EndpointSpec['cdn'];
}

function envSpec(
  t: ContainerTemplateRead,
  opts: AppExportOptions,
  secretKeys: string[],
): EnvVarSpec[] {
  return (t.environmentVariables ?? []).map((v) => {
    if (!opts.isSecret(t.name, v.name)) return { name: v.name, value: v.value ?? '' };
    const key = secretKeys.includes(v.name) ? `${t.name}.${v.name}` : v.name;
    secretKeys.push(key);
    return { name: v.name, valueFrom: { secretKeyRef: { name: opts.secretName, key } } };
  });
}

/** The live probes with each expected status as its code (`ok` -> 200). */
function probesSpec(p: ContainerTemplateRead['probes']): unknown {
  if (!p) return undefined;
  const one = (x: unknown): unknown => {
    const probe = x as { httpGet?: { response?: { expectedStatusCode?: unknown } } } | null;
    const name = probe?.httpGet?.response?.expectedStatusCode;
    if (typeof name !== 'string' || !probe?.httpGet) return x;
    const code = toHttpStatusCode(name);
    return { ...probe, httpGet: { ...probe.httpGet, response: { expectedStatusCode: code } } };
  };
  return { startup: one(p.startup), readiness: one(p.readiness), liveness: one(p.liveness) };
}

function pullPolicy(p: unknown): ContainerSpec['imagePullPolicy'] {
  if (p === 'always') return 'Always';
  return p === 'ifNotPresent' ? 'IfNotPresent' : undefined;
}

function containerSpec(
  t: ContainerTemplateRead,
  opts: AppExportOptions,
  secretKeys: string[],
): ContainerSpec {
  const rest = pruneEmpty({
    imagePullPolicy: pullPolicy(t.imagePullPolicy),
    entryPoint: t.entryPoint,
    probes: probesSpec(t.probes),
    endpoints: (t.endpoints ?? []).map(endpointSpec),
    volumeMounts: (t.volumeMounts ?? []).map((m) => ({ name: m.name, mountPath: m.mountPath })),
  }) as Partial<ContainerSpec> | undefined;
  const env = envSpec(t, opts, secretKeys);
  return {
    name: t.name,
    imageName: t.imageName,
    imageNamespace: t.imageNamespace,
    imageTag: t.imageTag,
    imageRegistryId: t.imageRegistryId,
    ...rest,
    ...(env.length > 0 ? { environmentVariables: env } : {}),
  };
}

/** The optional top-level members (region, repository, volumes), empty ones left out. */
function topLevelOf(app: App): Partial<ContainerAppSpec> {
  const region = pruneEmpty({
    allowedRegionIds: app.regionSettings?.allowedRegionIds,
    requiredRegionIds: app.regionSettings?.requiredRegionIds,
    maxAllowedRegions: app.regionSettings?.maxAllowedRegions,
  }) as ContainerAppSpec['regionSettings'];
  const repository = pruneEmpty(
    (app as { repositorySettings?: unknown }).repositorySettings,
  ) as ContainerAppSpec['repositorySettings'];
  const volumes = (app.volumes ?? []).map((v) => ({
    name: v.name,
    sizeGigabytes: Math.round(v.size),
  }));
  return {
    ...(region ? { regionSettings: region } : {}),
    ...(repository ? { repositorySettings: repository } : {}),
    ...(volumes.length > 0 ? { volumes } : {}),
  };
}

/** See the module comment. */
export function specFromApp(app: App, opts: AppExportOptions): AppExport {
  const secretKeys: string[] = [];
  const { volumes, ...top } = topLevelOf(app);
  const spec: ContainerAppSpec = {
    name: app.name,
    autoScaling: { min: app.autoScaling?.min ?? 1, max: app.autoScaling?.max ?? 1 },
    ...top,
    containerTemplates: (app.containerTemplates ?? []).map((t) =>
      containerSpec(t, opts, secretKeys),
    ),
    ...(volumes ? { volumes } : {}),
  };
  return { spec, secretKeys };
}
