/**
 * Application drafts -> stored read model (Magic Containers `Application` / `ContainerTemplate`):
 * semantic checks on the full configuration, then id allocation, system-made pull zones for
 * CDN endpoints that name none, anycast addresses for Anycast endpoints, and the read-model
 * fields the service fills in (publicHost, IP address lists, the members a sent sticky sessions
 * block leaves out, image digest, package id).
 * What the request left out (sticky sessions, an exposed port) stays out of the read model, as
 * the live API echoes the request (the vendor's Terraform provider depends on it, issue 49).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { FieldError } from '../errors.js';
import type { SimState, StoredApp } from '../state.js';
import type { JsonObject } from '../types.js';
import { createPullZone, SYSTEM_HOSTNAME_SUFFIX } from './pullzone-model.js';

const REQUIRED_CONTAINER_FIELDS = [
  'name',
  'imageName',
  'imageNamespace',
  'imageTag',
  'imageRegistryId',
];
const DEFAULT_COOKIE = 'bunny_sticky';

function list(value: unknown): JsonObject[] {
  return Array.isArray(value) ? (value as JsonObject[]) : [];
}

function duplicates(names: unknown[]): Set<unknown> {
  const seen = new Set<unknown>();
  const dup = new Set<unknown>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return dup;
}

function checkScaling(draft: JsonObject, errors: FieldError[]): void {
  const scaling = draft.autoScaling as { min?: number; max?: number } | undefined;
  if (scaling?.min !== undefined && scaling.max !== undefined && scaling.min > scaling.max) {
    errors.push({
      field: 'autoScaling.min',
      message: `min (${scaling.min}) must not exceed max (${scaling.max})`,
    });
  }
}

function checkRegions(draft: JsonObject, errors: FieldError[]): void {
  const region = (draft.regionSettings ?? {}) as JsonObject;
  const allowed = (region.allowedRegionIds as string[] | null | undefined) ?? [];
  const required = (region.requiredRegionIds as string[] | null | undefined) ?? [];
  const missing = required.filter((r) => allowed.length > 0 && !allowed.includes(r));
  if (missing.length > 0) {
    errors.push({
      field: 'regionSettings.requiredRegionIds',
      message: `required regions ${missing.join(', ')} are not in allowedRegionIds`,
    });
  }
  const max = region.maxAllowedRegions as number | null | undefined;
  if (typeof max === 'number' && (max < 1 || max < required.length)) {
    errors.push({
      field: 'regionSettings.maxAllowedRegions',
      message: `must be at least 1 and at least the number of required regions`,
    });
  }
}

function checkEndpoints(c: JsonObject, path: string, state: SimState, errors: FieldError[]): void {
  list(c.endpoints).forEach((e, j) => {
    const at = `${path}.endpoints[${j}]`;
    if (!e.displayName) errors.push({ field: `${at}.displayName`, message: 'is required' });
    if (e.anycast != null && e.cdn != null)
      errors.push({ field: at, message: 'an endpoint is either cdn or anycast, not both' });
    const pz = (e.cdn as JsonObject | undefined)?.pullZoneId;
    if (typeof pz === 'number' && !state.pullZones.has(pz)) {
      errors.push({ field: `${at}.cdn.pullZoneId`, message: `pull zone ${pz} does not exist` });
    }
  });
}

function checkContainer(
  c: JsonObject,
  i: number,
  volumeNames: Set<unknown>,
  state: SimState,
  errors: FieldError[],
): void {
  const path = `containerTemplates[${i}]`;
  for (const field of REQUIRED_CONTAINER_FIELDS) {
    if (typeof c[field] !== 'string' || c[field] === '')
      errors.push({ field: `${path}.${field}`, message: 'is required' });
  }
  list(c.volumeMounts).forEach((m, j) => {
    if (!volumeNames.has(m.name)) {
      errors.push({
        field: `${path}.volumeMounts[${j}].name`,
        message: `volume ${String(m.name)} is not defined in volumes`,
      });
    }
  });
  checkEndpoints(c, path, state, errors);
}

/** Semantic problems of a full configuration (after merge). */
export function checkDraft(draft: JsonObject, state: SimState): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof draft.name !== 'string' || draft.name === '')
    errors.push({ field: 'name', message: 'is required' });
  checkScaling(draft, errors);
  checkRegions(draft, errors);
  const containers = list(draft.containerTemplates);
  const volumes = list(draft.volumes);
  for (const name of duplicates(containers.map((c) => c.name))) {
    errors.push({
      field: 'containerTemplates',
      message: `container name ${String(name)} is used twice`,
    });
  }
  for (const name of duplicates(volumes.map((v) => v.name))) {
    errors.push({ field: 'volumes', message: `volume name ${String(name)} is used twice` });
  }
  const volumeNames = new Set(volumes.map((v) => v.name));
  containers.forEach((c, i) => checkContainer(c, i, volumeNames, state, errors));
  return errors;
}

interface BuildContext {
  state: SimState;
  appId: string;
  regions: string[];
  previous: Map<string, JsonObject>;
  autoPullZones: Record<string, number>;
}

function ipFor(seed: string): string {
  const h = createHash('sha256').update(seed).digest();
  return `10.${h[0] ?? 0}.${h[1] ?? 0}.${((h[2] ?? 0) % 250) + 2}`;
}

/**
 * The read model's sticky sessions: what the request sent, with the members the read model
 * requires filled in; absent when the request sent none (the live API echoes the request: a
 * client that left the block out reads none back).
 */
function stickyOf(cdn: JsonObject): JsonObject | undefined {
  const s = cdn.stickySessions as JsonObject | undefined | null;
  if (!s) return undefined;
  return {
    enabled: s.enabled ?? false,
    sessionHeaders: s.sessionHeaders ?? [],
    cookieName: s.cookieName || DEFAULT_COOKIE,
  };
}

/** A port mapping as read: the exposed port only when the request gave one (live echo). */
function portMappingOf(p: JsonObject): JsonObject {
  return {
    containerPort: p.containerPort,
    ...(typeof p.exposedPort === 'number' ? { exposedPort: p.exposedPort } : {}),
    protocols: p.protocols ?? ['tcp'],
  };
}

function pullZoneFor(endpointId: string, cdn: JsonObject, ctx: BuildContext): number {
  if (typeof cdn.pullZoneId === 'number' && cdn.pullZoneId !== ctx.autoPullZones[endpointId]) {
    // The endpoint now targets a zone of the user's; the one made for it goes away.
    const made = ctx.autoPullZones[endpointId];
    if (made !== undefined) ctx.state.pullZones.delete(made);
    delete ctx.autoPullZones[endpointId];
    return cdn.pullZoneId;
  }
  const existing = ctx.autoPullZones[endpointId];
  if (existing !== undefined && ctx.state.pullZones.has(existing)) return existing;
  const zone = createPullZone(ctx.state, `mc-${endpointId.slice(0, 8)}`, {
    OriginType: 5,
    MagicContainersAppId: ctx.appId,
    MagicContainersEndpointId: endpointId,
  });
  ctx.autoPullZones[endpointId] = Number(zone.record.Id);
  return Number(zone.record.Id);
}

/** The address the platform reports for an endpoint in each region of the app. */
function addressesOf(
  seed: string,
  regions: string[],
  address: (s: string) => string,
): JsonObject[] {
  return regions.map((region) => ({ address: address(`${seed}/${region}`), region }));
}

/** An anycast address, stable per endpoint (198.18.0.0/15, the benchmarking range). */
function anycastIpFor(seed: string): string {
  const h = createHash('sha256').update(`anycast:${seed}`).digest();
  return `198.${18 + ((h[0] ?? 0) % 2)}.${h[1] ?? 0}.${((h[2] ?? 0) % 250) + 2}`;
}

function buildCdnEndpoint(id: string, e: JsonObject, ctx: BuildContext): JsonObject {
  const cdn = (e.cdn as JsonObject | undefined) ?? {};
  const sticky = stickyOf(cdn);
  const pullZoneId = pullZoneFor(id, cdn, ctx);
  const zone = ctx.state.pullZones.get(pullZoneId);
  return {
    id,
    displayName: e.displayName,
    publicHost: `${zone ? (zone.record.Name as string) : String(pullZoneId)}${SYSTEM_HOSTNAME_SUFFIX}`,
    type: 'cdn',
    isSslEnabled: cdn.isSslEnabled ?? true,
    pullZoneId: String(pullZoneId),
    portMappings: list(cdn.portMappings).map(portMappingOf),
    ...(sticky ? { stickySessions: sticky } : {}),
    internalIpAddresses: addressesOf(id, ctx.regions, ipFor),
    publicIpAddresses: [],
  };
}

/**
 * An Anycast endpoint (`anycast` in the request) or an InternalIP one (`publicIp`: only a
 * seeded app has one, the documented request cannot create it; its draft carries the
 * simulator's own `internalIp` member). Neither has a pull zone: the read model requires a
 * non-empty `pullZoneId`, so it reads `"0"`. Anycast: one anycast address, announced in every
 * region of the app, is the public host.
 */
function buildIpEndpoint(id: string, e: JsonObject, ctx: BuildContext): JsonObject {
  const anycast = e.anycast as JsonObject | undefined;
  const body = anycast ?? (e.internalIp as JsonObject | undefined) ?? {};
  const publicAddress = anycastIpFor(id);
  const internal = addressesOf(id, ctx.regions, ipFor);
  return {
    id,
    displayName: e.displayName,
    publicHost: anycast ? publicAddress : internal[0]?.address,
    type: anycast ? 'anycast' : 'publicIp',
    isSslEnabled: false,
    pullZoneId: '0',
    // Clients connect to the exposed port: unset, the platform exposes the container's port.
    portMappings: list(body.portMappings).map((p) =>
      portMappingOf({ ...p, exposedPort: p.exposedPort ?? p.containerPort }),
    ),
    internalIpAddresses: internal,
    publicIpAddresses: anycast ? addressesOf(id, ctx.regions, () => publicAddress) : [],
  };
}

function buildEndpoint(e: JsonObject, ctx: BuildContext): JsonObject {
  const id = typeof e.id === 'string' ? e.id : randomUUID();
  return e.anycast != null || e.internalIp != null
    ? buildIpEndpoint(id, e, ctx)
    : buildCdnEndpoint(id, e, ctx);
}

function imageOf(c: JsonObject): string {
  return `${String(c.imageNamespace)}/${String(c.imageName)}:${String(c.imageTag)}`;
}

function imageFields(c: JsonObject): { image: string; imageDigest: string } {
  const image = typeof c.image === 'string' && c.image !== '' ? c.image : imageOf(c);
  const imageDigest =
    typeof c.imageDigest === 'string'
      ? c.imageDigest
      : `sha256:${createHash('sha256').update(image).digest('hex')}`;
  return { image, imageDigest };
}

function buildContainer(c: JsonObject, ctx: BuildContext): JsonObject {
  const id = typeof c.id === 'string' ? c.id : randomUUID();
  const previous = ctx.previous.get(id);
  const { image, imageDigest } = imageFields(c);
  return {
    id,
    name: c.name,
    packageId: previous?.packageId ?? randomUUID(),
    image,
    imageName: c.imageName,
    imageNamespace: c.imageNamespace,
    imageTag: c.imageTag,
    imageRegistryId: c.imageRegistryId,
    imageDigest,
    imagePullPolicy: c.imagePullPolicy ?? 'ifNotPresent',
    entryPoint: c.entryPoint ?? {},
    probes: c.probes ?? {},
    environmentVariables: c.environmentVariables ?? [],
    endpoints: list(c.endpoints).map((e) => buildEndpoint(e, ctx)),
    volumeMounts: c.volumeMounts ?? [],
  };
}

function indexPrevious(stored: StoredApp | undefined): Map<string, JsonObject> {
  const index = new Map<string, JsonObject>();
  for (const c of list(stored?.app.containerTemplates)) {
    index.set(String(c.id), c);
    for (const e of list(c.endpoints)) index.set(String(e.id), e);
  }
  return index;
}

/** Removes system-made pull zones whose endpoint is gone or now points elsewhere. */
function dropOrphanPullZones(
  state: SimState,
  autoPullZones: Record<string, number>,
  live: Set<string>,
): void {
  for (const [endpointId, zoneId] of Object.entries(autoPullZones)) {
    if (live.has(endpointId)) continue;
    state.pullZones.delete(zoneId);
    delete autoPullZones[endpointId];
  }
}

function regionSettingsOf(draft: JsonObject): JsonObject {
  const r = (draft.regionSettings ?? {}) as JsonObject;
  const out: JsonObject = {
    allowedRegionIds: [...new Set((r.allowedRegionIds as string[] | null) ?? [])],
    requiredRegionIds: [...new Set((r.requiredRegionIds as string[] | null) ?? [])],
  };
  if (typeof r.maxAllowedRegions === 'number') out.maxAllowedRegions = r.maxAllowedRegions;
  return out;
}

/** Turns a checked draft into the stored app, allocating ids and system pull zones. */
export function materializeApp(
  draft: JsonObject,
  appId: string,
  stored: StoredApp | undefined,
  state: SimState,
): StoredApp {
  const regionSettings = regionSettingsOf(draft);
  const allowed = regionSettings.allowedRegionIds as string[];
  const autoPullZones = { ...(stored?.hidden.autoPullZones ?? {}) };
  const ctx: BuildContext = {
    state,
    appId,
    regions: allowed.length > 0 ? allowed : ['DE'],
    previous: indexPrevious(stored),
    autoPullZones,
  };
  const containers = list(draft.containerTemplates).map((c) => buildContainer(c, ctx));
  const endpoints = containers.flatMap((c) => list(c.endpoints));
  // A zone made for an endpoint that is gone or no longer a CDN endpoint goes away.
  const cdnEndpoints = endpoints.filter((e) => e.type === 'cdn').map((e) => String(e.id));
  dropOrphanPullZones(state, autoPullZones, new Set(cdnEndpoints));
  const app: JsonObject = {
    id: appId,
    name: draft.name,
    status: 'active',
    runtimeType: draft.runtimeType ?? 'shared',
    regionSettings,
    containerTemplates: containers,
    containerInstances: containers.map((c) => ({
      id: `${String(c.id).slice(0, 8)}-0`,
      templateId: c.id,
      podId: `pod-${String(c.id).slice(0, 8)}`,
      nodeIpAddress: ipFor(String(c.id)),
    })),
    volumes: list(draft.volumes).map((v) => ({
      id: typeof v.id === 'string' ? v.id : randomUUID(),
      name: v.name,
      size: v.size,
    })),
    autoScaling: draft.autoScaling,
  };
  const first = endpoints[0];
  if (first) app.displayEndpoint = { id: first.id, address: first.publicHost, type: first.type };
  if (draft.repositorySettings !== undefined) app.repositorySettings = draft.repositorySettings;
  const hidden: StoredApp['hidden'] = {
    autoPullZones,
    nodeSelectors:
      ((draft.regionSettings as JsonObject | undefined)?.nodeSelectors as
        Record<string, string> | null | undefined) ?? null,
  };
  if (typeof draft.terminationGracePeriodSeconds === 'number')
    hidden.terminationGracePeriodSeconds = draft.terminationGracePeriodSeconds;
  return { app, hidden };
}

/** Deletes the pull zones the simulator made for an app's endpoints. */
export function dropAppPullZones(state: SimState, stored: StoredApp): void {
  dropOrphanPullZones(state, stored.hidden.autoPullZones, new Set());
}
