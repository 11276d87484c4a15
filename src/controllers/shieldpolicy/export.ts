/**
 * One shield zone as a ShieldPolicy: its target is the exported PullZoneConfig
 * (`pullZoneRef`) when the pull zone is part of the export, else the pull zone id; every field
 * the zone shows comes from shieldpolicy/reverse-mapping.ts, its bot detection and upload
 * scanning from features.ts (one GET each per zone), and its custom response pages from
 * export-pages.ts (one GET per page type; a ConfigMap per page, written before the policy), and
 * the curated access lists not at a fresh zone's configuration from curated-lists.ts (one GET).
 * Shield zones hold no secrets.
 */
import { typeMetaOf } from '../kind-names.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
} from '../shared/manifest-export.js';
import { SHIELD_POLICY_NAMES } from './types.js';
import { mergeLiveZone, type WireZone } from './mapping.js';
import { specFromLiveZone } from './reverse-mapping.js';
import { readFeature } from './feature-sync.js';
import { FEATURES, specFromFeature, type FeatureKey, type WireObject } from './features.js';
import type { CustomPageSpec } from './custom-pages.js';
import { exportPages, readExportPages } from './export-pages.js';
import { exportCuratedLists, type CuratedListSpec } from './curated-lists.js';
import type { KindPart } from '../kit/kind-parts.js';

/** The live bot detection / upload scanning objects of a zone, by spec block. */
export type LiveFeatures = Partial<Record<FeatureKey, WireObject>>;

/** What a zone has beyond its settings: features, custom pages, curated lists. */
export interface ZoneExtras {
  features?: LiveFeatures;
  customPages?: readonly CustomPageSpec[];
  curatedAccessLists?: readonly CuratedListSpec[];
}

function featureBlocks(features: LiveFeatures): Record<string, WireObject> {
  const out: Record<string, WireObject> = {};
  for (const def of FEATURES) {
    const live = features[def.key];
    if (live) out[def.key] = specFromFeature(def, live);
  }
  return out;
}

/**
 * The ShieldPolicy of the live zone `single` (single-zone GET) completed with its entry in the
 * zone list. `zoneRef` names the exported PullZoneConfig of the target zone, if any;
 * `extras.customPages` the ConfigMaps of its exported pages (export-pages.ts).
 */
export function exportShieldPolicy(
  single: WireZone,
  listItem: WireZone | undefined,
  pullZoneId: number,
  name: string,
  zoneRef: string | undefined,
  opts: ExportOptions,
  extras: ZoneExtras = {},
): ExportedObject {
  const { features = {}, customPages = [], curatedAccessLists = [] } = extras;
  const live = mergeLiveZone(single, listItem);
  const target = zoneRef ? { pullZoneRef: { name: zoneRef } } : { pullZoneId };
  const spec = {
    ...target,
    ...opts.account,
    deletionPolicy: opts.deletionPolicy === 'Delete' ? 'Reset' : 'Orphan',
    ...specFromLiveZone(live),
    ...featureBlocks(features),
    ...(customPages.length > 0 ? { customPages: [...customPages] } : {}),
    ...(curatedAccessLists.length > 0 ? { curatedAccessLists: [...curatedAccessLists] } : {}),
  };
  return {
    kind: SHIELD_POLICY_NAMES.kind,
    name,
    manifest: {
      ...typeMetaOf(SHIELD_POLICY_NAMES),
      metadata: metadataOf(name, opts.namespace),
      spec,
    },
  };
}

/** The zone's bot detection and upload scanning (one GET each). */
async function readFeatures(c: ExportContext, shieldZoneId: number): Promise<LiveFeatures> {
  const features: LiveFeatures = {};
  for (const def of FEATURES) {
    features[def.key] = await readFeature(c.client, def.key, shieldZoneId, {});
  }
  return features;
}

/**
 * Every shield zone of the account, in ascending pull zone id order, named after the exported
 * PullZoneConfig of its pull zone (which its pullZoneRef then names, when PullZoneConfigs are
 * exported too). The ConfigMaps of a zone's custom pages come right before its policy, so
 * `kubectl apply` of the output creates them first.
 */
export async function exportShieldPolicies(c: ExportContext): Promise<void> {
  const listed = await c.client.listAllShieldZones();
  const items = listed
    .map((z) => z as unknown as WireZone)
    .filter((z) => typeof z.pullZoneId === 'number')
    .sort((a, b) => Number(a.pullZoneId) - Number(b.pullZoneId));
  const names = new NameAllocator();
  const zoneNames = c.names(PULL_ZONE_CONFIG_NAMES.kind);
  for (const item of items) {
    const pullZoneId = Number(item.pullZoneId);
    const single = await c.client.getShieldZoneByPullZone(pullZoneId);
    if (!single) continue;
    const shieldZoneId = Number(single.shieldZoneId);
    const features = await readFeatures(c, shieldZoneId);
    const curatedAccessLists = exportCuratedLists(await c.client.listAccessLists(shieldZoneId));
    const zoneName = zoneNames.get(String(pullZoneId));
    const name = names.allocate(zoneName ?? '', pullZoneId, 'shield');
    const policy = { name, namespace: c.opts.namespace, shieldZoneId };
    const live = await readExportPages(c.client, policy, c.result.notes);
    const pages = exportPages(live, policy, c.configMapNames);
    const ref = c.wants(PULL_ZONE_CONFIG_NAMES.kind) ? zoneName : undefined;
    c.result.notes.push(...pages.notes);
    c.result.objects.push(
      ...pages.configMaps,
      exportShieldPolicy(single, item, pullZoneId, name, ref, c.opts, {
        features,
        customPages: pages.customPages,
        curatedAccessLists,
      }),
    );
    // Shield rules exported after this name their zone's policy (shieldPolicyRef).
    c.names(SHIELD_POLICY_NAMES.kind).set(String(single.shieldZoneId), name);
  }
}

/** The kind's `cdnctl export` exporter, under its part's name (kit/kind-parts.ts). */
export const exporter: KindPart<'exporter'> = exportShieldPolicies;
