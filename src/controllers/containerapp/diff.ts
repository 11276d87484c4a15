/**
 * Pure comparison of the desired application with the live one.
 *
 * Rules (docs/containerapp.md, "How changes are detected"):
 * - Objects (autoScaling, regionSettings, probes, entryPoint, ...) are compared on the fields
 *   the spec sets; a field the spec leaves out is the platform's to default.
 * - Plain lists (environment variables, volume mounts, region ids, port mappings) are owned
 *   whole by the spec. Region id lists compare as sets.
 * - Containers, volumes and endpoints are matched by name (endpoints by `displayName`): a
 *   desired item without a live match is added, a live item the spec does not name is removed
 *   ("the spec is the truth for managed arrays"). An endpoint whose spec asks for another type
 *   (CDN, Anycast) than the live one is replaced: removed and added in the same write.
 * - Write-only settings (terminationGracePeriodSeconds, regionSettings.nodeSelectors) are
 *   never returned by the platform; they compare against what the operator last applied
 *   (`status.appliedWriteOnly`).
 */
import type {
  App,
  ContainerTemplate,
  ContainerTemplateRead,
  Endpoint,
  EndpointRead,
  Volume,
  VolumeRead,
} from '../../cdn/types.js';
import { jsonEqual } from '../shared/plan.js';
import {
  desiredEndpointKind,
  liveEndpointKind,
  liveEndpointToRequest,
  type DesiredApp,
} from './mapping.js';
import type { WriteOnlyRecord } from './types.js';

/** Container fields compared one by one (name is the key, endpoints are matched separately). */
export const CONTAINER_FIELDS = [
  'image',
  'imageName',
  'imageNamespace',
  'imageTag',
  'imageRegistryId',
  'imageDigest',
  'imagePullPolicy',
  'entryPoint',
  'probes',
  'environmentVariables',
  'volumeMounts',
] as const;
export type ContainerField = (typeof CONTAINER_FIELDS)[number];

/** Region settings fields; `nodeSelectors` is write-only. */
export const REGION_FIELDS = [
  'allowedRegionIds',
  'requiredRegionIds',
  'maxAllowedRegions',
  'nodeSelectors',
] as const;
export type RegionField = (typeof REGION_FIELDS)[number];

/** A live volume; the id is the contract's (the official read model lacks it). */
export type LiveVolume = VolumeRead & { id?: string };

export interface EndpointMatch {
  name: string;
  desired?: Endpoint;
  live?: EndpointRead;
  /** Matched and some desired field differs. */
  changed: boolean;
  /**
   * Matched, but the spec asks for another type than the live one (CDN, Anycast, InternalIP):
   * the platform cannot change an endpoint's type, so the live one is replaced by a new one.
   */
  replaced: boolean;
}

export interface ContainerMatch {
  name: string;
  desired?: ContainerTemplate;
  live?: ContainerTemplateRead;
  changedFields: ContainerField[];
  endpoints: EndpointMatch[];
  /** An endpoint was added, removed or changed. */
  endpointsChanged: boolean;
}

export interface VolumeMatch {
  name: string;
  desired?: Volume;
  live?: LiveVolume;
  changed: boolean;
}

/** Everything that differs, item by item. */
export interface AppComparison {
  name: boolean;
  autoScaling: boolean;
  regionFields: RegionField[];
  repositorySettings: boolean;
  terminationGracePeriodSeconds: boolean;
  containers: ContainerMatch[];
  /** A container was added, removed or changed: the containerTemplates array must be sent. */
  containersChanged: boolean;
  volumes: VolumeMatch[];
  /** A volume was added, removed or resized: the volumes array must be sent. */
  volumesChanged: boolean;
}

/**
 * True when every value `desired` sets equals the one in `live`. Objects compare on the
 * desired keys only; arrays compare whole (same length, element by element). An empty desired
 * array matches an absent live one.
 */
export function covers(desired: unknown, live: unknown): boolean {
  if (desired === undefined) return true;
  if (desired === null) return live === null || live === undefined;
  if (Array.isArray(desired)) return coversArray(desired, live);
  if (typeof desired === 'object') return coversObject(desired as Record<string, unknown>, live);
  return desired === live;
}

function coversArray(desired: unknown[], live: unknown): boolean {
  if (live === undefined || live === null) return desired.length === 0;
  return (
    Array.isArray(live) &&
    live.length === desired.length &&
    desired.every((d, i) => covers(d, live[i]))
  );
}

function coversObject(desired: Record<string, unknown>, live: unknown): boolean {
  if (typeof live !== 'object' || live === null || Array.isArray(live)) return false;
  const l = live as Record<string, unknown>;
  return Object.entries(desired).every(([k, v]) => covers(v, l[k]));
}

/**
 * Pairs desired and live items by name: desired order first (with their live match, if any),
 * then live items the spec does not name. A second live item with an already matched name
 * counts as unnamed.
 */
export function matchByName<D, L>(
  desired: readonly D[],
  live: readonly L[],
  nameOfDesired: (d: D) => string,
  nameOfLive: (l: L) => string,
): { name: string; desired?: D; live?: L }[] {
  const used = new Set<number>();
  const out: { name: string; desired?: D; live?: L }[] = desired.map((d) => {
    const name = nameOfDesired(d);
    const index = live.findIndex((l, i) => !used.has(i) && nameOfLive(l) === name);
    if (index < 0) return { name, desired: d };
    used.add(index);
    return { name, desired: d, live: live[index] };
  });
  live.forEach((l, i) => {
    if (!used.has(i)) out.push({ name: nameOfLive(l), live: l });
  });
  return out;
}

function liveEnv(t: ContainerTemplateRead): { name: string; value: string }[] {
  return (t.environmentVariables ?? []).map((v) => ({ name: v.name, value: v.value ?? '' }));
}

function compareEndpoints(desired: Endpoint[], live: EndpointRead[]): EndpointMatch[] {
  return matchByName(
    desired,
    live,
    (d) => d.displayName,
    (l) => l.displayName,
  ).map((m) => {
    if (!m.desired || !m.live) return { ...m, changed: false, replaced: false };
    const kind = desiredEndpointKind(m.desired);
    const replaced = kind !== undefined && kind !== liveEndpointKind(m.live);
    return {
      ...m,
      replaced,
      changed: replaced || !covers(m.desired, liveEndpointToRequest(m.live)),
    };
  });
}

function compareContainer(m: {
  name: string;
  desired?: ContainerTemplate;
  live?: ContainerTemplateRead;
}): ContainerMatch {
  if (!m.desired || !m.live) {
    return { ...m, changedFields: [], endpoints: [], endpointsChanged: false };
  }
  const live: Record<string, unknown> = { ...m.live, environmentVariables: liveEnv(m.live) };
  const desired = m.desired as Record<string, unknown>;
  const changedFields = CONTAINER_FIELDS.filter((f) => !covers(desired[f], live[f]));
  const endpoints = compareEndpoints(m.desired.endpoints ?? [], m.live.endpoints ?? []);
  const endpointsChanged = endpoints.some((e) => e.changed || !e.desired || !e.live);
  return { ...m, changedFields, endpoints, endpointsChanged };
}

function sorted(ids: string[] | null | undefined): string[] | undefined {
  return ids ? [...ids].sort() : undefined;
}

function compareRegion(
  d: DesiredApp,
  live: App,
  recorded: WriteOnlyRecord | undefined,
): RegionField[] {
  const want = d.regionSettings ?? {};
  const have = live.regionSettings ?? { allowedRegionIds: [], requiredRegionIds: [] };
  const same: Record<RegionField, boolean> = {
    allowedRegionIds: covers(sorted(want.allowedRegionIds), sorted(have.allowedRegionIds) ?? []),
    requiredRegionIds: covers(sorted(want.requiredRegionIds), sorted(have.requiredRegionIds) ?? []),
    maxAllowedRegions: covers(
      want.maxAllowedRegions ?? undefined,
      have.maxAllowedRegions ?? undefined,
    ),
    // Write-only: compared with what the operator last applied.
    nodeSelectors: !want.nodeSelectors || jsonEqual(want.nodeSelectors, recorded?.nodeSelectors),
  };
  return REGION_FIELDS.filter((f) => !same[f]);
}

/** Compares the desired app with the live one (`recorded`: write-only settings last applied). */
export function compareApp(
  desired: DesiredApp,
  live: App,
  recorded: WriteOnlyRecord | undefined,
): AppComparison {
  const containers = matchByName(
    desired.containerTemplates,
    live.containerTemplates ?? [],
    (d) => d.name,
    (l) => l.name,
  ).map(compareContainer);
  const volumes = matchByName<Volume, LiveVolume>(
    desired.volumes,
    live.volumes ?? [],
    (d) => d.name,
    (l) => l.name,
  ).map((m) => ({
    ...m,
    changed: m.desired !== undefined && m.live !== undefined && m.desired.size !== m.live.size,
  }));
  const tgps = desired.terminationGracePeriodSeconds;
  return {
    name: desired.name !== live.name,
    autoScaling: !covers(desired.autoScaling, live.autoScaling),
    regionFields: compareRegion(desired, live, recorded),
    repositorySettings: !covers(desired.repositorySettings, live.repositorySettings ?? {}),
    terminationGracePeriodSeconds:
      tgps !== undefined && tgps !== recorded?.terminationGracePeriodSeconds,
    containers,
    containersChanged: containers.some(
      (c) => !c.desired || !c.live || c.changedFields.length > 0 || c.endpointsChanged,
    ),
    volumes,
    volumesChanged: volumes.some((v) => v.changed || !v.desired || !v.live),
  };
}

/** True when nothing differs. */
export function isUpToDate(c: AppComparison): boolean {
  return (
    !c.name &&
    !c.autoScaling &&
    c.regionFields.length === 0 &&
    !c.repositorySettings &&
    !c.terminationGracePeriodSeconds &&
    !c.containersChanged &&
    !c.volumesChanged
  );
}
