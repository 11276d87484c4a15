/**
 * Pure construction of the write that brings the live application to the desired one.
 *
 * PATCH (the default) follows the contract's merge rules: only changed top-level fields are
 * sent; an array is sent only when one of its items was added, removed or changed, and then
 * every item that must survive is in it with its `id` (an item left out is deleted by the
 * platform). Items are sent in spec order, so an index in a validation error (`volumes[1]`)
 * names the spec's item (see field-path.ts).
 *
 * Every container item is a complete documented `ContainerRequest` (name and image fields are
 * required there), and every endpoint item a complete `EndpointRequest`: the documented PATCH
 * model reuses the full request models, so a changes-only item would be rejected. The
 * per-container PATCH endpoint the document also has is not used: the contract does not list
 * it, and one application PATCH keeps a multi-container change atomic.
 *
 * PUT (full replacement) is used only when a setting PATCH cannot carry changes:
 * `terminationGracePeriodSeconds` or `repositorySettings`. The PUT body is the whole desired
 * configuration and the live values of fields the spec leaves to the platform, so the
 * replacement changes nothing the spec does not ask for. Containers carry their ids (the
 * documented `ContainerRequest` has one); volumes and endpoints do not — their documented
 * request models have no `id` and the contract's id rule is stated for PATCH only — and are
 * identified by name.
 */
import type {
  App,
  AppPatch,
  AppRequest,
  ContainerTemplate,
  ContainerTemplateRead,
  Endpoint,
  Volume,
} from '../../cdn/types.js';
import { TerminalError } from '../../runtime/errors.js';
import type { AppComparison, ContainerMatch, EndpointMatch, VolumeMatch } from './diff.js';
import { liveEndpointToRequest, type DesiredApp } from './mapping.js';
import type { WriteOnlyRecord } from './types.js';

/** Reason of the error raised when a live item cannot be kept because it has no id. */
export const MissingItemId = 'MissingItemId';

type ContainerItem = ContainerTemplate;
type EndpointItem = Endpoint;
type VolumeItem = Volume;

/** Volume name -> id, from `GET /mc/apps/{appId}/volumes` (the app read model has no ids). */
export type VolumeIds = ReadonlyMap<string, string>;

function endpointPatchItem(e: EndpointMatch): EndpointItem {
  // Matched: its id plus the complete desired item (merge: unchanged values stay as they are).
  // Replaced (another type): no id, so the live endpoint is deleted and a new one added.
  return e.live && !e.replaced ? { id: e.live.id, ...e.desired! } : e.desired!;
}

function containerPatchItem(c: ContainerMatch): ContainerItem {
  if (!c.live) return c.desired!;
  const { endpoints: _endpoints, ...desired } = c.desired!;
  // Endpoints left out of an item stay as they are (merge), so they are sent only on change.
  const item: ContainerItem = { id: c.live.id, ...desired };
  if (c.endpointsChanged) {
    item.endpoints = c.endpoints.filter((e) => e.desired).map(endpointPatchItem);
  }
  return item;
}

function requireVolumeId(v: VolumeMatch, ids: VolumeIds): string {
  const id = ids.get(v.name) ?? v.live?.id;
  if (!id) {
    throw new TerminalError(
      MissingItemId,
      `cannot update volumes: the platform lists volume ${JSON.stringify(v.name)} without an id, so sending the volume list would replace it`,
    );
  }
  return id;
}

function volumePatchItems(volumes: VolumeMatch[], ids: VolumeIds): VolumeItem[] {
  return volumes
    .filter((v) => v.desired)
    .map((v) => (v.live ? { id: requireVolumeId(v, ids), ...v.desired! } : v.desired!));
}

/** True when a PATCH would send volumes that already exist, so their ids must be known. */
export function needsVolumeIds(cmp: AppComparison): boolean {
  return cmp.volumesChanged && cmp.volumes.some((v) => v.desired && v.live);
}

function pickRegion(d: DesiredApp, cmp: AppComparison): AppPatch['regionSettings'] {
  const out: Record<string, unknown> = {};
  for (const f of cmp.regionFields) out[f] = d.regionSettings?.[f];
  return out;
}

/**
 * The merge patch for `PATCH /mc/apps/{appId}`, or undefined when nothing PATCH can carry
 * differs. Arrays are left out entirely when none of their items changed.
 */
export function buildPatch(
  desired: DesiredApp,
  cmp: AppComparison,
  volumeIds: VolumeIds = new Map(),
): AppPatch | undefined {
  const patch: AppPatch = {};
  if (cmp.name) patch.name = desired.name;
  if (cmp.autoScaling) patch.autoScaling = { ...desired.autoScaling };
  if (cmp.regionFields.length > 0) patch.regionSettings = pickRegion(desired, cmp);
  if (cmp.containersChanged) {
    patch.containerTemplates = cmp.containers.filter((c) => c.desired).map(containerPatchItem);
  }
  if (cmp.volumesChanged) patch.volumes = volumePatchItems(cmp.volumes, volumeIds);
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** True when a change needs the full replacement (PUT): PATCH cannot carry these fields. */
export function needsReplace(cmp: AppComparison): boolean {
  return cmp.terminationGracePeriodSeconds || cmp.repositorySettings;
}

function liveContainerBase(l: ContainerTemplateRead): Record<string, unknown> {
  const base: Record<string, unknown> = {
    imagePullPolicy: l.imagePullPolicy,
    entryPoint: l.entryPoint,
    probes: l.probes,
  };
  if (l.imageDigest) base.imageDigest = l.imageDigest;
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined && v !== null));
}

function replaceEndpoint(e: EndpointMatch): EndpointItem {
  // No id: the documented request has none; the platform matches it by displayName.
  const { id: _id, ...rest } = e.desired!;
  if (!e.live || e.replaced) return rest;
  const { id: _liveId, ...live } = liveEndpointToRequest(e.live);
  // Anycast (the spec's block is complete) or InternalIP (its name only): live, then spec.
  if (!live.cdn) return { ...live, ...rest };
  const { stickySessions, ...cdn } = live.cdn;
  // The read model shows sticky sessions even when off (no headers), a shape a write rejects.
  const sticky = stickySessions?.sessionHeaders?.length ? { stickySessions } : {};
  return { ...rest, cdn: { ...cdn, ...sticky, ...e.desired!.cdn } };
}

function replaceContainer(c: ContainerMatch): ContainerItem {
  if (!c.live) return c.desired!;
  return {
    ...liveContainerBase(c.live),
    ...c.desired!,
    id: c.live.id,
    endpoints: c.endpoints.filter((e) => e.desired).map(replaceEndpoint),
  };
}

function replaceRegion(
  desired: DesiredApp,
  live: App,
  recorded: WriteOnlyRecord | undefined,
): AppRequest['regionSettings'] {
  const region = live.regionSettings ?? { allowedRegionIds: [], requiredRegionIds: [] };
  const nodeSelectors = desired.regionSettings?.nodeSelectors ?? recorded?.nodeSelectors;
  return {
    allowedRegionIds: region.allowedRegionIds,
    requiredRegionIds: region.requiredRegionIds,
    ...(region.maxAllowedRegions != null ? { maxAllowedRegions: region.maxAllowedRegions } : {}),
    ...(nodeSelectors ? { nodeSelectors } : {}),
    ...desired.regionSettings,
  };
}

/** The body of `PUT /mc/apps/{appId}`: the full configuration, matched items with their ids. */
export function buildReplaceBody(
  desired: DesiredApp,
  cmp: AppComparison,
  live: App,
  recorded: WriteOnlyRecord | undefined,
): AppRequest {
  const body: AppRequest = {
    name: desired.name,
    runtimeType: live.runtimeType ?? 'shared',
    autoScaling: { ...desired.autoScaling },
    regionSettings: replaceRegion(desired, live, recorded),
    containerTemplates: cmp.containers.filter((c) => c.desired).map(replaceContainer),
    volumes: cmp.volumes.filter((v) => v.desired).map((v) => ({ ...v.desired! })),
  };
  const repo = desired.repositorySettings ?? live.repositorySettings;
  if (repo) body.repositorySettings = repo;
  const tgps = desired.terminationGracePeriodSeconds ?? recorded?.terminationGracePeriodSeconds;
  if (tgps !== undefined) body.terminationGracePeriodSeconds = tgps;
  return body;
}
